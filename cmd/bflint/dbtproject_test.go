package main

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// copyProject copies a folder of testdata into a fresh project folder
// marked as a repository root, and returns the copy.
func copyProject(t *testing.T, from string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	err := filepath.WalkDir(from, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, path)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dir, rel), 0o755)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// lintJSON is what a lint run's JSON report says that a comparison of
// two runs needs: the findings by place and rule, and the coverage.
type lintJSON struct {
	Findings []struct {
		Code string `json:"code"`
		File string `json:"file"`
		Line int    `json:"line"`
		// Inventory findings (BF111 on a model linted on its own) are
		// facts about the model, which the formats a person reads count.
		Inventory bool `json:"inventory"`
	} `json:"findings"`
	Coverage map[string]any `json:"coverage"`
}

func lintProjectJSON(t *testing.T, dir string, args ...string) lintJSON {
	t.Helper()
	var stdout, stderr bytes.Buffer
	args = append([]string{"--now", "2026-11-30T09:00:00Z", "--fail-on", "never", "--format", "json"}, args...)
	if code := run(append(args, dir), &stdout, &stderr); code != exitClean {
		t.Fatalf("bflint %v: exit %d: %s", args, code, stderr.String())
	}
	var doc lintJSON
	if err := json.Unmarshal(stdout.Bytes(), &doc); err != nil {
		t.Fatalf("report is not JSON: %v\n%s", err, stdout.String())
	}
	return doc
}

// TestAdapterQuotedManifest checks that a dbt-bigquery manifest, whose
// relation names are backquoted, reads as well as none at all: the
// relations ref() renders must parse, or every model falls to the token
// reader and loses the guards read from parse trees (an anti-join guarded
// append would be reported).
func TestAdapterQuotedManifest(t *testing.T) {
	dir := copyProject(t, "../../testdata/dbt/bigquery_quoted")
	with := lintProjectJSON(t, dir)
	if err := os.RemoveAll(filepath.Join(dir, "target")); err != nil {
		t.Fatal(err)
	}
	without := lintProjectJSON(t, dir)
	if !slices.Equal(with.Findings, without.Findings) {
		t.Errorf("findings differ:\nwith the manifest    %+v\nwithout the manifest %+v", with.Findings, without.Findings)
	}
	var listed []string
	for _, f := range with.Findings {
		if !f.Inventory {
			listed = append(listed, f.Code+" "+f.File)
		}
	}
	if !slices.Equal(listed, []string{"BF201 models/fct_sessions.sql"}) {
		t.Errorf("want one BF201 on the keyless models/fct_sessions.sql, and none on the guarded fct_events: %+v", with.Findings)
	}
	if with.Coverage["from_tokens"] != float64(0) || with.Coverage["parsed"] != without.Coverage["parsed"] {
		t.Errorf("coverage differs: with the manifest %v, without %v", with.Coverage, without.Coverage)
	}
}

// TestFreshCloneLineage runs lineage and init in a dbt project dbt has not
// parsed (no target/, as in a fresh clone): the project's own files are
// the lineage, folder config and an ephemeral model included.
func TestFreshCloneLineage(t *testing.T) {
	dir := copyProject(t, "../../testdata/rules/BF801/fresh_clone")
	t.Chdir(filepath.Join(dir, "models"))
	code, stdout, stderr := runLineage(t, "--format=json", "fct_orders")
	if code != exitClean {
		t.Fatalf("lineage: exit %d: %s", code, stderr)
	}
	var report lineageReport
	if err := json.Unmarshal([]byte(stdout), &report); err != nil {
		t.Fatal(err)
	}
	if want := []string{"model.shop.revenue_daily", "model.shop.mart_revenue"}; !sameSet(report.Rebuild, want) {
		t.Errorf("rebuild %v, want %v", report.Rebuild, want)
	}
	if !slices.Equal(report.Snapshots, []string{"snapshot.shop.orders_history"}) || !slices.Equal(report.Notify, []string{"exposure.shop.finance_dashboard"}) {
		t.Errorf("snapshots %v, notify %v", report.Snapshots, report.Notify)
	}

	var out, errOut bytes.Buffer
	if code := run([]string{"init", "--target", "fct_orders", "--start", "2026-01-14", "--end", "2026-06-30"}, &out, &errOut); code != exitClean {
		t.Fatalf("init: exit %d: %s", code, errOut.String())
	}
	for _, want := range []string{
		"# Written by bflint init from the dbt project, where fct_orders is incremental.",
		"  write: merge  # TODO check: no incremental_strategy, so the adapter's default",
		"  key: [order_id]  # from the dbt project: unique_key",
		"    - model.shop.mart_revenue",
	} {
		if !bytes.Contains(out.Bytes(), []byte(want)) {
			t.Errorf("init output lacks %q:\n%s", want, out.String())
		}
	}
}

func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}
