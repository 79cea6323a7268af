package reporters

import (
	"go/token"
	"testing"

	"github.com/bflint/bflint/parser/source"
	"github.com/bflint/bflint/rules"
)

var testRule = &rules.Rule{Code: "BF201", Name: "append-write", Severity: rules.SeverityError}

func TestUTF16Column(t *testing.T) {
	tests := []struct {
		line    string
		byteCol int
		want    int
	}{
		{"abc", 1, 1},
		{"abc", 3, 3},
		{"\tx", 2, 2},            // a tab is one unit
		{"äx", 3, 2},             // two bytes, one unit
		{"\U0001F4E6x", 5, 3},    // four bytes, a surrogate pair
		{"€x", 4, 2},             // three bytes, one unit
		{"ab", 3, 3},             // just past the text
		{"ab", 5, 5},             // past a stripped line ending
		{"a\xffb", 3, 3},         // an invalid byte counts as one unit
		{"x", 0, 1},              // clamped
		{"ä\U0001F4E6\tz", 8, 5}, // mixed, at the z
	}
	for _, tt := range tests {
		if got := utf16Column(tt.line, tt.byteCol); got != tt.want {
			t.Errorf("utf16Column(%q, %d) = %d, want %d", tt.line, tt.byteCol, got, tt.want)
		}
	}
}

func TestLocate(t *testing.T) {
	fset := token.NewFileSet()
	f := source.Add(fset, "a.sql", []byte("-- ä\r\n\tSELECT 1;\n"))
	other := source.Add(fset, "b.sql", []byte("SELECT 2;\n"))
	p, ok := Locate(fset, f, f.Pos(8)) // "SELECT" after the tab on line 2
	if !ok || p != (Position{Line: 2, Column: 2, UTF16Column: 2}) {
		t.Errorf("Locate = %+v, %v", p, ok)
	}
	p, ok = Locate(fset, f, f.Pos(5)) // the '\r' that Line strips
	if !ok || p != (Position{Line: 1, Column: 6, UTF16Column: 5}) {
		t.Errorf("Locate at CR = %+v, %v", p, ok)
	}
	if _, ok := Locate(fset, f, other.Pos(0)); ok {
		t.Error("a position in another file was located")
	}
	if _, ok := Locate(fset, f, token.NoPos); ok {
		t.Error("NoPos was located")
	}
}

func TestSpan(t *testing.T) {
	fset := token.NewFileSet()
	f := source.Add(fset, "a.sql", []byte("INSERT INTO t SELECT 1;\n"))
	other := source.Add(fset, "b.sql", []byte("SELECT 2;\n"))
	tests := []struct {
		name     string
		pos, end token.Pos
		start    Position
		hasEnd   bool
	}{
		{"with end", f.Pos(12), f.Pos(13), Position{1, 13, 13}, true},
		{"no end", f.Pos(12), token.NoPos, Position{1, 13, 13}, false},
		{"end before pos", f.Pos(12), f.Pos(3), Position{1, 13, 13}, false},
		{"end in another file", f.Pos(12), other.Pos(3), Position{1, 13, 13}, false},
		{"pos outside the file", other.Pos(2), token.NoPos, Position{1, 1, 1}, false},
	}
	for _, tt := range tests {
		start, end, hasEnd := Span(fset, rules.Finding{Rule: testRule, File: f, Pos: tt.pos, End: tt.end})
		if start != tt.start || hasEnd != tt.hasEnd {
			t.Errorf("%s: Span = %+v, %+v, %v; want start %+v, hasEnd %v", tt.name, start, end, hasEnd, tt.start, tt.hasEnd)
		}
	}
}

func TestEffectiveSeverity(t *testing.T) {
	if got := EffectiveSeverity(rules.Finding{Rule: testRule}); got != rules.SeverityError {
		t.Errorf("default severity resolved to %v, want the rule's", got)
	}
	if got := EffectiveSeverity(rules.Finding{Rule: testRule, Severity: rules.SeverityInfo}); got != rules.SeverityInfo {
		t.Errorf("override lost: %v", got)
	}
}
