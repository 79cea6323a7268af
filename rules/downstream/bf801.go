package downstream

import (
	"fmt"
	"go/token"
	"strings"

	"github.com/bflint/bflint/parser/bqetl"
	"github.com/bflint/bflint/parser/plan"
	"github.com/bflint/bflint/rules"
	"github.com/bflint/bflint/rules/fix"
	"golang.org/x/tools/go/analysis"
)

// UnlistedDownstream reports stored models derived from the target that
// nothing in the plan, its run, or the other plans of the run rebuilds.
var UnlistedDownstream = &rules.Rule{
	Code:     "BF801",
	Name:     "unlisted-downstream",
	Severity: rules.SeverityError,
	Scope:    rules.ScopePlan,
	Doc: rules.Doc{
		Title: "A model derived from the target must be rebuilt and the plan does not rebuild it",
		Why: "Correcting the target is half of a backfill. Every table, incremental model and materialized view built from it " +
			"(directly, or through views and ephemeral models, which read the corrected rows by themselves) still holds the rows it computed " +
			"from the old data, and serves them until it is rebuilt: the fact table is right and the revenue mart is not. " +
			"The plan must account for each such model: list it in downstream.rebuild, leave it to another plan of the same correction, " +
			"rebuild it with run.command (a dbt run or build whose --select reaches it; an incremental model only adds new rows, " +
			"so it still needs its own rebuild unless it is a microbatch model run with --event-time-start and --event-time-end), " +
			"or list it in downstream.skip with the reason it may stay as it is. " +
			"A bigquery-etl entry has no rebuild list: when its reason says it corrects rows (a fix, duplicates, missing data, " +
			"a logic change; not a first fill of a table or a column, including a reason that names a column as missing), every " +
			"incremental table built from the target (through views and tables written whole) needs an entry of its own, dated on or " +
			"after this one and covering some of its dates; on an entry still to run (status Initiate) they can only follow once it is complete, " +
			"so the finding is a warning saying what remains to do; on a Complete entry it is an error; " +
			"when the reason names the columns it changes (snake_case names before the word fields or columns, a_b_* for all that begin so), " +
			"a table is required only if its query names one of them, or the name a query between gives an expression using one (udf(x) AS y), or selects every column; " +
			"one finding per entry names them, except the tables reached only through a table whose own later entry is a correction too: that entry's finding names them. A table written whole on every run is recomputed by its next scheduled run and is not " +
			"required, nor is a table no DAG runs (a metadata.yaml without scheduling.dag_name: its partitions are written outside the tree) or a deprecated one; the tables a query.py builds are not read, so what they read from the target is not known. A table reached " +
			"only through a view that unions the target with other relations (a per-app or per-channel view) is not counted: whether " +
			"it reads the target's rows depends on the values it filters on, which bflint does not follow; bflint lineage lists such " +
			"tables apart, and a table that does read them is missed. For a Complete " +
			"entry in a git repository, a table created on or after the entry's date (its folder absent from the last commit " +
			"before that day) is not counted: it computed every partition from corrected rows. Outside git, or when the " +
			"history does not reach back to that day, every table is counted and the finding says so; a table created between the entry's date and its " +
			"completion and filled from the uncorrected rows in that time is missed.",
		Bad: rules.Example{Lang: "yaml", Text: `target: model.shop.fct_orders
downstream:
  rebuild: []
# revenue_daily (a table) reads fct_orders through the ephemeral int_orders
`},
		Good: rules.Example{Lang: "yaml", Text: `target: model.shop.fct_orders
downstream:
  rebuild:
    - model.shop.revenue_daily
  skip:
    - node: model.shop.orders_2019_archive
      reason: frozen archive of closed years; outside the corrected range
`},
	},
	Run: func(pass *rules.Pass) error {
		if pl := bqetl.Of(pass.Plan); pl != nil {
			return entryDownstream(pass, pl)
		}
		l, target := targetOf(pass)
		if target == "" {
			return nil
		}
		required := l.g.Rebuild(target)
		if len(required) == 0 {
			return nil
		}
		d := downstreamOf(pass.Plan)
		covered := map[string]bool{}
		for _, it := range d.Rebuild.Items {
			covered[l.id(it.V)] = true
		}
		// A skip without a reason waives nothing; the finding then points
		// at that entry, the one to complete.
		unexplained := map[string]token.Pos{}
		for _, s := range d.Skip {
			id := l.id(s.Node.V)
			switch {
			case strings.TrimSpace(s.Reason.V) != "":
				covered[id] = true
			case unexplained[id] == token.NoPos:
				unexplained[id] = s.Node.At()
			}
		}
		for _, p := range pass.Plans {
			if p == pass.Plan {
				continue
			}
			if p.Target.Set {
				covered[l.id(p.Target.V)] = true
			}
			for _, it := range downstreamOf(p).Rebuild.Items {
				covered[l.id(it.V)] = true
			}
		}
		run := commandRebuilds(pass, l)
		ps := pathsFrom(l, target)
		var missing, single, reasons []string
		for _, id := range required {
			if covered[id] {
				continue
			}
			ok, note := run.covers(l, id)
			if ok {
				continue
			}
			derivation := chain(l.g, ps.to(id))
			if note != "" {
				derivation += "; " + note
			}
			if pos, ok := unexplained[id]; ok {
				pass.Reportf(pos, "downstream.skip lists %q (%s) without a reason, which waives nothing: derived from the target (%s), it keeps the rows it computed before the correction and goes on serving the old numbers\nhelp: give the reason it may stay as it is, or rebuild it", id, kindOf(l, id), derivation)
				continue
			}
			missing = append(missing, id)
			over := ""
			if r := pass.Plan.Range; r != nil && r.Start.Valid() && r.End.Valid() {
				if d, ok := rebuildRange(pass, ps, id, r.Start.T, r.End.T, pass.Now); ok {
					over = fmt.Sprintf(" over %s", d)
					derivation += "; rebuilt" + over
				}
			}
			single = append(single, fmt.Sprintf("%q (%s) is not rebuilt: derived from the target (%s), it keeps the rows it computed before the correction and goes on serving the old numbers\nhelp: add it to downstream.rebuild%s, or to downstream.skip with the reason it may stay as it is", id, kindOf(l, id), derivation, over))
			reasons = append(reasons, fmt.Sprintf("%q (%s, derived through %s)", id, kindOf(l, id), derivation))
		}
		var msg string
		switch len(missing) {
		case 0:
			return nil
		case 1:
			msg = single[0]
		default:
			// One finding for the list: the fix is one edit of one key, and
			// a line per model would repeat the same advice many times.
			list := strings.Join(reasons[:min(len(reasons), maxNamed)], ", ")
			if more := len(reasons) - maxNamed; more > 0 {
				list += fmt.Sprintf(", and %d more (bflint lineage %s lists them all)", more, target)
			}
			msg = fmt.Sprintf("%d models derived from %q are not rebuilt, so each keeps the rows it computed before the correction and goes on serving the old numbers: %s\nhelp: add them to downstream.rebuild (bflint --fix adds them in rebuild order), or to downstream.skip each with the reason it may stay as it is", len(missing), target, list)
		}
		pass.Report(rules.Diagnostic{Diagnostic: analysis.Diagnostic{Pos: listPos(pass, d.Rebuild.Field), Message: msg, SuggestedFixes: addFix(pass, l, d, missing)}})
		return nil
	},
}

// addFix adds every missing model to the rebuild list at once, in rebuild
// order, and each finding carries the whole fix: added one at a time, in
// the order the findings are reported, they would not come out in rebuild
// order. None when the list's text has a shape the edits do not handle.
func addFix(pass *rules.Pass, l *lookup, d *plan.Downstream, missing []string) []analysis.SuggestedFix {
	var edits []analysis.TextEdit
	for _, id := range missing {
		e := fix.InsertItem(pass.Unit.File, d, insertAt(l, d, id), id)
		if e == nil {
			return nil
		}
		edits = append(edits, e...)
	}
	if edits == nil {
		return nil
	}
	what := strings.Join(missing, ", ")
	if len(missing) > maxNamed {
		what = fmt.Sprintf("%d models", len(missing))
	}
	return []analysis.SuggestedFix{{Message: "add " + what + " to downstream.rebuild", TextEdits: edits}}
}

// insertAt is where id enters the rebuild list: before the first listed
// model derived from it, so the list keeps its rebuild order; at the end
// when none is.
func insertAt(l *lookup, d *plan.Downstream, id string) int {
	for i, it := range d.Rebuild.Items {
		if listed := l.id(it.V); listed != "" && listed != id && l.g.Path(id, listed) != nil {
			return i
		}
	}
	return len(d.Rebuild.Items)
}
