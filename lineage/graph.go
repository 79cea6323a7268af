// Package lineage answers what a backfill of one dbt node touches: every
// node derived from it, the models that must be rebuilt afterwards and in
// which order, the snapshots that cannot be rebuilt, and the exposures whose
// readers must be told. It works from the manifest alone, without dbt or a
// warehouse.
//
// A Graph is read-only once built and safe for concurrent use. Every
// traversal keeps a visited set, so a cycle in child_map (which dbt never
// writes, but a hand-edited manifest may hold) cannot make it loop; Cycles
// reports such cycles instead of New failing, because the rest of the graph
// is still worth linting.
//
// Queries take unique_ids (Resolve turns what a user wrote into one). An id
// the graph does not hold gives nil; a known node with nothing to report
// gives an empty slice, which JSON renders as [] rather than null.
package lineage

import (
	"cmp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/bflint/bflint/parser/manifest"
)

// role is what a node means for a correction flowing downstream.
type role uint8

const (
	// passThrough nodes hold no rows of their own (views, ephemeral
	// models) or are not warehouse relations at all (sources, semantic
	// models, metrics, exposures, functions): whatever reads them sees the
	// corrected data without their being rebuilt.
	passThrough role = iota
	// stored models keep rows computed at build time, so they stay stale
	// until rebuilt.
	stored
	// snapshot nodes record history: re-running one stamps the corrected
	// values as new versions valid from now, so it is reported instead of
	// rebuilt, and nothing derived through it is required.
	snapshot
	// inert nodes (seeds, analyses) are never rebuilt and dbt gives them
	// no children; the rebuild set does not follow a hand-made edge out
	// of one.
	inert
	// check nodes (tests, unit tests) verify data rather than derive it:
	// they are no part of the impact.
	check
)

// Graph is the lineage of one manifest. Nodes are the positions of their
// unique_ids in manifest.IDs, which is sorted, so sorting positions sorts
// ids. The ids, their index and the edges are the manifest's own.
type Graph struct {
	m      *manifest.Manifest
	ids    []string
	cycles [][]string
	// roles holds each node's role plus one once known, 0 before: a
	// node's role is worked out on first use, since most are never
	// reached by a query.
	roles []atomic.Uint32

	namesOnce sync.Once
	names     *nameIndex
	resolved  sync.Map // name to resolution
}

// New builds the graph of m, ids that child_map mentions but no section
// defines included (they are kept as pass-through nodes of unknown kind, so
// that what lies beyond them is still found). It starts indexing the names
// of the nodes in the background: nearly every use of a graph resolves a
// name, and on a large manifest that index is what takes longest to build,
// so it is better built on a spare core while the caller reads its SQL.
func New(m *manifest.Manifest) *Graph {
	g := &Graph{m: m, ids: m.IDs()}
	g.roles = make([]atomic.Uint32, len(g.ids))
	for _, comp := range stronglyConnected(len(g.ids), g.children) {
		g.cycles = append(g.cycles, g.idsOf(comp))
	}
	go g.nameIndex()
	return g
}

func (g *Graph) index(id string) (int32, bool) {
	i, ok := g.m.Index(id)
	return int32(i), ok
}

func (g *Graph) children(v int32) []int32 { return g.m.ChildrenAt(int(v)) }

func (g *Graph) role(v int32) role {
	if r := g.roles[v].Load(); r != 0 {
		return role(r - 1)
	}
	r := g.classify(v)
	g.roles[v].Store(uint32(r) + 1)
	return r
}

// classify works out a node's role. A model is taken to store rows unless
// it is a view or ephemeral: table, incremental, materialized_view,
// dynamic_table (Snowflake), streaming_table (Databricks), external
// (DuckDB) and custom materializations all keep what they computed, and
// wrongly treating a custom one as a view would hide a stale table, the
// failure bflint exists to prevent. An id that no section defines is
// followed but never required: nothing says what, if anything, it builds.
// Tests are told by their kind alone, and other nodes peeked at, so that
// the nodes of a manifest read from the cache stay undecoded.
func (g *Graph) classify(v int32) role {
	switch g.kind(v) {
	case manifest.Test, manifest.UnitTest:
		return check
	}
	n, ok := g.m.Peek(int(v))
	if !ok {
		return passThrough
	}
	switch n.ResourceType {
	case manifest.Seed, manifest.Analysis:
		return inert
	case manifest.Snapshot:
		return snapshot
	case manifest.Model:
		switch materialization(&n) {
		case "view", "ephemeral":
			return passThrough
		}
		return stored
	}
	return passThrough
}

// kind is the node's resource type, or for an id that no section defines
// the unique_id's first part, which is how dbt builds every unique_id.
func (g *Graph) kind(v int32) string {
	if kind, defined := g.m.ResourceTypeAt(int(v)); defined {
		return kind
	}
	kind, _, _ := strings.Cut(g.ids[v], ".")
	return kind
}

func materialization(n *manifest.Node) string {
	if n == nil {
		return ""
	}
	switch n.ResourceType {
	case manifest.Model:
		// dbt's default when a project configures nothing.
		return cmp.Or(n.Config.Materialized, "view")
	case manifest.Seed, manifest.Snapshot:
		// Fusion records no materialized config for seeds.
		return cmp.Or(n.Config.Materialized, n.ResourceType)
	}
	// Analyses and tests record "view" and "test", but build nothing.
	return ""
}

// StoresRows reports whether id is a model whose relation keeps the rows it
// computed (see classify), and so is stale after a correction upstream until
// it is rebuilt.
func (g *Graph) StoresRows(id string) bool {
	v, ok := g.index(id)
	return ok && g.role(v) == stored
}

// Materialization returns how dbt builds the node: config.materialized as
// recorded; for a model that records none, "view" (dbt's default); for a
// seed or snapshot without one, its resource type. Other nodes (sources,
// exposures, metrics, analyses, tests) and unknown ids give "": dbt builds
// no relation for them, whatever their config says.
func (g *Graph) Materialization(id string) string {
	return materialization(g.m.Node(id))
}

// Cycles returns the cycles in child_map: each strongly connected set of
// two or more nodes, and each node that is its own child, as sorted
// unique_ids, ordered by their first id. Traversals still terminate on such
// a graph, but no rebuild order can satisfy a cycle.
func (g *Graph) Cycles() [][]string {
	out := make([][]string, len(g.cycles))
	for i, c := range g.cycles {
		out[i] = slices.Clone(c)
	}
	return out
}

// Downstream returns every transitive descendant of id except tests and
// unit tests, sorted. The node itself is left out even when a cycle leads
// back to it.
func (g *Graph) Downstream(id string) []string {
	return g.idsOf(g.descendants(id, func(v int32) bool { return g.role(v) != check }))
}

// Snapshots returns the snapshots among the descendants of id, sorted.
func (g *Graph) Snapshots(id string) []string {
	return g.idsOf(g.descendants(id, func(v int32) bool { return g.role(v) == snapshot }))
}

// Notify returns the exposures among the descendants of id, sorted. The
// search goes through snapshots too: a dashboard over a snapshot still
// shows data derived from the target.
func (g *Graph) Notify(id string) []string {
	return g.idsOf(g.descendants(id, func(v int32) bool { return g.kind(v) == manifest.Exposure }))
}

// Views returns the views that read id directly or through other views
// and ephemeral models only, sorted: they show its corrected rows as soon
// as it is published. A view that reads a table built from id shows that
// table's rows, corrected only once the table is rebuilt, and is not one.
func (g *Graph) Views(id string) []string {
	start, ok := g.index(id)
	if !ok {
		return nil
	}
	// reach marks only the children of start and of the nodes it goes
	// through, so a view it marks reads one of them.
	seen := g.reach(start, func(v int32) bool { return g.role(v) == passThrough && g.kind(v) == manifest.Model })
	out := []int32{}
	for v, reached := range seen {
		if reached && int32(v) != start && g.kind(int32(v)) == manifest.Model && g.Materialization(g.ids[v]) == "view" {
			out = append(out, int32(v))
		}
	}
	return g.idsOf(out)
}

// descendants returns the sorted indexes reachable from id in one step or
// more, other than id, that keep accepts.
func (g *Graph) descendants(id string, keep func(int32) bool) []int32 {
	start, ok := g.index(id)
	if !ok {
		return nil
	}
	seen := make([]bool, len(g.ids))
	seen[start] = true
	out := []int32{}
	queue := []int32{start}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		for _, c := range g.children(v) {
			if seen[c] {
				continue
			}
			seen[c] = true
			queue = append(queue, c)
			if keep(c) {
				out = append(out, c)
			}
		}
	}
	slices.Sort(out)
	return out
}

// Rebuild returns the models that must be rebuilt after id is corrected:
// every descendant that stores rows (see classify) and is reached through
// other models, views, ephemeral models, sources or semantic-layer nodes,
// but not through a snapshot, seed, analysis or test. Views and ephemeral
// models on the way need no rebuild: they read the corrected data directly.
//
// The order is the reverse post-order of a depth-first search from id that
// visits children in unique_id order and walks the whole downstream graph
// (snapshots included, so that an edge through a snapshot still orders two
// required models), filtered to the required models. It places every model
// after all of its required ancestors; between models that do not depend on
// each other, the branch the search enters later comes first: of two
// independent children of id, the one with the greater unique_id leads.
// Within a cycle no order can hold, and the search's order is kept.
func (g *Graph) Rebuild(id string) []string {
	return g.RebuildAvoiding(id, func(string) bool { return false })
}

// RebuildAvoiding is Rebuild leaving out the models that id reaches only
// through a node avoid accepts: the correction may not reach their rows
// through it (a view unioning several sources, of which a reader filters
// some).
func (g *Graph) RebuildAvoiding(id string, avoid func(id string) bool) []string {
	start, ok := g.index(id)
	if !ok {
		return nil
	}
	required := g.reach(start, func(v int32) bool { return carries(g.role(v)) && !avoid(g.ids[v]) })
	post := g.postOrder(start)
	out := []string{}
	for i := len(post) - 1; i >= 0; i-- {
		if v := post[i]; v != start && required[v] && g.role(v) == stored {
			out = append(out, g.ids[v])
		}
	}
	return out
}

// carries reports whether a correction reaching a node of the role goes on
// to require rebuilds below it.
func carries(r role) bool { return r == passThrough || r == stored }

// reach marks the nodes reachable from start, expanding only nodes through
// accepts (start is always expanded: a corrected snapshot still feeds its
// readers).
func (g *Graph) reach(start int32, through func(int32) bool) []bool {
	seen := make([]bool, len(g.ids))
	seen[start] = true
	stack := []int32{start}
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if v != start && !through(v) {
			continue
		}
		for _, c := range g.children(v) {
			if !seen[c] {
				seen[c] = true
				stack = append(stack, c)
			}
		}
	}
	return seen
}

// postOrder returns the nodes reachable from start in depth-first post-order,
// children visited in unique_id order. It keeps its own stack because a
// generated manifest may chain many thousands of models.
func (g *Graph) postOrder(start int32) []int32 {
	type frame struct {
		v    int32
		next int
	}
	seen := make([]bool, len(g.ids))
	seen[start] = true
	stack := []frame{{v: start}}
	var post []int32
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if children := g.children(top.v); top.next < len(children) {
			c := children[top.next]
			top.next++
			if !seen[c] {
				seen[c] = true
				stack = append(stack, frame{v: c})
			}
			continue
		}
		post = append(post, top.v)
		stack = stack[:len(stack)-1]
	}
	return post
}

// Upstream returns every node id is derived from, directly or not, in no
// set order.
func (g *Graph) Upstream(id string) []string {
	start, ok := g.index(id)
	if !ok {
		return nil
	}
	seen := map[int32]bool{start: true}
	queue := []int32{start}
	var out []int32
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		for _, w := range g.m.ParentsAt(int(v)) {
			if !seen[w] {
				seen[w] = true
				out = append(out, w)
				queue = append(queue, w)
			}
		}
	}
	return g.idsOf(out)
}

// Path returns a shortest chain of unique_ids from from to to, both
// included, each node a child of the one before; nil when to is not
// derived from from. Among equally short chains, the one that first
// branches towards a smaller unique_id wins. A chain that does not pass
// through a snapshot, seed, analysis or test is preferred even when longer,
// so that a message about a model to rebuild names the chain that makes it
// required.
func (g *Graph) Path(from, to string) []string {
	src, ok1 := g.index(from)
	dst, ok2 := g.index(to)
	if !ok1 || !ok2 {
		return nil
	}
	if src == dst {
		return []string{from}
	}
	if p := g.shortest(src, dst, carries); p != nil {
		return p
	}
	return g.shortest(src, dst, func(role) bool { return true })
}

// shortest is a breadth-first search that expands src and the nodes whose
// role passes through.
func (g *Graph) shortest(src, dst int32, through func(role) bool) []string {
	prev := make(map[int32]int32)
	prev[src] = src
	queue := []int32{src}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		if v != src && !through(g.role(v)) {
			continue
		}
		for _, c := range g.children(v) {
			if _, seen := prev[c]; seen {
				continue
			}
			prev[c] = v
			if c == dst {
				var path []string
				for at := dst; at != src; at = prev[at] {
					path = append(path, g.ids[at])
				}
				path = append(path, g.ids[src])
				slices.Reverse(path)
				return path
			}
			queue = append(queue, c)
		}
	}
	return nil
}

// idsOf keeps nil apart from empty: nil answers an unknown id.
func (g *Graph) idsOf(idx []int32) []string {
	if idx == nil {
		return nil
	}
	out := make([]string, len(idx))
	for i, v := range idx {
		out[i] = g.ids[v]
	}
	return out
}

// stronglyConnected returns the cycles of the graph: Tarjan's strongly
// connected components of two or more nodes, plus single nodes that are
// their own child, each sorted, ordered by their first node. The recursion
// is unrolled onto a slice so that long chains cannot exhaust the stack.
func stronglyConnected(n int, children func(int32) []int32) [][]int32 {
	order := make([]int32, n) // 0 while unvisited, else visit number
	low := make([]int32, n)
	onStack := make([]bool, n)
	var stack []int32
	var out [][]int32
	type frame struct {
		v    int32
		next int
	}
	visit := int32(0)
	for root := range n {
		if order[root] != 0 {
			continue
		}
		visit++
		order[root], low[root] = visit, visit
		stack = append(stack, int32(root))
		onStack[root] = true
		calls := []frame{{v: int32(root)}}
		for len(calls) > 0 {
			top := &calls[len(calls)-1]
			v := top.v
			if out := children(v); top.next < len(out) {
				w := out[top.next]
				top.next++
				switch {
				case order[w] == 0:
					visit++
					order[w], low[w] = visit, visit
					stack = append(stack, w)
					onStack[w] = true
					calls = append(calls, frame{v: w})
				case onStack[w]:
					low[v] = min(low[v], order[w])
				}
				continue
			}
			calls = calls[:len(calls)-1]
			if len(calls) > 0 {
				parent := calls[len(calls)-1].v
				low[parent] = min(low[parent], low[v])
			}
			if low[v] != order[v] {
				continue
			}
			var comp []int32
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[w] = false
				comp = append(comp, w)
				if w == v {
					break
				}
			}
			if len(comp) > 1 || slices.Contains(children(v), v) {
				slices.Sort(comp)
				out = append(out, comp)
			}
		}
	}
	slices.SortFunc(out, func(a, b []int32) int { return int(a[0]) - int(b[0]) })
	return out
}
