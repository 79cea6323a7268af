package main

import (
	"bytes"
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
	if strings.Contains(out, "wide.sql") {
		t.Errorf("the 400,000-column select parses and should have no finding:\n%s", out)
	}
}
