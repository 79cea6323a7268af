// Package testcorpus locates the real third-party artifacts that tests read:
// dbt manifests and catalogs from public projects and the SARIF schemas,
// kept under testdata/thirdparty with their sources and licences.
package testcorpus

import (
	"io/fs"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// manifestCount is how many real manifests testdata/thirdparty holds; a
// walk that finds fewer means files went missing, which must fail rather
// than let the decoders drift from real manifests unnoticed.
const manifestCount = 14

// Dir is testdata/thirdparty of the module, found from this file's own
// location so that every package's tests agree whatever their folder.
func Dir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "testdata", "thirdparty")
}

// Path joins elements under Dir.
func Path(elem ...string) string {
	return filepath.Join(append([]string{Dir()}, elem...)...)
}

// Manifests lists every real dbt manifest.json, sorted.
func Manifests(t testing.TB) []string {
	t.Helper()
	files := find(t, "manifest.json")
	if len(files) != manifestCount {
		t.Fatalf("found %d manifests under %s, want %d: %v", len(files), Dir(), manifestCount, files)
	}
	return files
}

// Catalogs lists every real dbt catalog.json, sorted.
func Catalogs(t testing.TB) []string {
	t.Helper()
	files := find(t, "catalog.json")
	if len(files) == 0 {
		t.Fatalf("no catalog.json under %s", Dir())
	}
	return files
}

func find(t testing.TB, name string) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(Dir(), func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && d.Name() == name {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("reading %s: %v", Dir(), err)
	}
	slices.SortFunc(files, strings.Compare)
	return files
}
