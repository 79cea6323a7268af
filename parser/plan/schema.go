package plan

import _ "embed"

// Schema is the JSON Schema of the plan format, for editors and `bflint schema`.
//
//go:embed schema.json
var Schema []byte
