package rules

import (
	"go/token"
	"regexp"
	"testing"

	"github.com/bflint/bflint/parser/source"
)

var fingerprintRule = &Rule{Code: "BF201", Name: "append-write", Severity: SeverityError}

// The fingerprint must not move with the line: inserting lines above a
// finding (a new comment, a reordered statement) keeps its identity, so a
// code-scanning service does not close the alert and open a new one.
func TestFingerprintIgnoresPosition(t *testing.T) {
	const msg = `INSERT into "analytics.fct_orders" appends: re-running the backfill duplicates rows`
	before := source.Add(token.NewFileSet(), "sql/build.sql", []byte("INSERT INTO analytics.fct_orders SELECT 1;\n"))
	fsetAfter := token.NewFileSet()
	after := source.Add(fsetAfter, "sql/build.sql", []byte("-- new comment\n-- and another\n\n  INSERT INTO analytics.fct_orders SELECT 1;\n"))
	a := Fingerprints([]Finding{{Rule: fingerprintRule, File: before, Pos: before.Pos(12), Message: msg}})
	b := Fingerprints([]Finding{{Rule: fingerprintRule, File: after, Pos: after.Pos(44), End: after.Pos(64), Message: msg}})
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
	other := &Rule{Code: "BF204", Name: "non-atomic-replace", Severity: SeverityWarning}
	fs := []Finding{
		{Rule: fingerprintRule, File: f, Pos: f.Pos(0), Message: "m"},
		{Rule: fingerprintRule, File: f, Pos: f.Pos(24), Message: "m", Suppressed: &Suppression{}}, // second occurrence
		{Rule: fingerprintRule, File: g, Pos: g.Pos(0), Message: "m"},                              // other file
		{Rule: other, File: f, Pos: f.Pos(0), Message: "m"},                                        // other rule
		{Rule: fingerprintRule, File: f, Pos: f.Pos(0), Message: "n"},                              // other message
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
