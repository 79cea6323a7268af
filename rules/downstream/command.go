package downstream

import (
	"fmt"
	"regexp"
	"strconv"
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

// selectorTerm is one term of a dbt selection in the subset bflint reads:
// a node name with the graph operators +name, N+name, name+ and name+N.
var selectorTerm = regexp.MustCompile(`^(?:(\d*)\+)?([^+]+?)(?:\+(\d*))?$`)

// selection returns the nodes that dbt --select (or --exclude) values
// choose. Each value splits at spaces into terms whose union is selected.
// Intersections (a,b), methods (tag:, path:, state:, ...), wildcards and
// @name select nothing here: bflint would rather report a model as missing
// than take on trust that a selector it cannot evaluate reaches it.
func selection(l *lookup, values []runcmd.Word) map[string]bool {
	out := map[string]bool{}
	for _, w := range values {
		if w.Dynamic {
			continue
		}
		for _, term := range strings.Fields(w.Value) {
			if strings.ContainsAny(term, ",:*?[@/") {
				continue
			}
			m := selectorTerm.FindStringSubmatch(term)
			if m == nil {
				continue
			}
			id := l.id(m[2])
			if id == "" {
				continue
			}
			out[id] = true
			if strings.HasPrefix(term, m[1]+"+") {
				walk(id, l.m.Parents, depth(m[1]), out)
			}
			if strings.HasSuffix(term, "+"+m[3]) {
				walk(id, l.m.Children, depth(m[3]), out)
			}
		}
	}
	return out
}

// depth reads the N of a graph operator; -1, no limit, when it is absent.
func depth(s string) int {
	if n, err := strconv.Atoi(s); err == nil {
		return n
	}
	return -1
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
