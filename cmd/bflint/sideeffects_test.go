package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/bflint/bflint/internal/testfs"
)

// networkPackages open connections; none may be linked into bflint.
var networkPackages = []string{"net", "net/http", "crypto/tls", "net/rpc"}

// execUsers is where bflint may start a process: git, for --new-from-rev
// and a bigquery-etl tree's history, from newfromrev.go of the command
// itself, and the bflint binary itself, as the child that does the work,
// from supervise.go.
var execUsers = map[string][]string{"github.com/bflint/bflint/cmd/bflint": {"newfromrev.go", "supervise.go"}}

type listedPackage struct {
	ImportPath string
	Dir        string
	GoFiles    []string
	CgoFiles   []string
	Imports    []string
}

// TestSideEffectsDependencies reads bflint's dependency graph from go list:
// no network package is linked in, and os/exec is imported only by the
// files that implement --new-from-rev and the crash supervisor.
func TestSideEffectsDependencies(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	cmd := exec.Command(goTool, "list", "-deps", "-json", ".")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	var pkgs []listedPackage
	for {
		var p listedPackage
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
	}
	if len(pkgs) < 10 {
		t.Fatalf("go list gave only %d packages", len(pkgs))
	}
	execImporters := map[string][]string{}
	for _, p := range pkgs {
		if slices.Contains(networkPackages, p.ImportPath) {
			t.Errorf("bflint links %s, which opens network connections", p.ImportPath)
		}
		for _, imp := range p.Imports {
			if slices.Contains(networkPackages, imp) {
				t.Errorf("%s imports %s", p.ImportPath, imp)
			}
		}
		if slices.Contains(p.Imports, "os/exec") {
			execImporters[p.ImportPath] = filesImporting(t, p, "os/exec")
		}
	}
	if len(execImporters) != len(execUsers) {
		t.Errorf("os/exec is imported by %v, want only %v", execImporters, execUsers)
	}
	for pkg, files := range execUsers {
		if got := execImporters[pkg]; !slices.Equal(got, files) {
			t.Errorf("in %s, os/exec is imported by %v, want %v", pkg, got, files)
		}
	}
}

// filesImporting lists the files of p, sorted, that import path.
func filesImporting(t *testing.T, p listedPackage, path string) []string {
	t.Helper()
	var files []string
	fset := token.NewFileSet()
	for _, name := range append(slices.Clone(p.GoFiles), p.CgoFiles...) {
		f, err := parser.ParseFile(fset, filepath.Join(p.Dir, name), nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			if v, _ := strconv.Unquote(imp.Path.Value); v == path {
				files = append(files, name)
			}
		}
	}
	slices.Sort(files)
	return files
}

// fileState is what a write would change about a file or folder.
type fileState struct {
	size    int64
	mode    fs.FileMode
	modTime time.Time
}

// snapshot records every file and folder under dir, links not followed.
func snapshot(t *testing.T, dir string) map[string]fileState {
	t.Helper()
	state := map[string]fileState{}
	err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := e.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		state[filepath.ToSlash(rel)] = fileState{size: info.Size(), mode: info.Mode(), modTime: info.ModTime()}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return state
}

// TestSideEffectsWritesOnlyOutput lints a project with findings in every
// report format and checks that the project is left exactly as it was
// (names, sizes, modes, modification times) and that the output folder
// holds only the reports asked for.
func TestSideEffectsWritesOnlyOutput(t *testing.T) {
	dir := t.TempDir()
	outDir := t.TempDir()
	files := map[string]string{
		".git/HEAD":            "ref: refs/heads/main\n",
		".bflint.yaml":         "rules:\n  disable: [BF901]\n",
		"dbt_project.yml":      "name: shop\nversion: '1.0'\nprofile: shop\n",
		"target/manifest.json": manifestJSON(`{"model.shop.a": ["model.shop.c"], "model.shop.b": [], "model.shop.c": []}`),
		"target/catalog.json":  "{",
		"plans/p.backfill.yaml": "bflint: 1\nid: bf_p\ntarget: model.shop.a\nrange:\n  start: 2026-01-01\n  end: 2026-01-31\n" +
			"staging:\n  build: ../sql/build.sql\n",
		"sql/build.sql": "insert into analytics.a select * from {{ ref('b') }};\n",
		"sql/loose.sql": "SELEC 1;\n",
	}
	testfs.Write(t, dir, files)
	// Modification times in the past make a rewrite visible even when it
	// happens within the file system's timestamp granularity.
	past := time.Now().Add(-time.Hour).Truncate(time.Second)
	err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return os.Chtimes(p, past, past)
	})
	if err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, dir)
	t.Chdir(dir)
	args := []string{"--no-color", "--now", examplesNow, "--output", filepath.Join(outDir, "report.txt")}
	for _, f := range []string{"json", "sarif", "github", "rdjsonl"} {
		args = append(args, "--format", f+"="+filepath.Join(outDir, "report."+f))
	}
	args = append(args, "--format", "text", ".")
	var stdout, stderr bytes.Buffer
	if code := run(args, &stdout, &stderr); code != exitFindings {
		t.Fatalf("exit %d, want 1\nstdout:\n%s\nstderr:\n%s", code, stdout.String(), stderr.String())
	}
	after := snapshot(t, dir)
	for name, was := range before {
		now, ok := after[name]
		switch {
		case !ok:
			t.Errorf("the run removed %s", name)
		case now != was:
			t.Errorf("the run changed %s: %+v, was %+v", name, now, was)
		}
	}
	for name := range after {
		if _, ok := before[name]; !ok {
			t.Errorf("the run created %s in the project", name)
		}
	}
	var written []string
	for name, st := range snapshot(t, outDir) {
		if name != "." {
			written = append(written, name)
			if st.size == 0 {
				t.Errorf("the report %s is empty", name)
			}
		}
	}
	slices.Sort(written)
	want := []string{"report.github", "report.json", "report.rdjsonl", "report.sarif", "report.txt"}
	if !slices.Equal(written, want) {
		t.Errorf("the output folder holds %v, want %v", written, want)
	}
	if stdout.Len() != 0 {
		t.Errorf("with --output, stdout should be empty:\n%s", stdout.String())
	}
	report, err := os.ReadFile(filepath.Join(outDir, "report.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(report, []byte(`sql/loose.sql:1:1: warning: cannot parse this statement at "SELEC"`)) {
		t.Errorf("the text report lacks the finding on sql/loose.sql:\n%s", report)
	}
}
