package main

import (
	"bytes"
	"io"
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

// TestOutputDestinations writes reports to each kind of destination: a
// regular file keeps its mode, a link stays a link and its target gets
// the report, both names of a hard-linked file see it, a pipe is written
// in place (and one nobody reads is an error, not a wait; a device is
// written in place as a pipe is, which scripts/hostile-root.sh checks on
// /dev/null as root in a mount namespace of its own), and a path
// that is also an input, or two outputs to one file, are refused before
// anything is written.
func TestOutputDestinations(t *testing.T) {
	dir := writeProject(t, map[string]string{"a.sql": "SELEC 1;\n", "p.backfill.yaml": "bflint: 1\nid: bf_o\ntarget: analytics.t\n"})
	t.Chdir(dir)
	lint := func(args ...string) (int, string) {
		var stdout, stderr bytes.Buffer
		code := run(append([]string{"--no-color", "--now", examplesNow, "--fail-on", "never"}, append(args, ".")...), &stdout, &stderr)
		return code, stdout.String() + stderr.String()
	}
	isReport := func(path string) bool {
		b, err := os.ReadFile(path)
		return err == nil && bytes.Contains(b, []byte(`"findings"`))
	}

	if err := os.WriteFile("private.json", []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if code, out := lint("--format", "json=private.json"); code != 0 || !isReport("private.json") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	if info, _ := os.Stat("private.json"); info.Mode().Perm() != 0o600 {
		t.Errorf("the report's mode became %v, want 0600 as it was", info.Mode().Perm())
	}

	out := t.TempDir()
	target := filepath.Join(out, "report.json")
	if err := os.WriteFile(target, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, "link.json"); err != nil {
		t.Fatal(err)
	}
	lint("--format", "json=link.json")
	if info, err := os.Lstat("link.json"); err != nil || info.Mode()&os.ModeSymlink == 0 || !isReport(target) {
		t.Errorf("the link was replaced, or its target not written: %v", err)
	}

	if err := os.Link(target, filepath.Join(out, "second.json")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(target, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	lint("--format", "json="+target)
	if !isReport(filepath.Join(out, "second.json")) {
		t.Errorf("the second name of a hard-linked report does not see the new report")
	}

	fifo := filepath.Join(out, "pipe")
	mkfifo(t, fifo)
	if code, out := lint("--format", "json="+fifo); code != exitUsage || !strings.Contains(out, "no process reads the named pipe") {
		t.Errorf("a pipe nobody reads: exit %d, want 2 saying so:\n%s", code, out)
	}
	got := make(chan []byte, 1)
	go func() {
		f, err := os.Open(fifo)
		if err != nil {
			got <- nil
			return
		}
		defer f.Close()
		b, _ := io.ReadAll(f)
		got <- b
	}()
	time.Sleep(100 * time.Millisecond) // the reader opens the pipe first
	if code, out := lint("--format", "json="+fifo); code != 0 {
		t.Errorf("a pipe read by a process: exit %d:\n%s", code, out)
	}
	if b := <-got; !bytes.Contains(b, []byte(`"findings"`)) {
		t.Errorf("the reader of the pipe got %q", b)
	}
	if info, err := os.Lstat(fifo); err != nil || info.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the pipe was replaced by a file: %v", err)
	}

	// The run's own streams are written as the streams they are, not
	// opened again (which fails for any user but their owner).
	var stdout, stderr bytes.Buffer
	if code := run([]string{"--now", examplesNow, "--fail-on", "never", "--format", "json=/dev/stdout", "--format", "sarif=/dev/stderr", "."}, &stdout, &stderr); code != 0 ||
		!bytes.Contains(stdout.Bytes(), []byte(`"findings"`)) || !bytes.Contains(stderr.Bytes(), []byte(`"$schema"`)) {
		t.Errorf("json=/dev/stdout and sarif=/dev/stderr: exit %d, stdout %q, stderr %q", code, clip(stdout.String()), clip(stderr.String()))
	}
	stdout.Reset()
	if code := run([]string{"brief", "--now", examplesNow, "--output", "/dev/stdout", "."}, &stdout, &stderr); code != 0 || !bytes.Contains(stdout.Bytes(), []byte("# Backfill brief")) {
		t.Errorf("brief --output /dev/stdout: exit %d, stdout %q", code, clip(stdout.String()))
	}

	before, _ := os.ReadFile("p.backfill.yaml")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--format", "json=p.backfill.yaml"}, "--format json=p.backfill.yaml would overwrite p.backfill.yaml, a file this run reads"},
		{[]string{"--format", "json=r.json", "--format", "sarif=r.json"}, "write the same file"},
		{[]string{"--output", "r.json", "--format", "json", "--format", "sarif"}, "write the same file"},
		{[]string{"--write-baseline", "a.sql"}, "--write-baseline a.sql would overwrite a.sql"},
	} {
		if code, out := lint(c.args...); code != exitUsage || !strings.Contains(out, c.want) {
			t.Errorf("%v: exit %d, want 2 and %q:\n%s", c.args, code, c.want, out)
		}
	}
	if after, _ := os.ReadFile("p.backfill.yaml"); !bytes.Equal(before, after) {
		t.Errorf("the plan was overwritten")
	}
	if _, err := os.Stat("r.json"); err == nil {
		t.Errorf("r.json was written by a refused run")
	}
}

// The machine formats do not depend on the working directory: the same
// folder linted from the repository's root and from a subfolder through
// ../ gives the same JSON, findings and all.
func TestMachineFormatsIgnoreTheWorkingDirectory(t *testing.T) {
	dir := writeProject(t, map[string]string{
		"analytics/load.sql":          "INSERT INTO analytics.fct_orders SELECT * FROM raw.orders;\n",
		"analytics/staging/stage.sql": "INSERT INTO analytics.fct_refunds SELECT * FROM raw.refunds;\n",
		"tools/readme.txt":            "not linted\n",
	})
	lint := func(wd, path string) string {
		t.Helper()
		t.Chdir(filepath.Join(dir, wd))
		var stdout, stderr bytes.Buffer
		run([]string{"--now", "2026-11-30", "--format", "json", "--fail-on", "never", path}, &stdout, &stderr)
		return stdout.String()
	}
	fromRoot := lint(".", "analytics")
	if !strings.Contains(fromRoot, `"file": "analytics/staging/stage.sql"`) {
		t.Fatalf("from the root, the findings do not name analytics/staging/stage.sql:\n%s", fromRoot)
	}
	for _, c := range []struct{ wd, path string }{{"tools", "../analytics"}, {"analytics/staging", ".."}, {"analytics", "."}} {
		if got := lint(c.wd, c.path); got != fromRoot {
			t.Errorf("bflint %s in %s gives other JSON than from the root:\n%s\nwant:\n%s", c.path, c.wd, got, fromRoot)
		}
	}
}
