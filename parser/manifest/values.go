package manifest

import (
	"encoding/json"
	"reflect"
)

// StringList is a config value dbt accepts as one string or a list of
// strings (unique_key). Empty strings are dropped, so no key at all is nil.
type StringList []string

// UnmarshalJSON accepts null, a string or a list of strings.
func (l *StringList) UnmarshalJSON(data []byte) error {
	switch jsonKind(data) {
	case "null":
		*l = nil
		return nil
	case "string":
		var s string
		if err := json.Unmarshal(data, &s); err != nil {
			return err
		}
		*l = nil
		if s != "" {
			*l = StringList{s}
		}
		return nil
	case "array":
		var items []string
		if err := json.Unmarshal(data, &items); err != nil {
			return err
		}
		*l = nil
		for _, s := range items {
			if s != "" {
				*l = append(*l, s)
			}
		}
		return nil
	}
	return &json.UnmarshalTypeError{Value: jsonKind(data), Type: reflect.TypeFor[StringList]()}
}

// ModelVersion is a versioned model's version. dbt writes it as a number and
// Fusion as a string; both become the text as written ("2", "2.1", "v2").
type ModelVersion string

// UnmarshalJSON accepts null, a string or a number.
func (v *ModelVersion) UnmarshalJSON(data []byte) error {
	switch jsonKind(data) {
	case "null":
		*v = ""
		return nil
	case "number":
		*v = ModelVersion(data)
		return nil
	case "string":
		var s string
		if err := json.Unmarshal(data, &s); err != nil {
			return err
		}
		*v = ModelVersion(s)
		return nil
	}
	return &json.UnmarshalTypeError{Value: jsonKind(data), Type: reflect.TypeFor[ModelVersion]()}
}

// Checksum is the hash dbt recorded for a node's file: Name is the method
// ("sha256", or "path" for seeds too large to hash, "none" for entries
// without a file). Unit tests of some dbt versions record a bare string,
// which becomes Checksum with an empty Name.
type Checksum struct {
	Name     string `json:"name"`
	Checksum string `json:"checksum"`
}

// UnmarshalJSON accepts null, a {name, checksum} object or a string.
func (c *Checksum) UnmarshalJSON(data []byte) error {
	switch jsonKind(data) {
	case "null":
		*c = Checksum{}
		return nil
	case "string":
		*c = Checksum{}
		return json.Unmarshal(data, &c.Checksum)
	case "object":
		type plain Checksum
		var p plain
		if err := json.Unmarshal(data, &p); err != nil {
			return err
		}
		*c = Checksum(p)
		return nil
	}
	return &json.UnmarshalTypeError{Value: jsonKind(data), Type: reflect.TypeFor[Checksum]()}
}

// jsonKind names the kind of the JSON value data starts with, in the words
// encoding/json uses in UnmarshalTypeError.Value. The decoder hands
// UnmarshalJSON a value without surrounding whitespace.
func jsonKind(data []byte) string {
	if len(data) == 0 {
		return "empty"
	}
	switch data[0] {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "bool"
	case 'n':
		return "null"
	}
	return "number"
}

// PartitionBy is a model's partition_by config as far as it names one
// partition column: BigQuery's object {field, data_type, granularity}, or
// the column name (or a list of exactly one) of Spark and Databricks. Any
// other shape, several columns among them, reads as no partition column
// rather than failing the manifest, since lineage does not depend on it.
type PartitionBy struct {
	Field, DataType, Granularity string
}

func (p *PartitionBy) UnmarshalJSON(data []byte) error {
	*p = PartitionBy{}
	switch jsonKind(data) {
	case "string":
		return json.Unmarshal(data, &p.Field)
	case "array":
		var items []json.RawMessage
		if json.Unmarshal(data, &items) == nil && len(items) == 1 {
			var field string
			if json.Unmarshal(items[0], &field) == nil {
				p.Field = field
			}
		}
	case "object":
		var members map[string]json.RawMessage
		if json.Unmarshal(data, &members) != nil {
			return nil
		}
		for key, dst := range map[string]*string{"field": &p.Field, "data_type": &p.DataType, "granularity": &p.Granularity} {
			if raw, ok := members[key]; ok {
				var v string
				if json.Unmarshal(raw, &v) == nil {
					*dst = v
				}
			}
		}
	}
	return nil
}
