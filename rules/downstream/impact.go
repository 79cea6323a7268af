package downstream

import (
	"go/token"
	"slices"
	"strings"

	"github.com/bflint/bflint/lineage"
	"github.com/bflint/bflint/parser/manifest"
	"github.com/bflint/bflint/parser/plan"
	"github.com/bflint/bflint/rules"
)

// lookup is the unit's lineage graph with the names resolved through it.
// It is kept as a fact of the unit because every rule of the family
// resolves the same plan entries, and BF801 those of every plan of the run.
type lookup struct {
	g    *lineage.Graph
	m    *manifest.Manifest
	memo map[string]resolution
}

type resolution struct {
	id  string
	err error
}

type lookupKey struct{}

// lookupOf returns the unit's lookup, nil when the unit has no usable
// manifest.
func lookupOf(pass *rules.Pass) *lookup {
	g := pass.Unit.Lineage()
	if g == nil {
		return nil
	}
	return pass.Unit.Fact(lookupKey{}, func() any {
		return &lookup{g: g, m: pass.Unit.Manifest(), memo: map[string]resolution{}}
	}).(*lookup)
}

// resolve returns the unique_id name denotes, or lineage's error saying
// why there is none.
func (l *lookup) resolve(name string) (string, error) {
	name = strings.TrimSpace(name)
	r, ok := l.memo[name]
	if !ok {
		r.id, r.err = l.g.Resolve(name)
		l.memo[name] = r
	}
	return r.id, r.err
}

// id is resolve without the reason: "" for a name that denotes no node or
// several, which BF803 reports and the other rules leave aside.
func (l *lookup) id(name string) string {
	id, _ := l.resolve(name)
	return id
}

// targetOf returns the lookup and the unique_id of the plan's target; an
// empty id when there is no manifest or the target is not a node of it.
func targetOf(pass *rules.Pass) (*lookup, string) {
	l := lookupOf(pass)
	if l == nil || pass.Plan == nil || !pass.Plan.Target.Set {
		return nil, ""
	}
	id := l.id(pass.Plan.Target.V)
	if id == "" {
		return nil, ""
	}
	return l, id
}

// downstreamOf returns the plan's downstream section, empty when the plan
// has none, so that its lists read as empty and its keys as absent.
func downstreamOf(p *plan.Plan) *plan.Downstream {
	if p.Downstream == nil {
		return &plan.Downstream{}
	}
	return p.Downstream
}

// listPos is where a finding about an entry missing from a downstream list
// points: the list, else the downstream section, else the plan start.
func listPos(pass *rules.Pass, list plan.Field) token.Pos {
	if list.Key.IsValid() {
		return list.Key
	}
	return pass.SectionOr(downstreamOf(pass.Plan).Field)
}

// chain renders a lineage path, with the materialization of each node
// between its ends: the views and ephemeral models there are why the last
// node is reached without being read directly.
func chain(g *lineage.Graph, path []string) string {
	parts := make([]string, len(path))
	for i, id := range path {
		parts[i] = id
		if i > 0 && i < len(path)-1 {
			if m := g.Materialization(id); m != "" {
				parts[i] += " (" + m + ")"
			}
		}
	}
	return strings.Join(parts, " → ")
}

// kindOf names what a node is for a message: its materialization, or its
// resource type when dbt builds no relation for it.
func kindOf(l *lookup, id string) string {
	if m := l.g.Materialization(id); m != "" {
		return m
	}
	if n := l.m.Node(id); n != nil {
		return n.ResourceType
	}
	return "unknown"
}

// carries reports whether a correction reaching id goes on to the nodes
// that read it, as lineage's rebuild set has it: not past a snapshot,
// seed, analysis or test. An id no section defines is followed, unless
// its unique_id says it is a test.
func (l *lookup) carries(id string) bool {
	n := l.m.Node(id)
	if n == nil {
		kind, _, _ := strings.Cut(id, ".")
		return kind != manifest.Test && kind != manifest.UnitTest
	}
	switch n.ResourceType {
	case manifest.Snapshot, manifest.Seed, manifest.Analysis, manifest.Test, manifest.UnitTest:
		return false
	}
	return true
}

// paths answers lineage's Graph.Path from one node to many with a single
// breadth-first search, where calling Path for each of thousands of
// findings would search the graph thousands of times. It keeps Path's
// choices: a shortest chain through nodes that carry the correction,
// children taken in unique_id order.
type paths struct {
	l    *lookup
	from string
	prev map[string]string
}

func pathsFrom(l *lookup, from string) *paths {
	return pathsThrough(l, from, l.carries)
}

// pathsThrough is pathsFrom expanding, below from, only the nodes through
// says a correction goes on from.
func pathsThrough(l *lookup, from string, through func(id string) bool) *paths {
	prev := map[string]string{from: ""}
	queue := []string{from}
	for i := 0; i < len(queue); i++ {
		v := queue[i]
		if v != from && !through(v) {
			continue
		}
		for _, c := range l.m.Children(v) {
			if _, seen := prev[c]; !seen {
				prev[c] = v
				queue = append(queue, c)
			}
		}
	}
	return &paths{l: l, from: from, prev: prev}
}

// to returns the chain from the search's start to id; lineage's own
// search, for the rare node reached only through a snapshot or a seed.
func (p *paths) to(id string) []string {
	if _, ok := p.prev[id]; !ok || id == p.from {
		return p.l.g.Path(p.from, id)
	}
	var out []string
	for at := id; at != p.from; at = p.prev[at] {
		out = append(out, at)
	}
	out = append(out, p.from)
	slices.Reverse(out)
	return out
}
