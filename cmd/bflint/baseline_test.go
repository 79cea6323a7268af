package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bflint/bflint/internal/testfs"
)

const now = "--now=2026-11-30T09:00:00Z"

func lintIn(t *testing.T, dir string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	t.Chdir(dir)
	var out, errOut bytes.Buffer
	code = run(append([]string{now}, args...), &out, &errOut)
	return code, out.String(), errOut.String()
}

// TestBaselineRoundTrip records a baseline with the CLI and reads it back:
// what it recorded is hidden, a finding added later is not, and entries the
// run could not have matched (a file not linted, a rule switched off) are
// not called stale.
func TestBaselineRoundTrip(t *testing.T) {
	dir := t.TempDir()
	testfs.Write(t, dir, map[string]string{
		".git/HEAD":       "",
		"a.backfill.yaml": "bflint: 1\nid: bf_a\ntarget: analytics.fct_orders\n",
		"sql/c.sql":       appendSQL,
	})

	code, _, stderr := lintIn(t, dir, "--write-baseline", "base.json", ".")
	if code != exitClean {
		t.Fatalf("--write-baseline exit code %d, want 0\n%s", code, stderr)
	}
	info, err := os.Stat(filepath.Join(dir, "base.json"))
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o644 {
		t.Errorf("baseline mode %v, want 0644: it is committed and read by everyone", info.Mode().Perm())
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".bflint-baseline-*")); len(left) > 0 {
		t.Errorf("temporary files left behind: %v", left)
	}

	code, stdout, stderr := lintIn(t, dir, "--baseline", "base.json", ".")
	if code != exitClean || !strings.HasPrefix(stdout, "no findings (") || stderr != "" {
		t.Fatalf("with the fresh baseline: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}

	// Neither a run on one file nor one with a rule off can see every
	// recorded finding; what it cannot see is not stale.
	if _, _, stderr := lintIn(t, dir, "--baseline", "base.json", "a.backfill.yaml"); stderr != "" {
		t.Errorf("a run on one file calls other files' entries stale:\n%s", stderr)
	}
	if _, _, stderr := lintIn(t, dir, "--baseline", "base.json", "--disable", "BF601", "."); stderr != "" {
		t.Errorf("a run without BF601 calls its entries stale:\n%s", stderr)
	}

	testfs.Write(t, dir, map[string]string{"sql/d.sql": appendSQL})
	code, stdout, _ = lintIn(t, dir, "--baseline", "base.json", "--format", "json", ".")
	if code != exitFindings {
		t.Errorf("a new error after the baseline: exit %d, want %d", code, exitFindings)
	}
	if !strings.Contains(stdout, `"file": "sql/d.sql"`) || strings.Contains(stdout, `"file": "sql/c.sql"`) || strings.Contains(stdout, `"file": "a.backfill.yaml"`) {
		t.Errorf("want only the new file's findings:\n%s", stdout)
	}

	// Fixing the recorded append makes its entry stale; refreshing with
	// both flags records the whole project again, so the next run is clean
	// and has nothing stale.
	testfs.Write(t, dir, map[string]string{"sql/c.sql": "SELECT 1;\n"})
	_, _, stderr = lintIn(t, dir, "--baseline", "base.json", ".")
	if !strings.Contains(stderr, "in base.json match") || !strings.Contains(stderr, "  BF201 sql/c.sql: ") {
		t.Errorf("the fixed finding's entry is not reported stale:\n%s", stderr)
	}
	if code, _, stderr := lintIn(t, dir, "--baseline", "base.json", "--write-baseline", "base.json", "."); code != exitClean {
		t.Fatalf("refresh: exit %d\n%s", code, stderr)
	}
	code, stdout, stderr = lintIn(t, dir, "--baseline", "base.json", ".")
	if code != exitClean || stderr != "" || !strings.HasPrefix(stdout, "no findings (") {
		t.Errorf("after the refresh: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
}

// TestWriteBaselineFailure: a baseline that cannot be written is an I/O
// error (exit 2) naming the file, and no partial file appears.
func TestWriteBaselineFailure(t *testing.T) {
	dir := t.TempDir()
	testfs.Write(t, dir, map[string]string{".git/HEAD": "", "a.backfill.yaml": "bflint: 1\nid: bf_a\ntarget: analytics.fct_orders\n"})
	code, _, stderr := lintIn(t, dir, "--write-baseline", "missing/base.json", ".")
	if code != exitUsage || !strings.Contains(stderr, "--write-baseline missing/base.json: ") {
		t.Errorf("exit %d, want %d with the file named\n%s", code, exitUsage, stderr)
	}
}
