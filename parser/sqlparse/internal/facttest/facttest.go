// Package facttest describes statement facts as short strings, for the
// tests of both readers to compare with what they expect.
package facttest

import (
	"fmt"
	"strings"

	"github.com/bflint/bflint/parser/sqlparse/fact"
)

// At is offset off of src as line:column, both from 1.
func At(src string, off int) string {
	line := strings.Count(src[:off], "\n") + 1
	return fmt.Sprintf("%d:%d", line, off-strings.LastIndex(src[:off], "\n"))
}

// Offsets are offsets of src as line:column, comma-separated.
func Offsets(src string, offs []int) string {
	var out []string
	for _, o := range offs {
		out = append(out, At(src, o))
	}
	return strings.Join(out, ",")
}

// Bounds describes bounds as "qualifier.column op kind:value@line:column",
// separated by "; ".
func Bounds(src string, bs []fact.Bound) string {
	var out []string
	for _, b := range bs {
		col := b.Column
		if b.Qualifier != "" {
			col = b.Qualifier + "." + col
		}
		out = append(out, fmt.Sprintf("%s %s %s:%s@%s", col, b.Op, b.Value.Kind, b.Value.Text, At(src, b.Value.Offset)))
	}
	return strings.Join(out, "; ")
}
