package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

// TestHostileSQL runs SQL that breaks parsers through the whole CLI: each
// file gets a precise BF002 (or no finding, for the wide select that does
// parse), nothing crashes, and a plan beside them is still linted.
func TestHostileSQL(t *testing.T) {
	if testing.Short() {
		t.Skip("builds inputs of several megabytes")
	}
	files := map[string]string{
		"unparseable.sql": "SELECT 1;\nSELEC 2;\n",
		"string.sql":      "SELECT 'never closed FROM t;\n",
		"comment.sql":     "SELECT 1; /* never closed\n",
		"jinja.sql":       "select 1 {% if x %} from t\n",
		"parens.sql":      "SELECT " + strings.Repeat("(", 20000) + "1" + strings.Repeat(")", 20000) + ";\n",
		"subqueries.sql":  "SELECT * FROM " + strings.Repeat("(SELECT * FROM ", 3000) + "t" + strings.Repeat(") s", 3000) + ";\n",
		"nul.sql":         "SELECT 1;\nSELECT '\x00';\n",
		"utf8.sql":        "SELECT 'caf\xe9';\n",
		"wide.sql":        "SELECT " + strings.Repeat("c, ", 400000) + "c FROM t;\n",
		// Chains the C parser builds one node inside another: 30,000
		// levels overflowed its stack and killed the whole run.
		"sum.sql":         "SELECT " + strings.Repeat("1 + ", 30000) + "1;\n",
		"concat.sql":      "SELECT " + strings.Repeat("'a' || ", 30000) + "'a';\n",
		"unions.sql":      strings.Repeat("SELECT 1 UNION ALL ", 50000) + "SELECT 1;\n",
		"models/m.sql":    "select " + strings.Repeat(`{{ var("x") }} + `, 30000) + "1 as total from {{ ref('t') }}\n",
		"siblings.sql":    "SELECT " + strings.Repeat("a + 1, ", 30000) + "a + 1 FROM t;\n",
		"dbt_project.yml": "name: shop\n",
		"p.backfill.yaml": "bflint: 1\nid: bf_h\ntarget: analytics.t\n",
		".bflint.yaml":    "rules:\n  enable: [BF002, BF601]\n  disable: [BF101, BF205, BF301, BF401, BF501, BF503, BF901, BF902]\n",
	}
	want := map[string]string{
		"unparseable.sql": `unparseable.sql:2:1: warning: cannot parse this statement at "SELEC": syntax error at or near "SELEC"`,
		"string.sql":      `string.sql:1:8: warning: cannot read the SQL from here to the end of the file: unterminated string`,
		"comment.sql":     `comment.sql:1:11: warning: cannot read the SQL from here to the end of the file: unterminated /* comment`,
		"jinja.sql":       `jinja.sql:1:10: warning: cannot read the template: Jinja {% if %} is never closed with {% endif %}`,
		"parens.sql":      `parens.sql:1:508: warning: cannot parse this statement at "(": statement nests parentheses more than 500 deep`,
		"subqueries.sql":  `subqueries.sql:1:7515: warning: cannot parse this statement at "(": statement nests parentheses more than 500 deep`,
		"nul.sql":         `nul.sql:2:9: warning: cannot read the SQL from here to the end of the file: NUL byte in the file`,
		// Its tokens still show it reads t.
		"utf8.sql":        `utf8.sql:1:12: warning: cannot parse this statement at "\xe9": invalid UTF-8 in the statement`,
		"p.backfill.yaml": `p.backfill.yaml:1:1: error: plan "bf_h" has no rollback section`,
		"sum.sql":         `sum.sql:1:8010: warning: cannot parse this statement at "+": statement nests more than 2000 operators and set operations inside one another`,
		"concat.sql":      `concat.sql:1:14012: warning: cannot parse this statement at "||"`,
		"unions.sql":      `unions.sql:1:38010: warning: cannot parse this statement at "UNION"`,
	}
	dir := writeProject(t, files)
	var stdout, stderr bytes.Buffer
	if code := run([]string{"--no-color", dir}, &stdout, &stderr); code != exitFindings {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	out := stdout.String()
	for name, line := range want {
		if !strings.Contains(out, line) {
			t.Errorf("%s: no finding %q", name, line)
		}
	}
	// The model is not parsed either, but what it reads is read from its
	// tokens: coverage, not a finding.
	stdout.Reset()
	run([]string{"--no-color", filepath.Join(dir, "models", "m.sql")}, &stdout, &stderr)
	if !strings.Contains(stdout.String(), "1 statement: 0.0% parsed, 100.0% read from tokens") {
		t.Errorf("the model of 30,000 operators is not read from its tokens:\n%s", stdout.String())
	}
	for _, name := range []string{"wide.sql", "siblings.sql", "models/m.sql"} {
		if strings.Contains(out, name) {
			t.Errorf("%s parses and should have no finding:\n%s", name, out)
		}
	}
}
