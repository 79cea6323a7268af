package downstream

import (
	"fmt"
	"strings"

	"github.com/bflint/bflint/parser/bqetl"
	"github.com/bflint/bflint/rules"
)

// DownstreamRangeShort reports a node derived from the target that reads
// a window of it and is rebuilt over less than the range the window
// widens the correction to.
var DownstreamRangeShort = &rules.Rule{
	Code:     "BF809",
	Name:     "downstream-range-short",
	Severity: rules.SeverityError,
	Scope:    rules.ScopePlan,
	Doc: rules.Doc{
		Title: "A table that reads a window of the target is rebuilt over the target's range, not the range the window widens it to",
		Why: "A table whose partition D is computed from the 28 days of the target before D (a rolling count, the bit " +
			"histories of a clients_last_seen table) or from D's month still holds, after the target is corrected over S..E, " +
			"partitions computed from uncorrected rows up to E+27, or to the end of E's month. Rebuilding it over S..E, as BF801 " +
			"asks, leaves those last weeks stale, and nothing fails. bflint reads the window from the query: the bounds its " +
			"filter puts on the target's date column relative to the date parameter (DATE_SUB(@submission_date, INTERVAL 27 DAY), " +
			"BETWEEN, DATE_TRUNC(..., MONTH), LAST_DAY), views passing windows through, windows adding up along a path, and " +
			"a table that reads its own previous partition with N-day bit patterns reading N days. A bigquery-etl entry: the " +
			"table's later entries must cover the widened range; BF801 reports a table with none, naming the range. A plan: " +
			"a downstream.rebuild entry with a range must cover it. bflint reads windows from a bigquery-etl tree's SQL; a dbt " +
			"project's windows are not read, and a read it cannot bound (unfiltered, or by anything but the date parameter) " +
			"is not judged.",
		Bad: rules.Example{Lang: "yaml", Text: `# worker_costs_v1/backfill.yaml; task_run_costs_v1 reads 30 days of it
2026-05-19:
  start_date: 2026-03-20
  end_date: 2026-05-17
# task_run_costs_v1/backfill.yaml
2026-05-20:
  start_date: 2026-04-19
  end_date: 2026-05-17
`},
		Good: rules.Example{Lang: "yaml", Text: `# task_run_costs_v1/backfill.yaml
2026-05-20:
  start_date: 2026-03-20
  end_date: 2026-06-16
`},
	},
	Run: func(pass *rules.Pass) error {
		if pl := bqetl.Of(pass.Plan); pl != nil {
			entryRangeShort(pass, pl)
			return nil
		}
		planRangeShort(pass)
		return nil
	},
}

// entryRangeShort is BF809 for a bqetl entry: each incremental table
// reading a window of the target must be covered by later entries over
// the widened range.
func entryRangeShort(pass *rules.Pass, pl *bqetl.Planned) {
	// Unlike BF801, any change counts, a correction or a new column:
	// once a downstream table is backfilled after it, its range must be
	// the one its window needs.
	e := pl.Entry
	if e.Cancelled() || !e.StartDate.Valid() || !e.EndDate.Valid() {
		return
	}
	l, target := targetOf(pass)
	if target == "" {
		return
	}
	ps, required, _ := entryRebuilds(pass, l, target, e, nil)
	var short []string
	for _, id := range required {
		// The partitions after the entry's day are computed by the
		// scheduled runs, from corrected rows.
		d, ok := rebuildRange(pass, ps, id, e.StartDate.T, e.EndDate.T, e.Date.T)
		if !ok {
			continue
		}
		var have []span
		for _, p := range pass.Plans {
			if other := bqetl.Of(p); other != nil && l.id(other.Target) == id && other.Follows(pl) {
				have = append(have, span{other.Entry.StartDate.T, other.Entry.EndDate.T})
			}
		}
		if len(have) == 0 {
			// No entry at all: BF801 names the table and its range.
			continue
		}
		gaps := uncovered(span{d.from, d.to}, have)
		if len(gaps) == 0 {
			continue
		}
		var covered, left []string
		for _, h := range have {
			covered = append(covered, h.String())
		}
		for _, g := range gaps {
			left = append(left, g.String())
		}
		short = append(short, fmt.Sprintf("%s must be rebuilt over %s; its entries dated %s or later cover %s, leaving %s computed from uncorrected rows",
			id, d, e.Date.Raw, strings.Join(covered, ", "), strings.Join(left, ", ")))
	}
	if len(short) == 0 {
		return
	}
	pass.Reportf(e.Key, "%s\nhelp: widen the downstream table's entry to the range named, or add an entry for the dates left", strings.Join(short, "; "))
}

// planRangeShort is BF809 for a plan: a downstream.rebuild entry that
// names a range must cover the range the node's window widens the
// plan's range to.
func planRangeShort(pass *rules.Pass) {
	p := pass.Plan
	if p.Downstream == nil || p.Range == nil || !p.Range.Start.Valid() || !p.Range.End.Valid() {
		return
	}
	l, target := targetOf(pass)
	if target == "" {
		return
	}
	ps := pathsFrom(l, target)
	for _, it := range p.Downstream.Rebuild.Items {
		if it.Range == nil || !it.Range.Start.Valid() || !it.Range.End.Valid() {
			continue
		}
		id := l.id(it.V)
		if id == "" {
			continue
		}
		d, ok := rebuildRange(pass, ps, id, p.Range.Start.T, p.Range.End.T, pass.Now)
		if !ok {
			continue
		}
		gaps := uncovered(span{d.from, d.to}, []span{{it.Range.Start.T, it.Range.End.T}})
		if len(gaps) == 0 {
			continue
		}
		var left []string
		for _, g := range gaps {
			left = append(left, g.String())
		}
		pass.Reportf(it.Range.At(), "%s must be rebuilt over %s, and the plan rebuilds it over %s..%s: %s keep values computed from uncorrected rows\nhelp: rebuild it over %s..%s",
			id, d, it.Range.Start.Raw, it.Range.End.Raw, strings.Join(left, ", "), d.from.Format("2006-01-02"), d.to.Format("2006-01-02"))
	}
}
