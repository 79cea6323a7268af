// Package schematest checks documents against the JSON Schemas bflint
// ships (the JSON report, the brief), offline: the draft 2020-12
// metaschema is built into the validator, and nothing is fetched.
package schematest

import (
	"bytes"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Compile compiles the schema in data, whose $id must be id: a schema
// published under another address would be found by nobody.
func Compile(t testing.TB, id string, data []byte) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("the schema %s is not JSON: %v", id, err)
	}
	if got, _ := doc.(map[string]any)["$id"].(string); got != id {
		t.Fatalf("the schema's $id is %q, want %q", got, id)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(id, doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile(id)
	if err != nil {
		t.Fatalf("compile %s: %v", id, err)
	}
	return sch
}

// Validate reports an error unless out is JSON that matches sch.
func Validate(t testing.TB, sch *jsonschema.Schema, out []byte) {
	t.Helper()
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(out))
	if err != nil {
		t.Fatalf("the output is not JSON: %v\n%s", err, out)
	}
	if err := sch.Validate(inst); err != nil {
		t.Errorf("the output does not match its schema: %v\n%s", err, out)
	}
}
