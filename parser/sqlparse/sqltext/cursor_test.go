package sqltext

import (
	"strings"
	"testing"
)

// TestUpperWordIsToUpper: the keyword table changes where an upper-cased
// word is stored, never what it says.
func TestUpperWordIsToUpper(t *testing.T) {
	for _, w := range []string{"select", "Select", "SELECT", "from", "fromage", "x", "", "straße", "date_trunc", "json_extract_scalar", "a_very_long_identifier_past_every_keyword"} {
		if got, want := upperWord(w), strings.ToUpper(w); got != want {
			t.Errorf("upperWord(%q) = %q, want %q", w, got, want)
		}
	}
	for k, v := range keywords {
		if k != v || k != strings.ToUpper(k) || len(k) > maxKeywordLen {
			t.Errorf("keyword %q: must be upper case, map to itself and be at most %d bytes", k, maxKeywordLen)
		}
		if got := upperWord(strings.ToLower(k)); got != k {
			t.Errorf("upperWord(%q) = %q", strings.ToLower(k), got)
		}
	}
}

// TestQuotedErrors: an unterminated quote names what it opened.
func TestQuotedErrors(t *testing.T) {
	for src, want := range map[string]string{
		`select 'abc`:   "unterminated string",
		`select "abc`:   "unterminated quoted identifier",
		"select `abc":   "unterminated back-quoted identifier",
		`select E'ab\'`: "unterminated string",
		`select r"ab`:   "unterminated string",
	} {
		_, err := Lex(src)
		if err == nil || err.Msg != want {
			t.Errorf("Lex(%q) error = %v, want %q", src, err, want)
		}
	}
}

// TestSelectListEndsAreKeywords: a scan may ask Keyword before
// EndsSelectList.
func TestSelectListEndsAreKeywords(t *testing.T) {
	for w := range selectListEnds {
		if !IsKeyword(w) {
			t.Errorf("%s ends a select list but is missing from the keyword table", w)
		}
	}
	c := NewCursor("select ſelect from", []Token{{Word, 0, 6}, {Word, 7, 14}, {Word, 15, 19}})
	for i := range 3 {
		if got, want := c.Keyword(i), c.Word(i); got != want {
			t.Errorf("Keyword(%d) = %q, Word = %q", i, got, want)
		}
	}
}
