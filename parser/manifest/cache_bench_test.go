package manifest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/bflint/bflint/internal/benchgen"
)

// BenchmarkLoadManifestCached loads the synthetic manifest through the
// cache: cold (an empty cache: hash, decode the JSON, write the entry) and
// warm (hash, read the entry). Like BenchmarkLoadManifest, measure the
// size the cache is meant for with
//
//	go test -run '^$' -bench LoadManifest ./parser/manifest/ -manifest-mb 100
func BenchmarkLoadManifestCached(b *testing.B) {
	path := filepath.Join(b.TempDir(), "manifest.json")
	g, err := benchgen.WriteManifest(path, int64(*benchManifestMB)<<20, 1)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("cold", func(b *testing.B) {
		b.SetBytes(g.Size)
		b.ReportAllocs()
		for b.Loop() {
			b.StopTimer()
			dir := b.TempDir()
			b.StartTimer()
			if _, err := LoadCached(path, dir); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("warm", func(b *testing.B) {
		dir := b.TempDir()
		if _, err := LoadCached(path, dir); err != nil {
			b.Fatal(err)
		}
		b.SetBytes(g.Size)
		b.ReportAllocs()
		for b.Loop() {
			if _, err := LoadCached(path, dir); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkContentHash is the part of a warm load that reads the whole
// manifest.
func BenchmarkContentHash(b *testing.B) {
	path := filepath.Join(b.TempDir(), "manifest.json")
	g, err := benchgen.WriteManifest(path, int64(*benchManifestMB)<<20, 1)
	if err != nil {
		b.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	b.SetBytes(g.Size)
	for b.Loop() {
		if _, err := contentHash(f, g.Size); err != nil {
			b.Fatal(err)
		}
	}
}
