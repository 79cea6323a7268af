package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestContextNeedsRepository checks that a file given outside a git
// repository is linted alone: the project's extent is unknown there (the
// root would be the file's own folder, perhaps a home folder), so no plans
// are read around it. Inside a repository the same file is linted with the
// plan that names it (testdata/e2e/sql_changed_alone.txtar).
func TestContextNeedsRepository(t *testing.T) {
	for _, repo := range []bool{false, true} {
		dir := writeProject(t, map[string]string{
			"p.backfill.yaml": "bflint: 1\nid: bf_a\ntarget: analytics.fct_orders\nrange: {start: 2026-01-14, end: 2026-06-30, grain: day, partition_column: order_date}\nstaging:\n  relation: backfill_staging.fct_orders__bf_a\n  build: build.sql\n",
			"build.sql":       "CREATE TABLE backfill_staging.fct_orders__bf_a AS SELECT * FROM analytics.orders WHERE order_date BETWEEN DATE '2026-01-14' AND DATE '2026-07-31';\n",
		})
		if !repo {
			if err := os.Remove(filepath.Join(dir, ".git")); err != nil {
				t.Fatal(err)
			}
		}
		var stdout, stderr bytes.Buffer
		run([]string{"--now", "2026-11-30T09:00:00Z", "--no-color", filepath.Join(dir, "build.sql")}, &stdout, &stderr)
		if got := strings.Contains(stdout.String(), "BF104"); got != repo {
			t.Errorf("in a repository %v: BF104 reported %v, want %v\n%s%s", repo, got, repo, stdout.String(), stderr.String())
		}
	}
}
