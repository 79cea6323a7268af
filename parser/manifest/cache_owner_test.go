package manifest

import (
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"
)

// A cache folder named by BFLINT_CACHE_DIR may be a user's own: bflint
// keeps its entries in a folder of its own inside it, tagged, and removes
// nothing it did not write, whatever the names.
func TestCacheTouchesOnlyItsOwnFiles(t *testing.T) {
	path := "../../testdata/lineage/shop/target/manifest.json"
	users := t.TempDir()
	old := time.Now().Add(-48 * time.Hour)
	names := []string{"last-notes", "manifest-1.bin", "catalog-abc.bin", "entry-9.tmp", "last-1.tmp", "assembled-x.bin"}
	for _, name := range names {
		p := filepath.Join(users, name)
		if err := os.WriteFile(p, []byte("mine"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv(CacheDirEnv, users)
	dir := CacheDir()
	for range keptEntries + 2 {
		if _, err := LoadCached(path, dir); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := LoadCached(path, users); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(users)
	if err != nil {
		t.Fatal(err)
	}
	var left []string
	for _, e := range entries {
		left = append(left, e.Name())
	}
	want := append(slices.Clone(names), cacheFolder)
	slices.Sort(want)
	if !slices.Equal(left, want) {
		t.Errorf("the user's folder holds %v, want their files untouched and only %q added", left, cacheFolder)
	}
	if _, err := os.Stat(filepath.Join(dir, tagName)); err != nil {
		t.Errorf("bflint's cache folder is not tagged: %v", err)
	}
}

// Entries planted in bflint's own folder under the names it uses, a named
// pipe and a link to an endless device, are neither waited on nor read:
// the manifest is decoded as without a cache, and the entries written
// again.
func TestCacheIgnoresPlantedEntries(t *testing.T) {
	path := "../../testdata/lineage/shop/target/manifest.json"
	dir := filepath.Join(t.TempDir(), "cache")
	loadBoth(t, path, dir)
	entry, _ := cachedEntry(t, dir, path)
	last := filepath.Join(dir, lastName(path))
	for _, p := range []string{entry, last} {
		if err := os.Remove(p); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(last, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", entry); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := LoadCached(path, dir)
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("LoadCached hangs on a planted named pipe or device")
	}
	// Both names are bflint's in a folder it tagged: the run wrote its
	// own files over them.
	for _, p := range []string{entry, last} {
		if info, err := os.Lstat(p); err != nil || !info.Mode().IsRegular() {
			t.Errorf("%s is not a regular entry after the run: %v", filepath.Base(p), err)
		}
	}
}
