package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An output over a file the run reads on its way (a table's metadata.yaml
// and query, a manifest found beside a project) is refused with exit 2
// and the file is kept, as an output over a plan or SQL file given is:
// these were replaced by the report or the brief.
func TestOutputsNeverReplaceWhatTheRunRead(t *testing.T) {
	tree := copyProject(t, filepath.Join("..", "..", "testdata", "rules", "BF112"))
	table := filepath.Join(tree, "sql", "shop-prod", "subscriptions_derived", "trial_starts_v1")
	dbt := copyProject(t, filepath.Join("..", "..", "examples", "two_plans"))
	manifest := filepath.Join(dbt, "target", "manifest.json")
	for _, c := range []struct {
		args []string
		file string
	}{
		{[]string{"--now", "2026-03-02T09:00:00Z", "--format", "json=" + filepath.Join(table, "metadata.yaml"), tree}, filepath.Join(table, "metadata.yaml")},
		{[]string{"--now", "2026-03-02T09:00:00Z", "--format", "sarif=" + filepath.Join(table, "query.sql"), filepath.Join(table, "backfill.yaml")}, filepath.Join(table, "query.sql")},
		{[]string{"brief", "--now", "2026-03-02T09:00:00Z", "--output", filepath.Join(table, "metadata.yaml"), filepath.Join(table, "backfill.yaml")}, filepath.Join(table, "metadata.yaml")},
		{[]string{"--now", examplesNow, "--format", "json=" + manifest, dbt}, manifest},
		// Twice: the second run reads the manifest's cached reading.
		{[]string{"--now", examplesNow, "--format", "json=" + manifest, dbt}, manifest},
	} {
		before, err := os.ReadFile(c.file)
		if err != nil {
			t.Fatal(err)
		}
		var stdout, stderr bytes.Buffer
		if code := run(c.args, &stdout, &stderr); code != exitUsage || !strings.Contains(stderr.String(), "a file this run reads") {
			t.Errorf("%v: exit %d, want 2 and a refusal:\n%s", c.args, code, clip(stderr.String()))
		}
		if after, _ := os.ReadFile(c.file); !bytes.Equal(before, after) {
			t.Errorf("%v replaced %s", c.args, c.file)
		}
	}
}
