package main

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/bflint/bflint/rules/all"
)

const examplesNow = "2026-11-30T09:00:00Z"

// TestExamples keeps the shipped examples and the README honest: each
// example folder is linted as its own run, as the README does; the good
// plan and the two-plan correction are clean, the broken plan fails with
// exactly the findings of its golden file, and every line of output the
// README quotes is real.
func TestExamples(t *testing.T) {
	t.Chdir("../..")
	for _, clean := range []string{"examples/dbt_microbatch/", "examples/good/", "examples/two_plans/"} {
		var stdout, stderr bytes.Buffer
		if code := run([]string{"--now", examplesNow, "--no-color", clean}, &stdout, &stderr); code != exitClean {
			t.Errorf("%s: exit %d, want 0\n%s%s", clean, code, stdout.String(), stderr.String())
		}
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"--now", examplesNow, "--no-color", "examples/broken/"}, &stdout, &stderr); code != exitFindings {
		t.Fatalf("examples/broken: exit %d, want 1\n%s", code, stderr.String())
	}
	const golden = "testdata/golden/examples.txt"
	if *updateE2E {
		if err := os.WriteFile(golden, stdout.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(stdout.Bytes(), want) {
		t.Errorf("bflint over examples/broken differs from %s (run with -update to accept):\n%s", golden, stdout.String())
	}
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	quoted := between(string(readme), "```text\nexamples/", "```")
	if quoted == "" {
		t.Fatal("README.md quotes no output of bflint over the examples")
	}
	for _, line := range strings.Split("examples/"+quoted, "\n") {
		if line != "" && line != "..." && !strings.Contains(stdout.String(), line) {
			t.Errorf("README.md quotes a line bflint does not print:\n%s", line)
		}
	}
}

// between returns the text after the first start marker up to end.
func between(s, start, end string) string {
	_, after, ok := strings.Cut(s, start)
	if !ok {
		return ""
	}
	inner, _, _ := strings.Cut(after, end)
	return inner
}

// TestSchemaCommand prints the plan schema editors use, byte for byte.
func TestSchemaCommand(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run([]string{"schema"}, &stdout, &stderr); code != exitClean {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	want, err := os.ReadFile("../../parser/plan/schema.json")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(stdout.Bytes(), want) {
		t.Error("bflint schema does not print parser/plan/schema.json")
	}
}

// TestRulesJSON lists exactly the registered rules, in code order.
func TestRulesJSON(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run([]string{"rules", "--format", "json"}, &stdout, &stderr); code != exitClean {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var got []struct {
		Code, Name, Severity, Title string
		Standalone                  string `json:"standalone_severity"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	reg := all.Registry().All()
	if len(got) != len(reg) {
		t.Fatalf("listed %d rules, registry has %d", len(got), len(reg))
	}
	for i, r := range reg {
		if g := got[i]; g.Code != r.Code || g.Name != r.Name || g.Severity != r.Severity.String() || g.Title != r.Doc.Title {
			t.Errorf("entry %d = %+v, want %s %s %s %q", i, g, r.Code, r.Name, r.Severity, r.Doc.Title)
		}
	}
	// BF002 is an error in a plan's SQL and a warning in a file no plan
	// names: the listing says both.
	if got[1].Code != "BF002" || got[1].Standalone != "warning" || got[0].Standalone != "" {
		t.Errorf("standalone severities: BF001 %q, %s %q; want BF002 warning and none for BF001", got[0].Standalone, got[1].Code, got[1].Standalone)
	}
}

// TestReadmeFirstRun holds the README's first run to what it quotes: one
// verdict line per example folder, from -q, and nothing else.
func TestReadmeFirstRun(t *testing.T) {
	t.Chdir("../..")
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	section := between(string(readme), "## First run", "\n## ")
	command := between(section, "```sh\n", "\n")
	if !strings.Contains(command, `./bflint -q --now 2026-11-30 "$example"`) || !strings.Contains(command, "for example in examples/*/") {
		t.Fatalf("the README's first run is not the loop this test replays: %s", command)
	}
	quoted := between(section, "```console\n", "```")
	entries, err := os.ReadDir("examples")
	if err != nil {
		t.Fatal(err)
	}
	var got strings.Builder
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		var stdout, stderr bytes.Buffer
		run([]string{"-q", "--now", "2026-11-30", "examples/" + e.Name() + "/"}, &stdout, &stderr)
		got.WriteString(stdout.String() + stderr.String())
	}
	if got.String() != quoted {
		t.Errorf("the first run prints:\n%s\nthe README quotes:\n%s", got.String(), quoted)
	}
}
