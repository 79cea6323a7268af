package downstream

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/bflint/bflint/lineage"
	"github.com/bflint/bflint/parser/bqetl"
	"github.com/bflint/bflint/parser/sqlname"
	"github.com/bflint/bflint/rules"
)

// maxNamed bounds the tables one finding names; the rest are counted.
const maxNamed = 5

// entryDownstream is BF801 for a bqetl entry that corrects its table's
// rows. bqetl has no list of tables to rebuild: each must have an entry
// of its own, dated on or after this one (a backfill started earlier read
// the uncorrected rows) and covering some of the corrected dates. Only
// tables that keep the partitions they computed count ("incremental" in
// the lineage): a table written whole on every run recomputes itself on
// its next scheduled run, and a view reads the corrected rows directly.
func entryDownstream(pass *rules.Pass, pl *bqetl.Planned) error {
	e := pl.Entry
	if e.Cancelled() || !e.Corrects() || !e.StartDate.Valid() || !e.EndDate.Valid() {
		return nil
	}
	l, target := targetOf(pass)
	if target == "" {
		return nil
	}
	later := laterEntries(pass, l)
	// following is the entry of a table that backfills it after this
	// one over some of its dates, nil when none does.
	following := func(id string) *bqetl.Planned {
		for _, other := range later[id] {
			if other.Entry.Date.T.Before(e.Date.T) {
				break
			}
			if other.Follows(pl) {
				return other
			}
		}
		return nil
	}
	// A table whose following entry is itself a correction answers for
	// the tables built from it: BF801 on that entry names those missing,
	// so they are not named again under every entry upstream.
	handedOver := func(id string) bool {
		other := following(id)
		return other != nil && other.Entry.Corrects()
	}
	ps, required, unknownHistory := entryRebuilds(pass, l, target, e, handedOver)
	missing := slices.DeleteFunc(required, func(id string) bool { return following(id) != nil })
	if cols := e.Columns(); len(cols) > 0 {
		missing = slices.DeleteFunc(missing, func(id string) bool { return !mayRead(pass, ps, target, id, cols) })
	}
	if len(missing) == 0 {
		return nil
	}
	// The first table shows how a correction reaches it; bflint lineage
	// prints the paths to the others.
	named := []string{chain(l.g, ps.to(missing[0]))}
	for _, id := range missing[1:min(len(missing), maxNamed)] {
		named = append(named, id)
	}
	// A table reading a window of the target is rebuilt over more than
	// the entry's dates (BF809).
	for i, id := range missing[:len(named)] {
		if d, ok := rebuildRange(pass, ps, id, e.StartDate.T, e.EndDate.T, e.Date.T); ok {
			named[i] += fmt.Sprintf(" (to be rebuilt over %s)", d)
		}
	}
	list := strings.Join(named, "; ")
	if more := len(missing) - len(named); more > 0 {
		list += fmt.Sprintf("; and %d more (bflint lineage %s lists them)", more, pl.Target)
	}
	tables, keep := fmt.Sprintf("%d incremental tables", len(missing)), "keep"
	if len(missing) == 1 {
		tables, keep = "1 incremental table", "keeps"
	}
	if unknownHistory {
		list += fmt.Sprintf(" (the tree's git history before %s could not be read, so a table created since, whose partitions were all computed from corrected rows, is counted too)", e.Date.Raw)
	}
	if !e.Settled() {
		// Still to run: the tables built from the target can only be
		// backfilled once it is complete, usually in a pull request of
		// their own, so this is what remains to do, not yet a gap.
		pass.ReportSeverityf(rules.SeverityWarning, e.Key, "once this entry is complete, %s built from %s still %s the partitions computed from its uncorrected rows over these dates, and no entry dated %s or later backfills them yet: %s\nhelp: add an entry to each table's backfill.yaml once this one is complete",
			tables, pl.Target, keep, e.Date.Raw, list)
		return nil
	}
	pass.Reportf(e.Key, "%s built from %s %s the partitions computed from its uncorrected rows, and no entry dated %s or later backfills them over these dates: %s\nhelp: add an entry to each table's backfill.yaml once this one is complete",
		tables, pl.Target, keep, e.Date.Raw, list)
	return nil
}

// laterEntries are the run's entries that may follow another, by the
// node of the table they backfill, newest first: indexed once for the run,
// since asking every plan of the run for each entry made BF801 over a
// file of N entries cost N² (28.7 s for 10,000).
func laterEntries(pass *rules.Pass, l *lookup) map[string][]*bqetl.Planned {
	return pass.Shared(laterEntriesKey{l.g}, func() any {
		byNode := map[string][]*bqetl.Planned{}
		nodes := map[string]string{}
		for _, p := range pass.Plans {
			other := bqetl.Of(p)
			if other == nil || other.Entry.Cancelled() || !other.Entry.StartDate.Valid() || !other.Entry.EndDate.Valid() {
				continue
			}
			id, seen := nodes[other.Target]
			if !seen {
				id, _ = l.g.Resolve(strings.TrimSpace(other.Target))
				nodes[other.Target] = id
			}
			if id != "" {
				byNode[id] = append(byNode[id], other)
			}
		}
		for _, entries := range byNode {
			slices.SortStableFunc(entries, func(a, b *bqetl.Planned) int { return b.Entry.Date.T.Compare(a.Entry.Date.T) })
		}
		return byNode
	}).(map[string][]*bqetl.Planned)
}

// laterEntriesKey names the index of one lineage graph: the units of
// different trees resolve targets in their own.
type laterEntriesKey struct{ g *lineage.Graph }

// entryRebuilds are the incremental tables built from an entry's target
// that keep partitions computed from its rows, with the paths that reach
// them: tables reached only through a view unioning several relations
// may read none of the corrected rows and are left out, as are, for a
// Complete entry, tables created since its day (createdBefore), and the
// tables reached only through one handedOver says answers for them (nil:
// none does). unknownHistory is set when a Complete entry's tables were
// kept because the tree's history could not tell when they were created.
func entryRebuilds(pass *rules.Pass, l *lookup, target string, e *bqetl.Entry, handedOver func(id string) bool) (ps *paths, required []string, unknownHistory bool) {
	union := bqetl.UnionViews(l.m)
	avoid := union
	if handedOver != nil {
		avoid = func(id string) bool { return union(id) || handedOver(id) }
	}
	ps = pathsThrough(l, target, func(id string) bool { return l.carries(id) && !avoid(id) })
	for _, id := range l.g.RebuildAvoiding(target, avoid) {
		if l.g.Materialization(id) == "incremental" {
			required = append(required, id)
		}
	}
	if strings.EqualFold(e.Status.V, "Complete") && len(required) > 0 {
		var known bool
		required, known = createdBefore(pass, e.Date.T, required)
		unknownHistory = !known
	}
	return ps, required, unknownHistory
}

// createdBefore keeps the tables of missing the tree defined before the
// entry's day, as its history tells: a table created on that day or later
// computed every partition it has from corrected rows. A table that
// existed but read the corrected one through another source then (an
// earlier version, since swapped for this one behind a view) is kept: the
// partitions it computed then may hold the error the entry corrects.
// Without the tree's history, every table is kept and known is false.
func createdBefore(pass *rules.Pass, day time.Time, missing []string) (kept []string, known bool) {
	if pass.Unit.DBT == nil || pass.Unit.DBT.History == nil {
		return missing, false
	}
	defined, ok := pass.Unit.DBT.History.DefinedOn(day, missing)
	if !ok {
		return missing, false
	}
	return slices.DeleteFunc(missing, func(id string) bool { return !defined[id] }), true
}

// mayRead reports whether table id may read one of the columns an entry
// names as those it changes: its query names one, under its own name or
// the name a query between gives an expression using it (udf(x) AS y),
// or selects every column of the target or of a query between, or a
// query on the way cannot be read. A table
// whose query names none of them computed its partitions from columns
// the entry left as they were.
func mayRead(pass *rules.Pass, ps *paths, target, id string, cols []string) bool {
	names := pass.Unit.DBT.QueryNames
	if names == nil {
		return true
	}
	// between are the tables and views on a path from the target to id.
	between := map[string]bool{}
	stack := []string{id}
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, p := range ps.l.m.Parents(v) {
			if _, reached := ps.prev[p]; reached && p != target && !between[p] {
				between[p] = true
				stack = append(stack, p)
			}
		}
	}
	// carried are the names the columns go by where they reach v.
	memo := map[string][]string{}
	var carried func(v string) ([]string, bool)
	carried = func(v string) ([]string, bool) {
		if c, done := memo[v]; done {
			return c, true
		}
		memo[v] = nil // a cycle adds nothing
		var out []string
		for _, p := range ps.l.m.Parents(v) {
			switch {
			case p == target:
				out = append(out, cols...)
			case between[p]:
				c, ok := carried(p)
				q := names.Of(p)
				if !ok || !q.Known() {
					return nil, false
				}
				out = append(append(out, c...), q.Renamed(c)...)
			}
		}
		slices.Sort(out)
		memo[v] = slices.Compact(out)
		return memo[v], true
	}
	c, ok := carried(id)
	q := names.Of(id)
	if !ok || !q.Known() || q.Names(c) {
		return true
	}
	// A * passes the columns on only from the target or a query on the
	// way: one over another relation the table also reads does not.
	var from []string
	for _, p := range ps.l.m.Parents(id) {
		if p == target || between[p] {
			from = append(from, p)
		}
	}
	return q.SelectsAll(func(relation string) bool {
		// An unqualified name may be a CTE's: only a dataset.table counts.
		r := sqlname.Parse(relation)
		return len(r.Key()) >= 2 && slices.ContainsFunc(from, func(id string) bool { return r.Matches(sqlname.Parse(id)) })
	})
}
