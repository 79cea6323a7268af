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

// TestMayBeDeepBoundsTheScan checks that the shortcut never hides a
// statement the scan finds too deep: near the limits, with every kind of
// level the scan counts, the two agree whenever the scan says deep.
func TestMayBeDeepBoundsTheScan(t *testing.T) {
	repeat := func(s string, n int) string {
		out := ""
		for range n {
			out += s
		}
		return out
	}
	var inputs []string
	for _, n := range []int{MaxNesting - 1, MaxNesting, MaxNesting + 1} {
		inputs = append(inputs, "SELECT "+repeat("(", n)+"1"+repeat(")", n))
		inputs = append(inputs, "SELECT "+repeat("[", n)+"1"+repeat("]", n))
	}
	for _, n := range []int{MaxDepth - 2, MaxDepth - 1, MaxDepth, MaxDepth + 1} {
		inputs = append(inputs, "SELECT 1"+repeat(" + 1", n))
		inputs = append(inputs, "SELECT 1"+repeat(" UNION SELECT 1", n))
		inputs = append(inputs, "SELECT 1"+repeat(" union all select 1", n))
		inputs = append(inputs, "SELECT 1"+repeat(" MINUS SELECT 1", n))
		inputs = append(inputs, "SELECT 1"+repeat(" INTERSECT SELECT 1", n))
		inputs = append(inputs, "SELECT "+repeat("(1 +", n/3)+" 1"+repeat(")", n/3))
		inputs = append(inputs, "SELECT "+repeat("(SELECT 1 EXCEPT ", n/2)+"1"+repeat(")", n/2))
	}
	deep := 0
	for _, in := range inputs {
		toks, _ := sqltext.Lex(in)
		code := sqltext.Code(toks)
		if _, _, d := depthScan(in, code); d {
			deep++
			if !mayBeDeep(in, code) {
				t.Errorf("the scan finds %.60q... too deep, but mayBeDeep does not", in)
			}
		}
	}
	if deep == 0 {
		t.Fatal("no input was too deep: the test checks nothing")
	}
}
