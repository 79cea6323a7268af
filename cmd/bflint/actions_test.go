package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bflint/bflint/parser/manifest"
)

// TestMain clears GITHUB_ACTIONS so that, on a GitHub runner, the text
// output the other tests compare is not followed by annotations; the tests
// below set it themselves.
func TestMain(m *testing.M) {
	if os.Getenv(asBflintEnv) == "1" {
		os.Exit(supervised(os.Args[1:]))
	}
	os.Unsetenv("GITHUB_ACTIONS")
	// The CLI runs in process here: without this it would fill the user's
	// manifest cache. Tests of the cache set their own folder.
	os.Setenv(manifest.CacheDirEnv, "off")
	os.Exit(m.Run())
}

// actionsProject writes a project whose findings sort warning first (a.sql)
// and then twelve errors (b.sql), two past GitHub's per-step error limit.
func actionsProject(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"a.sql": "DELETE FROM analytics.x WHERE d = 1;\nINSERT INTO analytics.x SELECT 1;\n",
	}
	var b strings.Builder
	for i := 1; i <= 12; i++ {
		fmt.Fprintf(&b, "INSERT INTO analytics.t%d SELECT * FROM s;\n", i)
	}
	files["b.sql"] = b.String()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestTextRunOnGitHubActionsAnnotates(t *testing.T) {
	dir := actionsProject(t)
	t.Setenv("GITHUB_ACTIONS", "true")
	var stdout, stderr bytes.Buffer
	if code := run([]string{dir, "--no-color"}, &stdout, &stderr); code != exitFindings {
		t.Fatalf("exit %d, want %d; stderr:\n%s", code, exitFindings, stderr.String())
	}
	out := stdout.String()
	text, annotations, ok := strings.Cut(out, "\n::")
	if !ok {
		t.Fatalf("no annotations after the text report:\n%s", out)
	}
	if !strings.Contains(text, "b.sql:12:13: error:") || !strings.Contains(text, "12 errors, 1 warning") {
		t.Errorf("the text report should still list every finding:\n%s", text)
	}
	lines := strings.Split(strings.TrimSuffix("::"+annotations, "\n"), "\n")
	if len(lines) != 12 {
		t.Fatalf("%d annotation lines, want 10 errors, 1 warning and the closing notice:\n%s", len(lines), strings.Join(lines, "\n"))
	}
	for i, l := range lines[:10] {
		if want := fmt.Sprintf("::error file=b.sql,line=%d,col=13,", i+1); !strings.HasPrefix(l, want) {
			t.Errorf("annotation %d = %s, want prefix %s", i, l, want)
		}
	}
	if !strings.HasPrefix(lines[10], "::warning file=a.sql,line=1,col=1,title=BF204 ") {
		t.Errorf("the warning should follow the errors: %s", lines[10])
	}
	if want := "::notice::bflint: 2 more finding(s) not annotated"; !strings.HasPrefix(lines[11], want) {
		t.Errorf("closing line = %s, want prefix %s", lines[11], want)
	}
}

// Outside Actions, or when the github format is asked for explicitly, the
// text report stands alone: annotations never appear twice.
func TestNoExtraAnnotations(t *testing.T) {
	dir := actionsProject(t)
	tests := []struct {
		name, env string
		args      []string
		want      int // lines that start a workflow command
	}{
		{"not on Actions", "", []string{dir, "--no-color"}, 0},
		{"another CI", "false", []string{dir, "--no-color"}, 0},
		{"github format asked for", "true", []string{dir, "--format", "github"}, 13},
		{"github format to a file", "true", []string{dir, "--no-color", "--format", "text", "--format", "github=" + filepath.Join(t.TempDir(), "gh.txt")}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("GITHUB_ACTIONS", tt.env)
			var stdout, stderr bytes.Buffer
			if code := run(tt.args, &stdout, &stderr); code != exitFindings {
				t.Fatalf("exit %d; stderr:\n%s", code, stderr.String())
			}
			n := 0
			for _, l := range strings.Split(stdout.String(), "\n") {
				if strings.HasPrefix(l, "::") {
					n++
				}
			}
			if n != tt.want {
				t.Errorf("%d workflow commands on stdout, want %d:\n%s", n, tt.want, stdout.String())
			}
		})
	}
}

func TestRdjsonlFormat(t *testing.T) {
	dir := actionsProject(t)
	var stdout, stderr bytes.Buffer
	if code := run([]string{dir, "--format", "rdjsonl"}, &stdout, &stderr); code != exitFindings {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr.String())
	}
	lines := strings.Split(strings.TrimSuffix(stdout.String(), "\n"), "\n")
	if len(lines) != 13 {
		t.Fatalf("%d lines, want one per finding (13):\n%s", len(lines), stdout.String())
	}
	if want := `{"message":"DELETE from \"analytics.x\"`; !strings.HasPrefix(lines[0], want) {
		t.Errorf("first line = %s, want prefix %s", lines[0], want)
	}
}
