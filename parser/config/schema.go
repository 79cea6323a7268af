package config

import _ "embed"

// Schema is the JSON Schema of .bflint.yaml, for editors and
// `bflint schema --config`.
//
//go:embed schema.json
var Schema []byte
