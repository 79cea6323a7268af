package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestSQLPositions checks line and column of SQL findings, through the
// whole CLI, in files whose text moves byte offsets away from what a naive
// count would give: CRLF line endings, tabs, multi-byte characters and dbt
// Jinja before the statement.
func TestSQLPositions(t *testing.T) {
	files := map[string]string{
		"crlf.sql":      "-- Größe\r\nSELECT 1;\r\n\r\nSELECT 'ü' WHERE WHERE x;\r\n",
		"tabs.sql":      "\t-- indented\n\tSELECT\tamount,\t'€'\tWHERE\tWHERE;\n",
		"jinja.sql":     "{{ config(materialized='table') }}\n{% set cols = ['a', 'b'] %}\nselect {{ cols | join(', ') }}, 'ñ' where where\n",
		"multibyte.sql": "SELECT '日本語' AS name, amount WHERE WHERE;\n",
	}
	// No statement names a relation, so nothing is read from its tokens
	// either, and in a standalone file the finding is a warning.
	want := []string{
		// byte columns, 1-based: the second WHERE in each file
		"crlf.sql:4:19: warning: cannot parse this statement at \"WHERE\": syntax error at or near \"WHERE\"",
		"jinja.sql:3:44: warning: cannot parse this statement at \"where\": syntax error at or near \"where\"",
		"multibyte.sql:1:42: warning: cannot parse this statement at \"WHERE\": syntax error at or near \"WHERE\"",
		"tabs.sql:2:29: warning: cannot parse this statement at \"WHERE\": syntax error at or near \"WHERE\"",
	}
	t.Chdir(writeProject(t, files))
	var stdout, stderr bytes.Buffer
	if code := run([]string{"--no-color", "--fail-on", "warning", "."}, &stdout, &stderr); code != exitFindings {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var got []string
	for _, line := range strings.Split(stdout.String(), "\n") {
		if strings.Contains(line, ": warning: ") {
			got = append(got, strings.SplitN(line, "; nothing it writes", 2)[0])
		}
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got:\n%s\nwant:\n%s\n\nfull output:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"), stdout.String())
	}
}
