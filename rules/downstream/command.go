package downstream

import (
	"fmt"
	"strings"

	"github.com/bflint/bflint/parser/runcmd"
	"github.com/bflint/bflint/rules"
)

// rebuilt is what the plan's run.command recomputes: the nodes its dbt run
// and build commands select, and among them those selected by a command
// that bounds microbatch models to a range with --event-time-start and
// --event-time-end.
type rebuilt struct {
	selected, bounded map[string]bool
}

// commandRebuilds reads the plan's run.command. A command that cannot be
// read rebuilds nothing here; the rules about run commands report it.
func commandRebuilds(pass *rules.Pass, l *lookup) rebuilt {
	r := rebuilt{selected: map[string]bool{}, bounded: map[string]bool{}}
	run := pass.Plan.Run
	if run == nil || !run.Command.Set {
		return r
	}
	cmds, err := runcmd.Parse(run.Command.V)
	if err != nil {
		return r
	}
	for _, c := range cmds {
		d := c.DBT
		if d == nil || !d.Rebuilds() {
			continue
		}
		// Without --select dbt would run the whole project, but a
		// --selector, --resource-type or state flag may narrow that in
		// ways bflint does not read, so only an explicit selection counts.
		chosen := selection(l, d.Select)
		excluded := selection(l, d.Exclude)
		bounded := d.EventTimeStart != nil && d.EventTimeEnd != nil
		for id := range chosen {
			if excluded[id] {
				continue
			}
			r.selected[id] = true
			if bounded {
				r.bounded[id] = true
			}
		}
	}
	return r
}

// covers reports whether the command recomputes id's rows for the range.
// When it selects id without recomputing them, note says why, for the
// finding.
func (r rebuilt) covers(l *lookup, id string) (ok bool, note string) {
	if !r.selected[id] {
		return false, ""
	}
	n := l.m.Node(id)
	switch mat := strings.ToLower(l.g.Materialization(id)); mat {
	case "table", "view", "materialized_view":
		return true, ""
	case "incremental":
		if strings.EqualFold(n.Config.IncrementalStrategy, "microbatch") {
			if r.bounded[id] {
				return true, ""
			}
			return false, "run.command selects it, but without --event-time-start and --event-time-end dbt runs a microbatch model for its latest batches only"
		}
		return false, "run.command selects it, but dbt runs an incremental model for new rows only and leaves the corrected range as it was"
	default:
		return false, fmt.Sprintf("run.command selects it, but bflint cannot tell whether a %s model recomputes the rows it already holds", mat)
	}
}

// selection resolves the terms of dbt --select or --exclude values that
// bflint reads (runcmd.SelectTerms) to the nodes they name, with the
// ancestors and descendants their graph operators add. Intersections,
// methods, wildcards and @name select nothing here: bflint would rather
// report a model as missing than take on trust that a selector it cannot
// evaluate reaches it.
func selection(l *lookup, values []runcmd.Word) map[string]bool {
	out := map[string]bool{}
	for _, t := range runcmd.SelectTerms(values) {
		id := l.id(t.Name)
		if id == "" {
			continue
		}
		out[id] = true
		if t.Parents != 0 {
			walk(id, l.m.Parents, t.Parents, out)
		}
		if t.Children != 0 {
			walk(id, l.m.Children, t.Children, out)
		}
	}
	return out
}

// walk adds to out the nodes up to limit steps from id along next (every
// reachable node when limit is negative), breadth first so that each node
// is reached at its smallest distance.
func walk(id string, next func(string) []string, limit int, out map[string]bool) {
	seen := map[string]bool{id: true}
	level := []string{id}
	for step := 0; len(level) > 0 && (limit < 0 || step < limit); step++ {
		var following []string
		for _, v := range level {
			for _, c := range next(v) {
				if !seen[c] {
					seen[c] = true
					out[c] = true
					following = append(following, c)
				}
			}
		}
		level = following
	}
}
