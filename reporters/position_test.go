package reporters

import (
	"go/token"
	"regexp"
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

// The fingerprint must not move with the line: inserting lines above a
// finding (a new comment, a reordered statement) keeps its identity, so a
// code-scanning service does not close the alert and open a new one.
func TestFingerprintIgnoresPosition(t *testing.T) {
	const msg = `INSERT into "analytics.fct_orders" appends: re-running the backfill duplicates rows`
	before := source.Add(token.NewFileSet(), "sql/build.sql", []byte("INSERT INTO analytics.fct_orders SELECT 1;\n"))
	fsetAfter := token.NewFileSet()
	after := source.Add(fsetAfter, "sql/build.sql", []byte("-- new comment\n-- and another\n\n  INSERT INTO analytics.fct_orders SELECT 1;\n"))
	a := Fingerprints([]rules.Finding{{Rule: testRule, File: before, Pos: before.Pos(12), Message: msg}})
	b := Fingerprints([]rules.Finding{{Rule: testRule, File: after, Pos: after.Pos(44), End: after.Pos(64), Message: msg}})
	if a[0] != b[0] {
		t.Errorf("fingerprint changed when the finding moved: %s vs %s", a[0], b[0])
	}
	if !regexp.MustCompile(`^[0-9a-f]{64}$`).MatchString(a[0]) {
		t.Errorf("fingerprint %q is not hex SHA-256", a[0])
	}
}

func TestFingerprintsDistinguish(t *testing.T) {
	fset := token.NewFileSet()
	f := source.Add(fset, "sql/build.sql", []byte("INSERT INTO a SELECT 1;\nINSERT INTO a SELECT 2;\n"))
	g := source.Add(fset, "sql/other.sql", []byte("INSERT INTO a SELECT 1;\n"))
	other := &rules.Rule{Code: "BF204", Name: "non-atomic-replace", Severity: rules.SeverityWarning}
	fs := []rules.Finding{
		{Rule: testRule, File: f, Pos: f.Pos(0), Message: "m"},
		{Rule: testRule, File: f, Pos: f.Pos(24), Message: "m", Suppressed: &rules.Suppression{}}, // second occurrence
		{Rule: testRule, File: g, Pos: g.Pos(0), Message: "m"},                                    // other file
		{Rule: other, File: f, Pos: f.Pos(0), Message: "m"},                                       // other rule
		{Rule: testRule, File: f, Pos: f.Pos(0), Message: "n"},                                    // other message
	}
	prints := Fingerprints(fs)
	seen := map[string]int{}
	for i, p := range prints {
		if j, dup := seen[p]; dup {
			t.Errorf("findings %d and %d share fingerprint %s", j, i, p)
		}
		seen[p] = i
	}
	if want := Fingerprint("BF201", "sql/build.sql", "m", 1); prints[1] != want {
		t.Errorf("second occurrence: %s, want Fingerprint(..., 1) = %s", prints[1], want)
	}
	// The recipe is part of the output contract (json "fingerprint", SARIF
	// "bflintFingerprint/v1"): pin it, computed outside Go as
	// sha256("BF201\x00sql/build.sql\x00m\x000"), so a change is deliberate.
	if got, want := Fingerprint("BF201", "sql/build.sql", "m", 0), "d063c97b46283390705defa28a16619d161313742d26ec3d82898b89d903e044"; got != want {
		t.Errorf("Fingerprint(BF201, sql/build.sql, m, 0) = %s, want %s", got, want)
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
