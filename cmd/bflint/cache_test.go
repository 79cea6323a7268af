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
	if entries, _ := filepath.Glob(filepath.Join(dir, "*.bin")); len(entries) != 1 {
		t.Errorf("the cache holds %q, want one entry", entries)
	}
}

// TestTestsLeaveTheUserCache checks that, under go test, the default cache
// is off: a run of the CLI in a test writes nothing into the user's cache
// folder.
func TestTestsLeaveTheUserCache(t *testing.T) {
	t.Setenv(manifest.CacheDirEnv, "")
	home := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", filepath.Join(home, "cache"))
	t.Setenv("HOME", home)
	if code, _, stderr := runLineage(t, "fct_orders", "--manifest", shopManifest); code != exitClean {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if entries, err := os.ReadDir(home); err != nil || len(entries) != 0 {
		t.Errorf("the run wrote %v into the home folder (%v)", entries, err)
	}
}
