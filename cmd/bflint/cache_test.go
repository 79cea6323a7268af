package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/bflint/bflint/parser/manifest"
)

// TestLineageThroughCache runs bflint lineage into an empty cache, then from
// it: the output is the same as without a cache.
func TestLineageThroughCache(t *testing.T) {
	t.Setenv(manifest.CacheDirEnv, "off")
	code, want, stderr := runLineage(t, "fct_orders", "--manifest", shopManifest)
	if code != exitClean {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	dir := t.TempDir()
	t.Setenv(manifest.CacheDirEnv, dir)
	for _, run := range []string{"into the cache", "from the cache"} {
		code, got, stderr := runLineage(t, "fct_orders", "--manifest", shopManifest)
		if code != exitClean || got != want {
			t.Errorf("%s: exit %d, stderr %q, output:\n%s\nwant:\n%s", run, code, stderr, got, want)
		}
	}
	if entries, _ := filepath.Glob(filepath.Join(dir, "cache", "*.bin")); len(entries) != 1 {
		t.Errorf("the cache holds %q, want one entry", entries)
	}
}

// TestDefaultCacheFolder runs bflint lineage with BFLINT_CACHE_DIR unset:
// the entry lands in bflint's folder of the user cache folder.
func TestDefaultCacheFolder(t *testing.T) {
	t.Setenv(manifest.CacheDirEnv, "")
	home := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", filepath.Join(home, "cache"))
	t.Setenv("HOME", home)
	if code, _, stderr := runLineage(t, "fct_orders", "--manifest", shopManifest); code != exitClean {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	user, err := os.UserCacheDir()
	if err != nil {
		t.Skip("no user cache folder on this system")
	}
	if entries, _ := filepath.Glob(filepath.Join(user, "bflint", "cache", "*.bin")); len(entries) != 1 {
		t.Errorf("the user cache folder holds %q, want one entry", entries)
	}
}
