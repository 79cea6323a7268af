package manifest

import (
	"bufio"
	"crypto/sha256"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/bflint/bflint/internal/outfile"
)

// A run ended by a signal while it writes a cache entry leaves no
// temporary file in the cache: the signal's sweep (RemoveTemporaries)
// removes the entry being written, as it does an output's. The sweep ends
// the process's writes for good, so it runs in a process of its own.
func TestInterruptedCacheWriteLeavesNothing(t *testing.T) {
	if dir := os.Getenv("BFLINT_SWEEP_CACHE_DIR"); dir != "" {
		writeEntry(dir, filepath.Join(dir, "entry"), sha256.Sum256(nil), func(w *bufio.Writer) {
			w.WriteString("half an entry")
			w.Flush()
			outfile.RemoveTemporaries() // the signal arrives mid-write
		})
		os.Exit(0)
	}
	dir := filepath.Join(t.TempDir(), "cache")
	cmd := exec.Command(os.Args[0], "-test.run=^TestInterruptedCacheWriteLeavesNothing$")
	cmd.Env = append(os.Environ(), "BFLINT_SWEEP_CACHE_DIR="+dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the writing process failed: %v\n%s", err, out)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatalf("the cache was not made: %v", err)
	}
	for _, e := range entries {
		if e.Name() != tagName {
			t.Errorf("left in the cache after the sweep: %s", e.Name())
		}
	}
}
