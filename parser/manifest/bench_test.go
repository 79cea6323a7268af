package manifest

import (
	"flag"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"

	"github.com/bflint/bflint/internal/benchgen"
)

// The default keeps `go test -bench .` quick. The size the loader is meant
// for is measured with
//
//	go test -run '^$' -bench BenchmarkLoadManifest ./parser/manifest/ -manifest-mb 100
//
// (the flag goes after the package, where go test hands it to the test binary).
var benchManifestMB = flag.Int("manifest-mb", 20, "size in MB of the synthetic manifest BenchmarkLoadManifest loads")

func BenchmarkLoadManifest(b *testing.B) {
	path := filepath.Join(b.TempDir(), "manifest.json")
	g, err := benchgen.WriteManifest(path, int64(*benchManifestMB)<<20, 1)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(g.Size)
	b.ReportAllocs()
	var m *Manifest
	for b.Loop() {
		if m, err = Load(path); err != nil {
			b.Fatal(err)
		}
	}
	// What a lint run keeps alive once the manifest is loaded.
	runtime.GC()
	var stats runtime.MemStats
	runtime.ReadMemStats(&stats)
	b.ReportMetric(float64(stats.HeapAlloc)/(1<<20), "heap-MB")
	b.ReportMetric(float64(len(m.Nodes())), "nodes")
}

// TestSyntheticManifest checks the generator against the loader, so the
// benchmarks measure a manifest the loader reads correctly.
func TestSyntheticManifest(t *testing.T) {
	path := filepath.Join(t.TempDir(), "manifest.json")
	g, err := benchgen.WriteManifest(path, 2<<20, 1)
	if err != nil {
		t.Fatal(err)
	}
	if g.Size < 2<<20 || g.Size > 2<<20+(256<<10) {
		t.Errorf("generated %d bytes for a 2 MiB target", g.Size)
	}
	m := load(t, path)
	if got, want := len(m.Nodes()), len(g.Parents); got != want {
		t.Errorf("%d nodes loaded, %d generated", got, want)
	}
	for id, want := range g.Parents {
		slices.Sort(want)
		if got := m.Parents(id); !slices.Equal(got, slices.Compact(want)) {
			t.Fatalf("Parents(%q) = %q, generated %q", id, got, want)
		}
	}
	if len(m.Snapshots()) == 0 || len(m.Unresolved()) != 0 {
		t.Errorf("%d snapshots, unresolved %q", len(m.Snapshots()), m.Unresolved())
	}
	again := filepath.Join(t.TempDir(), "again.json")
	if _, err := benchgen.WriteManifest(again, 2<<20, 1); err != nil {
		t.Fatal(err)
	}
	a, _ := os.ReadFile(path)
	c, _ := os.ReadFile(again)
	if string(a) != string(c) {
		t.Error("the generator is not deterministic")
	}
}
