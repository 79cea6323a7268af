package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/bflint/bflint/internal/benchgen"
)

// The defaults keep `go test -bench .` quick; the sizes of targets A and C
// (docs/benchmarks.md) are
//
//	go test -run '^$' -bench 'LintCorpus|PrecommitWarm' ./cmd/bflint/ -corpus-files 1000 -manifest-mb 100
var (
	benchCorpusFiles = flag.Int("corpus-files", 100, "SQL files in the corpus BenchmarkLintCorpus lints")
	benchManifestMB  = flag.Int("manifest-mb", 2, "size in MB of the manifest BenchmarkPrecommitWarm's plan names")
)

const benchNow = "2026-11-30T09:00:00Z"

// BenchmarkLintCorpus is target A in process: the whole lint command over a
// generated corpus, JSON report discarded, the cache off.
func BenchmarkLintCorpus(b *testing.B) {
	b.Setenv("BFLINT_CACHE_DIR", "off")
	root := benchRoot(b)
	if _, err := benchgen.WriteCorpus(root, *benchCorpusFiles, 1); err != nil {
		b.Fatal(err)
	}
	args := []string{"--now", benchNow, "--format", "json", root}
	var out bytes.Buffer
	code := run(args, &out, io.Discard)
	var report struct {
		Findings []json.RawMessage `json:"findings"`
		Errors   []json.RawMessage `json:"errors"`
	}
	if err := json.Unmarshal(out.Bytes(), &report); err != nil || code > exitFindings || len(report.Findings) == 0 || len(report.Errors) > 0 {
		b.Fatalf("exit %d, %d findings, %d internal errors, decode error %v", code, len(report.Findings), len(report.Errors), err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if code := run(args, io.Discard, io.Discard); code > exitFindings {
			b.Fatalf("exit %d", code)
		}
	}
	b.ReportMetric(float64(len(report.Findings)), "findings/op")
}

// BenchmarkPrecommitWarm is target C in process: a pre-commit invocation
// (the plan and its five SQL files named on the command line, text report)
// whose manifest is already in the cache because one run came before.
// cache-files reports what that run left in the cache directory: 0 means
// nothing was cached and the benchmark measured cold loads.
func BenchmarkPrecommitWarm(b *testing.B) {
	root := benchRoot(b)
	cache := filepath.Join(b.TempDir(), "cache")
	b.Setenv("BFLINT_CACHE_DIR", cache)
	manifest := filepath.Join(root, "manifest.json")
	if _, err := benchgen.WriteManifest(manifest, int64(*benchManifestMB)<<20, 1); err != nil {
		b.Fatal(err)
	}
	project := filepath.Join(root, "project")
	if err := benchgen.WritePrecommitProject(project, manifest, 1); err != nil {
		b.Fatal(err)
	}
	sql, err := filepath.Glob(filepath.Join(project, "sql", "*.sql"))
	if err != nil || len(sql) != 5 {
		b.Fatalf("project SQL files %q: %v", sql, err)
	}
	args := append([]string{"--now", benchNow, filepath.Join(project, "fix.backfill.yaml")}, sql...)
	var out, stderr bytes.Buffer
	// Without BF003 (missing-file) the plan's manifest was found and read.
	if code := run(args, &out, &stderr); code > exitFindings || bytes.Contains(out.Bytes(), []byte("BF003")) {
		b.Fatalf("warm-up exited %d:\n%s%s", code, out.Bytes(), stderr.Bytes())
	}
	b.ReportAllocs()
	for b.Loop() {
		if code := run(args, io.Discard, io.Discard); code > exitFindings {
			b.Fatalf("exit %d", code)
		}
	}
	cached := 0
	filepath.WalkDir(cache, func(_ string, e os.DirEntry, err error) error {
		if err == nil && !e.IsDir() {
			cached++
		}
		return nil
	})
	b.ReportMetric(float64(cached), "cache-files")
}

// benchRoot is a project root of its own, so that discovery and
// repository-relative names do not depend on where the temporary folder is.
func benchRoot(b *testing.B) string {
	root := b.TempDir()
	if err := os.Mkdir(filepath.Join(root, ".git"), 0o755); err != nil {
		b.Fatal(err)
	}
	if real, err := filepath.EvalSymlinks(root); err == nil {
		root = real
	}
	return root
}
