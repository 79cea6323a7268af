package manifest

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/bflint/bflint/internal/testcorpus"
)

// catalogEntryOf returns the path and key of the entry that holds path's
// catalog in dir.
func catalogEntryOf(t *testing.T, dir, path string) (string, [sha256.Size]byte) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	content, err := contentHash(f, info.Size())
	if err != nil {
		t.Fatal(err)
	}
	key := entryKey(catalogKind, content)
	return filepath.Join(dir, entryName(catalogKind, key)), key
}

// loadCatalogBoth loads path with LoadCatalog and LoadCatalogCached and
// checks that they agree.
func loadCatalogBoth(t *testing.T, path, dir string) {
	t.Helper()
	want, err := LoadCatalog(path)
	if err != nil {
		t.Fatal(err)
	}
	got, err := LoadCatalogCached(path, dir)
	if err != nil {
		t.Fatalf("LoadCatalogCached(%s): %v", path, err)
	}
	if !reflect.DeepEqual(got.columns, want.columns) {
		t.Fatalf("%s: LoadCatalogCached differs from LoadCatalog", path)
	}
}

// TestCatalogCache stores catalogs, reads them back, and ignores damaged
// entries.
func TestCatalogCache(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cache")
	paths := testcorpus.Catalogs(t)
	empty := filepath.Join(t.TempDir(), "catalog.json")
	if err := os.WriteFile(empty, []byte(`{"nodes": {"model.a.b": {"columns": {}}}, "sources": null}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, path := range append(paths, empty) {
		loadCatalogBoth(t, path, dir)
		entry, key := catalogEntryOf(t, dir, path)
		if payload, entryKey := readPayload(entry); payload == nil || entryKey != key {
			t.Fatalf("%s: no entry after the first load", path)
		}
		loadCatalogBoth(t, path, dir)
	}
	path := paths[0]
	entry, key := catalogEntryOf(t, dir, path)
	good, err := os.ReadFile(entry)
	if err != nil {
		t.Fatal(err)
	}
	for _, content := range [][]byte{good[:len(good)/2], append(good[:len(good)-1:len(good)-1], good[len(good)-1]^1), []byte("garbage")} {
		if err := os.WriteFile(entry, content, 0o600); err != nil {
			t.Fatal(err)
		}
		loadCatalogBoth(t, path, dir)
		if payload, entryKey := readPayload(entry); payload == nil || entryKey != key {
			t.Error("the damaged entry was not rewritten")
		}
	}
	// Errors are LoadCatalog's.
	broken := filepath.Join(t.TempDir(), "catalog.json")
	if err := os.WriteFile(broken, []byte(`{"nodes": {"model.a.b": `), 0o644); err != nil {
		t.Fatal(err)
	}
	_, want := LoadCatalog(broken)
	if _, got := LoadCatalogCached(broken, dir); got == nil || got.Error() != want.Error() {
		t.Errorf("LoadCatalogCached of a truncated catalog: %v, want %v", got, want)
	}
}

// FuzzCatalogEntry feeds arbitrary payloads to the catalog decoder: it
// refuses or decodes, never panics.
func FuzzCatalogEntry(f *testing.F) {
	c, err := LoadCatalog(bouncer + "dbt_project/target/catalog.json")
	if err != nil {
		f.Fatal(err)
	}
	var b bytes.Buffer
	w := bufio.NewWriter(&b)
	marshalCatalog(c).writeTo(w)
	w.Flush()
	f.Add(b.Bytes())
	f.Fuzz(func(t *testing.T, payload []byte) {
		if c, err := unmarshalCatalog(payload); err == nil {
			for _, id := range c.IDs() {
				c.Columns(id)
			}
		}
	})
}
