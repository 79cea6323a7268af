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
		// A model's statement counts once, whatever its is_incremental()
		// branches; a body that is an unread macro call is not read.
		"models/m.sql":      "{{ config(materialized='incremental') }}\nselect a from {{ ref('x') }}\n{% if is_incremental() %} where a > (select max(a) from {{ this }}){% endif %}\n",
		"models/opaque.sql": "{{ config(materialized='table') }}\n{{ some_package.build_it('a') }}\n",
	}
	t.Chdir(writeProject(t, files))
	var stdout, stderr bytes.Buffer
	if code := run([]string{"--stats", "--format", "json", "--fail-on", "never", "."}, &stdout, &stderr); code != exitClean {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var doc map[string]any
	if err := json.Unmarshal(stdout.Bytes(), &doc); err != nil {
		t.Fatalf("stdout is not the JSON report alone: %v\n%s", err, stdout.String())
	}
	want := []string{
		"bflint: SQL coverage: 6 statements in 4 files: 3 parsed (50.0%), 1 read from tokens (16.7%), 2 not read (33.3%)\n",
		"  dialect     files  statements   parsed  from tokens  not read\n",
		"  bigquery        1           3    66.7%        33.3%      0.0%\n",
		"  dbt             2           2    50.0%         0.0%     50.0%\n",
		"  postgres        1           1     0.0%         0.0%    100.0%\n",
		"  statements read from tokens are checked by BF102, BF112, BF201, BF204, BF302, BF504, BF701-BF704 only; what stopped the parser, most often first:\n",
		"       1  \"ASOF\"\n",
		"       1  \"THEN\"\n",
		"  files with the most statements not parsed (--format json lists each under coverage.unparsed):\n",
		"       1  bq.sql (1 from tokens, 0 not read)\n",
		"       1  models/opaque.sql (0 from tokens, 1 not read)\n",
		"       1  pg.sql (0 from tokens, 1 not read)\n",
	}
	if got := stderr.String(); got != strings.Join(want, "") {
		t.Errorf("stderr:\n%s\nwant:\n%s", got, strings.Join(want, ""))
	}
	unparsed, _ := json.Marshal(doc["coverage"].(map[string]any)["unparsed"])
	wantUnparsed := `[{"column":31,"construct":"\"ASOF\"","file":"bq.sql","line":3,"read":"tokens","statements":1},` +
		`{"column":1,"construct":"a call to some_package.build_it, whose SQL bflint did not read","file":"models/opaque.sql","line":2,"read":"none","statements":1},` +
		`{"column":18,"construct":"\"THEN\"","file":"pg.sql","line":1,"read":"none","statements":1}]`
	if string(unparsed) != wantUnparsed {
		t.Errorf("coverage.unparsed = %s\nwant %s", unparsed, wantUnparsed)
	}

	stdout.Reset()
	stderr.Reset()
	run([]string{"--format", "json", "--fail-on", "never", "."}, &stdout, &stderr)
	if stderr.Len() > 0 {
		t.Errorf("without --stats, stderr holds %q", stderr.String())
	}
}

// The dbt project files bflint could not read as dbt would are listed in
// --stats and in the JSON report's coverage, never dropped.
func TestProjectProblemsAreListed(t *testing.T) {
	dir := writeProject(t, map[string]string{
		"dbt_project.yml":        "name: shop\nmacro-paths: [\"macros\", \"../../../..\"]\n",
		"models/orders.sql":      "select 1 as x",
		"models/staging/bad.yml": "version: 2\nmodels:\n  - name: stg\n    config: {materialized: [unclosed\n",
		"models/staging/stg.sql": "select 2 as x",
		"macros/cents.sql":       "{% macro cents(x) %}{{ x }} * 100{% endmacro %}",
	})
	var stdout, stderr bytes.Buffer
	if code := run([]string{"--stats", "--format", "json", "--fail-on", "never", dir}, &stdout, &stderr); code != exitClean {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	for _, want := range []string{
		"dbt project files not read as dbt reads them, their config and macros unknown to the rules: 2\n",
		`dbt_project.yml:2: macro-paths names "../../../..", outside `,
		"models/staging/bad.yml: is not valid YAML",
	} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("--stats does not say %q:\n%s", want, stderr.String())
		}
	}
	var doc struct {
		Coverage struct {
			ProjectProblems []struct{ File string } `json:"project_problems"`
		} `json:"coverage"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if got := doc.Coverage.ProjectProblems; len(got) != 2 || got[0].File != "dbt_project.yml" || got[1].File != "models/staging/bad.yml" {
		t.Errorf("coverage.project_problems = %+v", got)
	}
}
