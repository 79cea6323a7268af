package main

import (
	"bytes"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/bflint/bflint/internal/testfs"
)

var updateE2E = flag.Bool("update", false, "rewrite the expected stdout of e2e scenarios")

// TestScenarios runs each testdata/e2e/*.txtar through the whole CLI. The
// archive's comment holds "args:" (the command line, run in a fresh folder
// holding the archive's files and a .git marker, or in its subfolder
// "cd:"), "exit:" (the expected
// code), optional "stderr:" lines (text stderr must contain) and "creates:"
// lines (files the run must write). The file
// "stdout" is the expected standard output; other files are the project.
func TestScenarios(t *testing.T) {
	paths, err := filepath.Glob("../../testdata/e2e/*.txtar")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no scenarios found: %v", err)
	}
	for _, path := range paths {
		path, err := filepath.Abs(path)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txtar"), func(t *testing.T) {
			runScenario(t, path)
		})
	}
}

func runScenario(t *testing.T, path string) {
	ar, err := txtar.ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var args []string
	wantExit := -1
	var wantStderr, wantFiles []string
	cd := ""
	for _, line := range strings.Split(string(ar.Comment), "\n") {
		key, value, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		value = strings.TrimSpace(value)
		switch key {
		case "args":
			args = strings.Fields(value)
		case "exit":
			wantExit, _ = strconv.Atoi(value)
		case "stderr":
			wantStderr = append(wantStderr, value)
		case "creates":
			wantFiles = append(wantFiles, value)
		case "cd":
			cd = value
		}
	}
	if wantExit < 0 {
		t.Fatal("scenario has no exit: line")
	}
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	var wantStdout []byte
	stdoutIndex := -1
	for i, f := range ar.Files {
		if f.Name == "stdout" {
			wantStdout, stdoutIndex = f.Data, i
			continue
		}
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(filepath.Join(dir, filepath.FromSlash(cd)))
	t.Setenv("NO_COLOR", "")
	var stdout, stderr bytes.Buffer
	code := run(args, &stdout, &stderr)
	if code != wantExit {
		t.Errorf("exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", code, wantExit, stdout.String(), stderr.String())
	}
	for _, s := range wantStderr {
		if !strings.Contains(stderr.String(), s) {
			t.Errorf("stderr does not contain %q:\n%s", s, stderr.String())
		}
	}
	for _, name := range wantFiles {
		if info, err := os.Stat(filepath.Join(dir, name)); err != nil || info.Size() == 0 {
			t.Errorf("the run did not write %s", name)
		}
	}
	if *updateE2E {
		if stdoutIndex < 0 {
			ar.Files = append(ar.Files, txtar.File{Name: "stdout"})
			stdoutIndex = len(ar.Files) - 1
		}
		ar.Files[stdoutIndex].Data = stdout.Bytes()
		if err := os.WriteFile(path, txtar.Format(ar), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if !bytes.Equal(stdout.Bytes(), wantStdout) {
		t.Errorf("stdout differs (run with -update to accept):\n--- got\n%s\n--- want\n%s", stdout.String(), wantStdout)
	}
}

// writeProject lays files out in a fresh project folder, marked as a
// repository root by an empty .git, and returns the folder.
func writeProject(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	testfs.Write(t, dir, files)
	return dir
}

// TestPlanFormat forces how a plan file is read: the same YAML file is a
// bflint plan by default (it lacks the bflint key) and bigquery-etl
// entries with --plan-format bqetl, whose unknown key then gets a
// suggestion.
func TestPlanFormat(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "entries.yaml")
	entry := "2026-11-20:\n  start_date: 2026-11-01\n  end_date: 2026-11-10\n  reason: Fix the currency.\n  watchers:\n  - analyst@example.com\n  statuss: Initiate\n"
	if err := os.WriteFile(path, []byte(entry), 0o644); err != nil {
		t.Fatal(err)
	}
	lint := func(args ...string) string {
		var stdout, stderr bytes.Buffer
		code := run(append([]string{"--now", "2026-11-30T09:00:00Z", "--fail-on", "never", "--no-color"}, args...), &stdout, &stderr)
		if code != exitClean {
			t.Fatalf("bflint %v: exit %d: %s", args, code, stderr.String())
		}
		return stdout.String()
	}
	if out := lint("--plan-format", "bqetl", path); !strings.Contains(out, `did you mean "status"`) {
		t.Errorf("read as bqetl entries, the typo gets no suggestion:\n%s", out)
	}
	if out := lint(path); strings.Contains(out, `did you mean "status"`) || !strings.Contains(out, "BF001") {
		t.Errorf("read as a bflint plan, it must be reported as one:\n%s", out)
	}
	var stderr bytes.Buffer
	if code := run([]string{"--plan-format", "dbt", path}, io.Discard, &stderr); code != exitUsage || !strings.Contains(stderr.String(), "use auto, bflint or bqetl") {
		t.Errorf("an unknown format: exit %d, %s", code, stderr.String())
	}
}

// TestBqetlEntryAlone lints one backfill.yaml of a bigquery-etl tree
// outside any git repository, as an editor or a hook on a copy would: the
// other entries of the tree still count, so only the entries no later
// entry covers are reported, and with no history to tell when a table was
// created, a table created after a correction counts as one that read the
// uncorrected rows.
func TestBqetlEntryAlone(t *testing.T) {
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS("../../testdata/rules/BF801/bqetl")); err != nil {
		t.Fatal(err)
	}
	t.Setenv("BFLINT_CACHE_DIR", "off")
	var stdout, stderr bytes.Buffer
	file := filepath.Join(dir, "sql", "shop-prod", "orders_derived", "orders_v1", "backfill.yaml")
	code := run([]string{"--now", "2026-11-30T09:00:00Z", "--fail-on", "never", "--no-color", file}, &stdout, &stderr)
	if code != exitClean {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	out := stdout.String()
	if n := strings.Count(out, "[BF801 "); n != 2 || !strings.Contains(out, "backfill.yaml:14:1: error: 3 incremental tables built from shop-prod.orders_derived.orders_v1 keep the partitions computed from its uncorrected rows") ||
		!strings.Contains(out, "backfill.yaml:22:1:") {
		t.Errorf("want two BF801, on the 2026-04-02 entry (line 14, with the table created later) and the 2026-03-10 one (line 22); got:\n%s", out)
	}
	// Both entries are Complete and judged without history: each says so.
	if n := strings.Count(out, "git history before 2026-"); n != 2 {
		t.Errorf("want both findings to say the history could not be read; got:\n%s", out)
	}
}

// TestBqetlHistory lints a bigquery-etl tree in a git repository whose
// history shows a table created after the corrections upstream of it: it
// computed every partition from corrected rows, so neither correction is
// reported for it. An entry older than the tree's first commit is judged
// without history.
func TestBqetlHistory(t *testing.T) {
	dir, gitRun := gitRepo(t)
	if err := os.CopyFS(dir, os.DirFS("../../testdata/rules/BF801/bqetl")); err != nil {
		t.Fatal(err)
	}
	later := filepath.Join("sql", "shop-prod", "orders_derived", "orders_by_channel_v1")
	aside := filepath.Join(t.TempDir(), "later")
	if err := os.Rename(filepath.Join(dir, later), aside); err != nil {
		t.Fatal(err)
	}
	commitOn := func(day string) {
		t.Setenv("GIT_COMMITTER_DATE", day+"T12:00:00Z")
		t.Setenv("GIT_AUTHOR_DATE", day+"T12:00:00Z")
		gitRun("add", "-A")
		gitRun("commit", "-q", "-m", "tables as of "+day)
	}
	commitOn("2026-03-01")
	if err := os.Rename(aside, filepath.Join(dir, later)); err != nil {
		t.Fatal(err)
	}
	commitOn("2026-04-15")
	t.Setenv("BFLINT_CACHE_DIR", "off")
	t.Chdir(dir)
	var stdout, stderr bytes.Buffer
	code := run([]string{"--now", "2026-11-30T09:00:00Z", "--fail-on", "never", "--no-color", "."}, &stdout, &stderr)
	if code != exitClean {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	out := stdout.String()
	if n := strings.Count(out, "[BF801 "); n != 1 || !strings.Contains(out, "orders_v1/backfill.yaml:14:1: error: 2 incremental tables built from shop-prod.orders_derived.orders_v1 keep the partitions computed from its uncorrected rows") {
		t.Errorf("want one BF801, on the 2026-04-02 entry and without orders_by_channel_v1; got:\n%s", out)
	}
	if strings.Contains(out, "could not be read") {
		t.Errorf("the history was read, and a finding says it was not:\n%s", out)
	}
}
