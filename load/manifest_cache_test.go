package load

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/bflint/bflint/parser/manifest"
	"github.com/bflint/bflint/rules"
)

// TestManifestThroughCache loads a manifest as a lint run does, once into an
// empty cache and once from it: ref() and source() resolve alike, and the
// lineage agrees.
func TestManifestThroughCache(t *testing.T) {
	cache := filepath.Join(t.TempDir(), "cache")
	root, err := filepath.Abs("../testdata/lineage/shop")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(root, "target", "manifest.json")
	load := func() *rules.DBT {
		l := &loader{root: root, cacheDir: cache, manifests: map[string]*rules.DBT{}}
		r := l.manifest(path)
		if r.Err != nil {
			t.Fatal(r.Err)
		}
		return r
	}
	fresh, cached := load(), load()
	if entries, _ := filepath.Glob(filepath.Join(cache, "*.bin")); len(entries) != 1 {
		t.Fatalf("the cache holds %q, want one entry", entries)
	}
	m := fresh.Manifest
	type query struct{ kind, name string }
	var queries []query
	for _, n := range m.Nodes() {
		queries = append(queries, query{"ref", n.Name}, query{"ref", n.PackageName + "." + n.Name})
		if parts := strings.Split(n.UniqueID, "."); n.ResourceType == manifest.Source && len(parts) >= 4 {
			queries = append(queries, query{"source", parts[2] + "." + parts[3]})
		}
	}
	resolved := 0
	for _, q := range queries {
		args := strings.Split(q.name, ".")
		got, want := resolver(cached)(q.kind, args), resolver(fresh)(q.kind, args)
		if got != want {
			t.Errorf("%s(%q) = %q from the cache, %q decoded", q.kind, q.name, got, want)
		}
		if want != "" {
			resolved++
		}
	}
	if resolved == 0 {
		t.Fatal("no ref() or source() resolved: the test checks nothing")
	}
	for _, id := range m.IDs() {
		if got, want := cached.Graph.Downstream(id), fresh.Graph.Downstream(id); !slices.Equal(got, want) {
			t.Errorf("Downstream(%s) = %q from the cache, %q decoded", id, got, want)
		}
	}
}
