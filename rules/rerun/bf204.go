package rerun

import (
	"fmt"

	"github.com/bflint/bflint/parser/sqlname"
	"github.com/bflint/bflint/parser/sqlparse"
	"github.com/bflint/bflint/parser/sqlparse/fact"
	"github.com/bflint/bflint/rules"
	"golang.org/x/tools/go/analysis"
)

// NonAtomicReplace reports a DELETE and the INSERT that refills the same
// relation, run as two separate commits.
var NonAtomicReplace = &rules.Rule{
	Code:        "BF204",
	Name:        "non-atomic-replace",
	Severity:    rules.SeverityWarning,
	Scope:       rules.ScopeSQL,
	ReadsTokens: true,
	Doc: rules.Doc{
		Title: "A DELETE of a range is followed by its INSERT outside one transaction",
		Why: "Deleting a range and inserting it again converges on re-run, but only the pair is a replace: each statement on its own " +
			"commits as soon as it finishes. Between the two, every reader sees the range empty, so a dashboard refreshed at that moment " +
			"shows revenue falling to zero; if the INSERT fails, the range stays empty until someone notices. " +
			"Run both in one transaction, or replace in a single statement (MERGE, INSERT OVERWRITE of the partitions, a partition swap). " +
			"Staging relations have no readers and are not reported.",
		Bad: rules.Example{Lang: "sql", Text: `DELETE FROM analytics.fct_orders
WHERE order_date BETWEEN DATE '2026-01-14' AND DATE '2026-06-30';
-- readers see no orders for the range until this finishes
INSERT INTO analytics.fct_orders
SELECT * FROM backfill_staging.fct_orders__bf20260826_a;
`},
		Good: rules.Example{Lang: "sql", Text: `BEGIN;
DELETE FROM analytics.fct_orders
WHERE order_date BETWEEN DATE '2026-01-14' AND DATE '2026-06-30';
INSERT INTO analytics.fct_orders
SELECT * FROM backfill_staging.fct_orders__bf20260826_a;
COMMIT;
`},
	},
	Run: func(pass *rules.Pass) error {
		for _, f := range pass.Unit.SQL {
			reportSplitReplaces(pass, f)
		}
		return nil
	},
}

// refills are the writes that put rows back after a DELETE.
var refills = map[fact.WriteKind]bool{
	fact.WriteInsert:           true,
	fact.WriteInsertOnConflict: true,
	fact.WriteCopy:             true,
}

func reportSplitReplaces(pass *rules.Pass, f *rules.SQLFile) {
	stmts := f.Parsed.Statements
	order := inOrder(f.Parsed)
	for n, i := range order {
		del := stmts[i]
		ws, delTokens := pass.Writes(del)
		if len(ws) == 0 || ws[0].Kind != fact.WriteDelete || pass.IsStaging(ws[0].Target) {
			continue
		}
		w := ws[0]
		j, ins, insTokens := refillOf(pass, stmts, order[n+1:], del, w.Target)
		if ins == nil {
			continue
		}
		tx := f.Parsed.Transaction(i)
		if tx >= 0 && tx == f.Parsed.Transaction(j) {
			continue
		}
		msg := fmt.Sprintf("DELETE from %q and the INSERT into it are not in one transaction: readers see the range empty in between, and a failed INSERT leaves it empty\nhelp: put both in one BEGIN ... COMMIT, or replace the range in one statement (MERGE, INSERT OVERWRITE)", w.Target.Name())
		d := rules.Diagnostic{Diagnostic: analysis.Diagnostic{Pos: f.Pos(del.Start), Message: msg,
			Related: []analysis.RelatedInformation{{Pos: f.Pos(ins.Start), Message: fmt.Sprintf("refills %q outside the DELETE's transaction", w.Target.Name())}}}}
		if delTokens || insTokens {
			d.Message += rules.TokensNote
			d.FromTokens = true
		}
		pass.Report(d)
	}
}

// refillOf returns the first statement among later that writes rows back
// into rel, with its index and whether its write was read from tokens.
func refillOf(pass *rules.Pass, stmts []*sqlparse.Statement, later []int, del *sqlparse.Statement, rel sqlname.Relation) (int, *sqlparse.Statement, bool) {
	for _, j := range later {
		st := stmts[j]
		if st.Start <= del.Start || !sameRun(del, st) {
			continue
		}
		ws, fromTokens := pass.Writes(st)
		for _, w := range ws {
			if refills[w.Kind] && w.Target.Matches(rel) {
				return j, st, fromTokens
			}
		}
	}
	return -1, nil, false
}
