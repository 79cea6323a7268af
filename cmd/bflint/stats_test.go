package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestStats: --stats counts statements per dialect on stderr, after the
// report, and leaves a machine-read report on stdout untouched.
func TestStats(t *testing.T) {
	files := map[string]string{
		// Three statements: two parse, one (ASOF JOIN) is read from tokens.
		"bq.sql": "SELECT * FROM `proj.ds.orders` WHERE order_date = '2026-01-14';\n" +
			"SELECT 1;\n" +
			"SELECT t.id FROM raw.trades t ASOF JOIN raw.quotes q MATCH_CONDITION (t.ts >= q.ts) ON t.s = q.s;\n",
		// One statement nothing can be read from.
		"pg.sql": "SELECT CASE WHEN THEN 1 END;\n",
	}
	dir := writeProject(t, files)
	var stdout, stderr bytes.Buffer
	if code := run([]string{"--stats", "--format", "json", "--fail-on", "never", dir}, &stdout, &stderr); code != exitClean {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var doc map[string]any
	if err := json.Unmarshal(stdout.Bytes(), &doc); err != nil {
		t.Fatalf("stdout is not the JSON report alone: %v\n%s", err, stdout.String())
	}
	want := []string{
		"bflint: SQL coverage: 4 statements in 2 files: 2 parsed (50.0%), 1 read from tokens (25.0%), 1 not read (25.0%)\n",
		"  dialect     files  statements   parsed  from tokens  not read\n",
		"  bigquery        1           3    66.7%        33.3%      0.0%\n",
		"  postgres        1           1     0.0%         0.0%    100.0%\n",
		"  statements read from tokens are checked by BF102, BF201, BF204, BF302, BF504, BF701-BF704 only; what stopped the parser, most often first:\n",
		"       1  \"ASOF\"\n",
		"       1  \"THEN\"\n",
	}
	if got := stderr.String(); got != strings.Join(want, "") {
		t.Errorf("stderr:\n%s\nwant:\n%s", got, strings.Join(want, ""))
	}

	stdout.Reset()
	stderr.Reset()
	run([]string{"--format", "json", "--fail-on", "never", dir}, &stdout, &stderr)
	if stderr.Len() > 0 {
		t.Errorf("without --stats, stderr holds %q", stderr.String())
	}
}
