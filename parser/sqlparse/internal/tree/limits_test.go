package tree

import (
	"testing"

	"github.com/bflint/bflint/parser/sqlparse/sqltext"
)

// TestDepthWordsAreKeywords keeps TooDeep's shortcut true: it reads words
// with Cursor.Keyword, which knows only the keyword table, so a word of
// setOperations or chainEnds missing from it would never count.
func TestDepthWordsAreKeywords(t *testing.T) {
	for _, words := range []map[string]bool{setOperations, chainEnds} {
		for w := range words {
			if !sqltext.IsKeyword(w) {
				t.Errorf("%s is read by TooDeep but missing from sqltext's keyword table", w)
			}
		}
	}
}
