package lineage

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/bflint/bflint/parser/manifest"
	"github.com/bflint/bflint/parser/sqlname"
)

// answers records what a graph says about nodes spread over the manifest
// (maxTargets of them), and about names a user may write for them or
// mistype.
func answers(g *Graph, m *manifest.Manifest) string {
	var b strings.Builder
	fmt.Fprintf(&b, "cycles %q\n", g.Cycles())
	ids := m.IDs()
	step := max(1, len(ids)/maxTargets)
	for i := 0; i < len(ids); i += step {
		id := ids[i]
		fmt.Fprintf(&b, "%s: down %q rebuild %q snapshots %q notify %q stores %v as %q\n",
			id, g.Downstream(id), g.Rebuild(id), g.Snapshots(id), g.Notify(id), g.StoresRows(id), g.Materialization(id))
		n := m.Node(id)
		if n == nil {
			continue
		}
		for _, name := range []string{n.Name, strings.ToUpper(n.Name) + "x", m.RelationName(n)} {
			resolved, err := g.Resolve(name)
			fmt.Fprintf(&b, "  %q -> %q %v\n", name, resolved, err)
		}
	}
	return b.String()
}

// TestCachedManifestGraph builds graphs over manifests read back from the
// cache, whose nodes are decoded on demand by concurrent queries: they
// answer every query as the graph of the decoded JSON does.
func TestCachedManifestGraph(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cache")
	paths := append(corpusManifests(t), shopManifest, cycleManifest)
	for _, path := range paths {
		fresh, err := manifest.Load(path)
		if err != nil {
			t.Fatal(err)
		}
		want := answers(New(fresh), fresh)
		if _, err := manifest.LoadCached(path, dir); err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		got := make([]string, 2)
		for i := range got {
			cached, err := manifest.LoadCached(path, dir)
			if err != nil {
				t.Fatal(err)
			}
			wg.Go(func() { got[i] = answers(New(cached), cached) })
		}
		wg.Wait()
		for _, g := range got {
			if g != want {
				t.Fatalf("%s: the graph of the cached manifest answers differently", path)
			}
		}
	}
}

// TestConcurrentFirstUse queries one graph over a cached manifest from many
// goroutines at once, so that nodes are decoded and classified
// concurrently: each node is decoded once, whoever asks first.
func TestConcurrentFirstUse(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cache")
	if _, err := manifest.LoadCached(shopManifest, dir); err != nil {
		t.Fatal(err)
	}
	m, err := manifest.LoadCached(shopManifest, dir)
	if err != nil {
		t.Fatal(err)
	}
	g := New(m)
	var wg sync.WaitGroup
	nodes := make([][]*manifest.Node, 8)
	for i := range nodes {
		wg.Go(func() {
			g.Rebuild(target)
			g.Resolve("fct_orders")
			for _, id := range m.IDs() {
				nodes[i] = append(nodes[i], m.Node(id))
			}
		})
	}
	wg.Wait()
	for _, ns := range nodes[1:] {
		if !slices.Equal(ns, nodes[0]) {
			t.Fatal("Node returned different pointers for one node")
		}
	}
}

// TestNameLength checks the length suggest computes against the name
// itself.
func TestNameLength(t *testing.T) {
	for _, parts := range [][]string{
		{"db", "schema", "t"},
		{"a.b", "c"},
		{`we"ird`, "x`y"},
		{"", "t"},
	} {
		if got, want := nameLength(parts), len(sqlname.Relation{Parts: parts}.Name()); got != want {
			t.Errorf("nameLength(%q) = %d, want %d", parts, got, want)
		}
	}
}

// TestRelationParts checks the fast split against sqlname.Parse.
func TestRelationParts(t *testing.T) {
	for _, name := range []string{
		"db.schema.t", `"db"."schema"."t"`, `"a.b".c`, `"a""b".c`, `a"b.c`, `"`, `"".x`,
		"..", "a . b", "`p`.`d`.`t`", `"x`, `x"`, "", "t",
	} {
		if got, want := relationParts(name), sqlname.Parse(name).Parts; !slices.Equal(got, want) {
			t.Errorf("relationParts(%q) = %q, want %q", name, got, want)
		}
	}
}

// TestIsLowerOf checks the comparison against strings.ToLower.
func TestIsLowerOf(t *testing.T) {
	for _, s := range []string{"ANALYTICS", "marts", "Model_01", "ÉTÉ", "Straße", "K", ""} {
		lower := strings.ToLower(s)
		if !isLowerOf(lower, s) || isLowerOf(lower+"x", s) || s != lower && isLowerOf(s, s) {
			t.Errorf("isLowerOf(%q, %q) disagrees with strings.ToLower", lower, s)
		}
	}
}
