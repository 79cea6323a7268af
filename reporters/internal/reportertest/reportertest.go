// Package reportertest builds the one result every reporter's golden test
// renders, so the golden files of all formats describe the same run and a
// reader can compare them side by side. It also holds the golden-file
// helper those tests share.
package reportertest

import (
	"bytes"
	"fmt"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bflint/bflint/parser/source"
	"github.com/bflint/bflint/parser/sqlparse"
	"github.com/bflint/bflint/rules"
)

// The build SQL packs the position edge cases onto a few lines: an escape
// character (a control character the text reporter must not pass to the
// terminal), and a line where a tab, two two-byte letters and a four-byte
// emoji (two UTF-16 units) precede the finding, so byte, rune and UTF-16
// columns all differ.
const buildSQL = "-- Rebuild January refunds.\n" +
	"DELETE FROM backfill_staging.fct_orders_2026_01\x1b[2J WHERE day >= '2026-01-01';\n" +
	"/* Aufträge für 2026 \U0001F4E6 */\tINSERT INTO analytics.fct_orders\n" +
	"SELECT * FROM backfill_staging.fct_orders_2026_01;\n" +
	"INSERT INTO analytics.fct_orders SELECT * FROM backfill_staging.fct_orders_2026_01;\n"

const planYAML = "id: fct-orders-2026-01\n" +
	"target: analytics.fct_orders\n" +
	"range:\n" +
	"  start: 2026-01-01\n" +
	"  end: 2026-01-31\n" +
	"rollback:\n" +
	"  mechanism: restore_copy\n" +
	"  # bflint:ignore BF603 restore drill ran on 2026-01-10 (ticket DATA-42)\n" +
	"  tested: false\n" +
	"communication:\n" +
	"  expected_change: refund totals drop by 0.4%\n"

// Names of the fixture files, as the driver would name them: slash paths
// relative to the project root.
const (
	BuildSQLName = "models/sql/build.sql"
	PlanName     = "plans/fct_orders.backfill.yaml"
)

func rule(code, name string, sev rules.Severity, scope rules.Scope, title, why string, bad, good rules.Example) *rules.Rule {
	return &rules.Rule{Code: code, Name: name, Severity: sev, Scope: scope,
		Doc: rules.Doc{Title: title, Why: why, Bad: bad, Good: good},
		Run: func(*rules.Pass) error { return nil }}
}

func sqlEx(s string) rules.Example  { return rules.Example{Lang: "sql", Text: s} }
func yamlEx(s string) rules.Example { return rules.Example{Lang: "yaml", Text: s} }

// Rules are the fixture's rule set; BF601 has no finding, so the SARIF
// golden shows that every known rule is described, not only those that fired.
var (
	BF002 = rule("BF002", "sql-unparsed", rules.SeverityError, rules.ScopeSQL,
		"SQL statement cannot be parsed",
		"A statement bflint cannot read is a statement no rule checked.",
		sqlEx("INSERT INTO t VALUES (1"), sqlEx("INSERT INTO t VALUES (1);"))
	BF103 = rule("BF103", "range-unconfirmed", rules.SeverityWarning, rules.ScopePlan,
		"Range boundary is not confirmed",
		"A range guessed from one query misses the first and last bad partitions.",
		yamlEx("range:\n  start: 2026-01-01\n  end: 2026-01-31"),
		yamlEx("range:\n  start: 2026-01-01\n  end: 2026-01-31\n  boundary:\n    candidate: sql/find_boundary.sql\n    confirmed: true\n    evidence: first bad row on 2026-01-01"))
	BF201 = rule("BF201", "append-write", rules.SeverityError, rules.ScopeSQL,
		"Write appends instead of replacing",
		"Re-running an appending backfill duplicates every row it wrote.",
		sqlEx("INSERT INTO analytics.fct_orders SELECT * FROM staging;"),
		sqlEx("INSERT OVERWRITE analytics.fct_orders PARTITION (day) SELECT * FROM staging;"))
	BF204 = rule("BF204", "non-atomic-replace", rules.SeverityWarning, rules.ScopeSQL,
		"Delete and insert outside one transaction",
		"Between the DELETE and the INSERT, readers see the range empty.",
		sqlEx("DELETE FROM t WHERE day = '2026-01-01';\nINSERT INTO t SELECT * FROM s;"),
		sqlEx("BEGIN;\nDELETE FROM t WHERE day = '2026-01-01';\nINSERT INTO t SELECT * FROM s;\nCOMMIT;"))
	BF207 = rule("BF207", "partition-column-dropped", rules.SeverityError, rules.ScopeSQL,
		"Insert omits the partition column",
		"Rows inserted without the partition column land in no partition of the range.",
		sqlEx("INSERT INTO t (id, amount) SELECT id, amount FROM s;"),
		sqlEx("INSERT INTO t (id, amount, day) SELECT id, amount, day FROM s;"))
	BF601 = rule("BF601", "rollback-missing", rules.SeverityError, rules.ScopePlan,
		"Plan has no rollback",
		"Without a captured copy of the old partitions, a bad backfill cannot be undone.",
		yamlEx("id: fct-orders-2026-01\ntarget: analytics.fct_orders"),
		yamlEx("rollback:\n  mechanism: restore_copy\n  location: backfill_rollback.fct_orders_2026_01"))
	BF603 = rule("BF603", "rollback-untested", rules.SeverityWarning, rules.ScopePlan,
		"Rollback was never tried",
		"A restore that was never rehearsed tends to fail on the day it is needed.",
		yamlEx("rollback:\n  tested: false"), yamlEx("rollback:\n  tested: true"))
	BF902 = rule("BF902", "communication-missing", rules.SeverityWarning, rules.ScopePlan,
		"Consumers are not told about the change",
		"Numbers that move without notice erode trust in every dashboard built on them.",
		yamlEx("communication: {}"),
		yamlEx("communication:\n  expected_change: refund totals drop by 0.4%\n  consumers: [finance]"))
)

// Messages that tests refer to.
const (
	// EscapeMessage holds every character GitHub's workflow commands escape.
	EscapeMessage = "communication has no \"consumers\": readers of \"analytics.fct_orders\" (dashboards, exports) see refund totals drop by 0.4% unannounced\nList them under communication.consumers."
	AppendMessage = "INSERT into \"analytics.fct_orders\" appends: re-running the backfill duplicates rows"
)

// Result returns a fresh copy of the fixture result, sorted the way the
// driver sorts findings.
func Result() *rules.Result {
	fset := token.NewFileSet()
	build := source.Add(fset, BuildSQLName, []byte(buildSQL))
	plan := source.Add(fset, PlanName, []byte(planYAML))
	return &rules.Result{
		Fset:  fset,
		Rules: []*rules.Rule{BF002, BF103, BF201, BF204, BF207, BF601, BF603, BF902},
		Units: 2,
		// One statement of build.sql is the BF002 below; another was
		// read from its tokens.
		Coverage: rules.Coverage{Tally: rules.Tally{Files: 2, Statements: [3]int{5, 1, 1}},
			Unparsed: []rules.Unparsed{
				{File: build, Pos: At(build, 2, "\x1b"), Read: sqlparse.CoverageNone, Construct: "an escape character (0x1B) \"\x1b[2J\"", Statements: 1},
				{File: build, Pos: At(build, 5, "INSERT"), Read: sqlparse.CoverageTokens, Construct: "\"SELECT\"", Statements: 1},
			},
			ProjectProblems: []rules.ProjectProblem{{File: "models/staging/schema.yml", Msg: "is not valid YAML: yaml: line 3: did not find expected key"}}},
		Findings: []rules.Finding{
			{Rule: BF204, Severity: rules.SeverityWarning, File: build,
				Pos: At(build, 2, "DELETE"), End: After(build, 4, ";"),
				Message: "DELETE then INSERT of \"analytics.fct_orders\" run outside one transaction: readers see the range empty in between",
				Related: []rules.Related{{File: build, Pos: At(build, 3, "INSERT"), End: After(build, 3, "analytics.fct_orders"), Message: "refills \"analytics.fct_orders\" outside the DELETE's transaction"}}},
			{Rule: BF002, Severity: rules.SeverityError, File: build,
				Pos:     At(build, 2, "\x1b"),
				Message: "syntax error at or near an escape character (0x1B): the statement was not analysed"},
			{Rule: BF201, Severity: rules.SeverityError, File: build,
				Pos: At(build, 3, "analytics.fct_orders"), End: After(build, 3, "analytics.fct_orders"),
				Message: AppendMessage},
			{Rule: BF201, Severity: rules.SeverityError, File: build,
				Pos: At(build, 5, "analytics.fct_orders"), End: After(build, 5, "analytics.fct_orders"),
				Message: AppendMessage},
			{Rule: BF103, Severity: rules.SeverityWarning, File: plan,
				Pos:     At(plan, 3, "range"),
				Message: "\"range\" has no \"boundary\": nobody confirmed where the bad data starts and ends",
				Help:    "add range.boundary with the candidate and confirmed dates"},
			{Rule: BF603, Severity: rules.SeverityWarning, File: plan,
				Pos:        At(plan, 9, "tested"),
				Message:    "\"rollback.tested\" is false: the restore has never been tried",
				Suppressed: &rules.Suppression{Justification: "restore drill ran on 2026-01-10 (ticket DATA-42)"}},
			// A config override turned this warning into info.
			{Rule: BF902, Severity: rules.SeverityInfo, File: plan,
				Pos:     At(plan, 10, "communication"),
				Message: EscapeMessage},
		},
		Errors: []rules.InternalError{
			{Rule: BF207, File: build,
				Message: "rule BF207 (partition-column-dropped) crashed: runtime error: index out of range [2] with length 2\ngoroutine 12 [running]:\nruntime/debug.Stack()"},
		},
	}
}

// At is the position of the first needle on a 1-based line; it panics when
// the needle is absent, since that is a broken fixture.
func At(f *source.File, line int, needle string) token.Pos {
	text := f.Line(line)
	i := strings.Index(text, needle)
	if i < 0 {
		panic("fixture: " + needle + " not on line of " + f.Name)
	}
	return f.Pos(f.Offset(f.LineStart(line)) + i)
}

// After is the position just past the first needle on a line.
func After(f *source.File, line int, needle string) token.Pos {
	return At(f, line, needle) + token.Pos(len(needle))
}

// Golden compares got with testdata/golden/name at the repository root, or
// rewrites that file when update is set. Tests run in their package folder,
// two levels below the root.
func Golden(t *testing.T, name string, got []byte, update bool) {
	t.Helper()
	path := filepath.Join("..", "..", "testdata", "golden", name)
	if update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatalf("update golden: %v", err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read golden (run the test with -update to create it): %v", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("output differs from %s (run with -update if the change is intended)\n%s", path, lineDiff(string(want), string(got)))
	}
}

// lineDiff shows the first differing line, which is usually enough to see
// what changed without pulling in a diff library.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			return fmt.Sprintf("line %d:\n  want: %q\n  got:  %q", i+1, wl, gl)
		}
	}
	return "(no line differs; check line endings)"
}
