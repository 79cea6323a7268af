package brief

import (
	_ "embed"
	"io"

	"github.com/bflint/bflint/reporters"
)

// Schema is the JSON Schema (draft 2020-12) of the document WriteJSON
// writes; a test checks the output against it.
//
//go:embed schema.json
var Schema []byte

// WriteJSON writes the document as indented JSON, whole or not at all.
// Lists are [] when empty; a section the plan does not answer is null.
func WriteJSON(w io.Writer, doc *Document) error {
	return reporters.WriteJSON(w, doc)
}
