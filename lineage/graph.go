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

// Graph is the lineage of one manifest. Node ids are interned as indexes
// assigned in unique_id order, so sorting indexes sorts ids.
type Graph struct {
	m        *manifest.Manifest
	ids      []string
	index    map[string]int32
	children [][]int32
	roles    []role
	cycles   [][]string

	namesOnce sync.Once
	names     *nameIndex

	suggestOnce sync.Once
	suggestions []string
}

// New builds the graph of m, ids that child_map mentions but no section
// defines included (they are kept as pass-through nodes of unknown kind, so
// that what lies beyond them is still found).
func New(m *manifest.Manifest) *Graph {
	defined := m.Nodes()
	unresolved := m.Unresolved()
	ids := make([]string, 0, len(defined)+len(unresolved))
	for _, n := range defined {
		ids = append(ids, n.UniqueID)
	}
	ids = append(ids, unresolved...)
	slices.Sort(ids)

	g := &Graph{
		m:        m,
		ids:      ids,
		index:    make(map[string]int32, len(ids)),
		children: make([][]int32, len(ids)),
		roles:    make([]role, len(ids)),
	}
	for i, id := range ids {
		g.index[id] = int32(i)
	}
	for i, id := range ids {
		g.roles[i] = roleOf(m.Node(id), id)
		// Manifest.Children is sorted by id, so the indexes come out sorted.
		if cs := m.Children(id); len(cs) > 0 {
			out := make([]int32, len(cs))
			for j, c := range cs {
				out[j] = g.index[c]
			}
			g.children[i] = out
		}
	}
	for _, comp := range stronglyConnected(g.children) {
		g.cycles = append(g.cycles, g.idsOf(comp))
	}
	return g
}

// roleOf classifies a node. A model is taken to store rows unless it is a
// view or ephemeral: table, incremental, materialized_view, dynamic_table
// (Snowflake), streaming_table (Databricks), external (DuckDB) and custom
// materializations all keep what they computed, and wrongly treating a
// custom one as a view would hide a stale table, the failure bflint exists
// to prevent. An id that no section defines is followed but never
// required: nothing says what, if anything, it builds.
func roleOf(n *manifest.Node, id string) role {
	switch resourceType(n, id) {
	case manifest.Test, manifest.UnitTest:
		return check
	}
	if n == nil {
		return passThrough
	}
	switch n.ResourceType {
	case manifest.Seed, manifest.Analysis:
		return inert
	case manifest.Snapshot:
		return snapshot
	case manifest.Model:
		switch materialization(n) {
		case "view", "ephemeral":
			return passThrough
		}
		return stored
	}
	return passThrough
}

// resourceType falls back to the unique_id's first part for ids that no
// section defines, which is how dbt builds every unique_id.
func resourceType(n *manifest.Node, id string) string {
	if n != nil {
		return n.ResourceType
	}
	kind, _, _ := strings.Cut(id, ".")
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
// computed (see roleOf), and so is stale after a correction upstream until
// it is rebuilt.
func (g *Graph) StoresRows(id string) bool {
	v, ok := g.index[id]
	return ok && g.roles[v] == stored
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
	return g.idsOf(g.descendants(id, func(v int32) bool { return g.roles[v] != check }))
}

// Snapshots returns the snapshots among the descendants of id, sorted.
func (g *Graph) Snapshots(id string) []string {
	return g.idsOf(g.descendants(id, func(v int32) bool { return g.roles[v] == snapshot }))
}

// Notify returns the exposures among the descendants of id, sorted. The
// search goes through snapshots too: a dashboard over a snapshot still
// shows data derived from the target.
func (g *Graph) Notify(id string) []string {
	return g.idsOf(g.descendants(id, func(v int32) bool { return g.kind(v) == manifest.Exposure }))
}

func (g *Graph) kind(v int32) string { return resourceType(g.m.Node(g.ids[v]), g.ids[v]) }

// descendants returns the sorted indexes reachable from id in one step or
// more, other than id, that keep accepts.
func (g *Graph) descendants(id string, keep func(int32) bool) []int32 {
	start, ok := g.index[id]
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
		for _, c := range g.children[v] {
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
// every descendant that stores rows (see roleOf) and is reached through
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
	start, ok := g.index[id]
	if !ok {
		return nil
	}
	required := g.reach(start, carries)
	post := g.postOrder(start)
	out := []string{}
	for i := len(post) - 1; i >= 0; i-- {
		if v := post[i]; v != start && required[v] && g.roles[v] == stored {
			out = append(out, g.ids[v])
		}
	}
	return out
}

// carries reports whether a correction reaching a node of the role goes on
// to require rebuilds below it.
func carries(r role) bool { return r == passThrough || r == stored }

// reach marks the nodes reachable from start, expanding only nodes whose
// role passes through (start is always expanded: a corrected snapshot
// still feeds its readers).
func (g *Graph) reach(start int32, through func(role) bool) []bool {
	seen := make([]bool, len(g.ids))
	seen[start] = true
	stack := []int32{start}
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if v != start && !through(g.roles[v]) {
			continue
		}
		for _, c := range g.children[v] {
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
		if top.next < len(g.children[top.v]) {
			c := g.children[top.v][top.next]
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

// Path returns a shortest chain of unique_ids from from to to, both
// included, each node a child of the one before; nil when to is not
// derived from from. Among equally short chains, the one that first
// branches towards a smaller unique_id wins. A chain that does not pass
// through a snapshot, seed, analysis or test is preferred even when longer,
// so that a message about a model to rebuild names the chain that makes it
// required.
func (g *Graph) Path(from, to string) []string {
	src, ok1 := g.index[from]
	dst, ok2 := g.index[to]
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
		if v != src && !through(g.roles[v]) {
			continue
		}
		for _, c := range g.children[v] {
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
func stronglyConnected(children [][]int32) [][]int32 {
	n := len(children)
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
			if top.next < len(children[v]) {
				w := children[v][top.next]
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
			if len(comp) > 1 || slices.Contains(children[v], v) {
				slices.Sort(comp)
				out = append(out, comp)
			}
		}
	}
	slices.SortFunc(out, func(a, b []int32) int { return int(a[0]) - int(b[0]) })
	return out
}
