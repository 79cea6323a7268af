package plan

import (
	_ "embed"
	"encoding/json"
	"strings"
	"sync"
)

// Schema is the JSON Schema of the plan format, for editors and `bflint schema`.
//
//go:embed schema.json
var Schema []byte

// schemaNode is the part of a JSON Schema that describes a key.
type schemaNode struct {
	Description string                 `json:"description"`
	Properties  map[string]*schemaNode `json:"properties"`
	Items       *schemaNode            `json:"items"`
}

var schemaRoot = sync.OnceValue(func() *schemaNode {
	var root schemaNode
	_ = json.Unmarshal(Schema, &root) // a test keeps schema.json valid
	return &root
})

// Describe is what the schema says a key means, for a key path as the
// parser's messages write it ("rollback.restore_time",
// "validation.checks[1].name"); "" for a key it does not describe.
func Describe(path string) string {
	n := schemaRoot()
	for _, part := range strings.Split(path, ".") {
		name, index, list := strings.Cut(part, "[")
		if n = n.Properties[name]; n == nil {
			return ""
		}
		for ; list && n != nil; _, index, list = strings.Cut(index, "[") {
			n = n.Items
		}
	}
	return n.Description
}
