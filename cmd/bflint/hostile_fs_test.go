package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// runBounded runs the CLI in dir and fails the test if it does not end
// within a bound: a blocked open or an endless read would otherwise hang
// the test as it hangs a pre-commit hook.
func runBounded(t *testing.T, dir string, args ...string) (code int, out string) {
	t.Helper()
	t.Chdir(dir)
	type result struct {
		code int
		out  string
	}
	done := make(chan result, 1)
	go func() {
		var stdout, stderr bytes.Buffer
		code := run(args, &stdout, &stderr)
		done <- result{code, stdout.String() + stderr.String()}
	}()
	select {
	case r := <-done:
		return r.code, r.out
	case <-time.After(30 * time.Second):
		t.Fatalf("bflint %s did not end within 30 s", strings.Join(args, " "))
		return 0, ""
	}
}

func mkfifo(t *testing.T, path string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Skipf("cannot make a named pipe here: %v", err)
	}
}

// TestNonRegularInputs plants named pipes and device links where bflint
// reads files: each is refused at once, saying what it is, and the rest
// of the run goes on.
func TestNonRegularInputs(t *testing.T) {
	project := func(t *testing.T) string {
		dir := writeProject(t, map[string]string{
			"dbt_project.yml":         "name: shop\n",
			"models/a.sql":            "select 1 as a\n",
			"companion.backfill.yaml": "bflint: 1\nid: bf_companion\ntarget: analytics.companion\n",
		})
		return dir
	}
	t.Run("a pipe named like a YAML file in the tree", func(t *testing.T) {
		dir := project(t)
		mkfifo(t, filepath.Join(dir, "notes.yaml"))
		code, out := runBounded(t, dir, "--no-color", "--now", examplesNow, ".")
		if code != exitFindings || !strings.Contains(out, `plan "bf_companion" has no rollback section`) {
			t.Errorf("exit %d, want 1 with the companion plan's findings:\n%s", code, out)
		}
	})
	t.Run("a pipe as the manifest", func(t *testing.T) {
		dir := project(t)
		mkfifo(t, filepath.Join(dir, "target", "manifest.json"))
		code, out := runBounded(t, dir, "--no-color", "--now", examplesNow, ".")
		if code != exitFindings || !strings.Contains(out, "target/manifest.json cannot be read") || !strings.Contains(out, "a named pipe (FIFO)") {
			t.Errorf("lint: exit %d, want a BF003 naming the pipe:\n%s", code, out)
		}
		for _, args := range [][]string{{"lineage", "a"}, {"init", "--target", "a", "--start", "2026-01-01", "--end", "2026-01-02"}} {
			code, out := runBounded(t, dir, args...)
			if code != exitUsage || !strings.Contains(out, "a named pipe (FIFO), not a regular file") {
				t.Errorf("%s: exit %d, want 2 naming the pipe:\n%s", args[0], code, out)
			}
		}
	})
	t.Run("a pipe as the catalog", func(t *testing.T) {
		dir := project(t)
		if err := os.CopyFS(filepath.Join(dir, "target"), os.DirFS("../../examples/two_plans/target")); err != nil {
			t.Fatal(err)
		}
		os.Remove(filepath.Join(dir, "target", "catalog.json"))
		mkfifo(t, filepath.Join(dir, "target", "catalog.json"))
		if code, out := runBounded(t, dir, "--no-color", "--now", examplesNow, "."); code != exitFindings {
			t.Errorf("exit %d, want 1:\n%s", code, out)
		}
	})
	t.Run("an endless device as the manifest", func(t *testing.T) {
		dir := project(t)
		if err := os.MkdirAll(filepath.Join(dir, "target"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink("/dev/zero", filepath.Join(dir, "target", "manifest.json")); err != nil {
			t.Fatal(err)
		}
		code, out := runBounded(t, dir, "--no-color", "--now", examplesNow, ".")
		if code != exitFindings || !strings.Contains(out, "a device, not a regular file") {
			t.Errorf("exit %d, want a BF003 naming the device:\n%s", code, out)
		}
		code, out = runBounded(t, dir, "--manifest", "/dev/zero", ".")
		if code != exitUsage || !strings.Contains(out, "--manifest /dev/zero: a device, not a regular file") {
			t.Errorf("--manifest /dev/zero: exit %d:\n%s", code, out)
		}
	})
	t.Run("a pipe as a SQL file and as the configuration", func(t *testing.T) {
		dir := project(t)
		mkfifo(t, filepath.Join(dir, "models", "b.sql"))
		mkfifo(t, filepath.Join(dir, "elsewhere.yaml"))
		code, out := runBounded(t, dir, "--no-color", "--now", examplesNow, ".")
		if code != exitFindings || !strings.Contains(out, "models/b.sql:1:1: error: cannot read SQL file: a named pipe (FIFO)") {
			t.Errorf("exit %d, want a BF003 on the pipe:\n%s", code, out)
		}
		code, out = runBounded(t, dir, "--config", "elsewhere.yaml", ".")
		if code != exitUsage || !strings.Contains(out, "a named pipe (FIFO)") {
			t.Errorf("--config of a pipe: exit %d:\n%s", code, out)
		}
	})
}
