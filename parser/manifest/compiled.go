package manifest

import (
	"encoding/json"
	"os"
)

// CompiledCode is the compiled_code the manifest at path records for the
// node id (dbt writes it on compile and run, not on parse), "" and false
// when it records none. Lineage never needs it, so the scan that reads
// manifests skips it; this reads the one node's from the file, once, for
// bflint init.
func CompiledCode(path, id string) (string, bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", false, err
	}
	defer f.Close()
	dec := json.NewDecoder(f)
	if !enterObject(dec) || !seekKey(dec, "nodes") || !enterObject(dec) || !seekKey(dec, id) || !enterObject(dec) || !seekKey(dec, "compiled_code") {
		return "", false, nil
	}
	var code *string
	if err := dec.Decode(&code); err != nil {
		return "", false, err
	}
	if code == nil || *code == "" {
		return "", false, nil
	}
	return *code, true, nil
}

// enterObject reads the '{' that opens an object.
func enterObject(dec *json.Decoder) bool {
	t, err := dec.Token()
	d, ok := t.(json.Delim)
	return err == nil && ok && d == '{'
}

// seekKey reads the members of the object the decoder is in until key,
// skipping the values of the others, and stops before key's value; false
// when the object ends first.
func seekKey(dec *json.Decoder, key string) bool {
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return false
		}
		if k, ok := t.(string); ok && k == key {
			return true
		}
		if err := skipValue(dec); err != nil {
			return false
		}
	}
	return false
}

// skipValue reads past one value, however deep.
func skipValue(dec *json.Decoder) error {
	var raw json.RawMessage
	return dec.Decode(&raw)
}
