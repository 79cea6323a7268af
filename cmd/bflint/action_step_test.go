package main_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestActionLintStep runs the action's "Run bflint" step as a runner would,
// with the built binary and the runner's files: the job summary holds the
// findings table and then each plan's brief, and the brief file is an
// output. GitHub itself cannot be run here; this is its step's shell.
func TestActionLintStep(t *testing.T) {
	outputs, summary, work := runActionLintStep(t, "examples/two_plans", "--now 2026-11-30 --fail-on warning")
	read := func(path string) string {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	if !strings.Contains(outputs, "exit-code=0\n") || !strings.Contains(outputs, "brief-file="+filepath.Join(work, "brief.md")+"\n") {
		t.Errorf("outputs:\n%s", outputs)
	}
	lint, briefs, ok := strings.Cut(summary, "\n# Backfill brief: `warehouse.analytics.fct_orders`")
	if !ok || !strings.HasPrefix(lint, "### bflint: no findings") || !strings.Contains(briefs, "\n# Backfill brief: `warehouse.analytics.revenue_daily`") {
		t.Errorf("job summary, want the lint summary then both briefs:\n%s", summary)
	}
	if brief := read(filepath.Join(work, "brief.md")); !strings.Contains(summary, brief) {
		t.Error("the brief file is not what the summary shows")
	}
}

// TestActionLintStepFreshClone runs the step on a dbt project as the
// action's checkout has it: dbt's target/ is not committed, so there is no
// manifest, and the project's own files are the lineage. The plan leaves
// out a mart, which fails the check.
func TestActionLintStepFreshClone(t *testing.T) {
	outputs, summary, _ := runActionLintStep(t, "testdata/rules/BF801/fresh_clone", "--now 2026-11-30")
	if !strings.Contains(outputs, "exit-code=1\n") {
		t.Errorf("outputs, want exit-code=1:\n%s", outputs)
	}
	if !strings.Contains(summary, "BF801") || !strings.Contains(summary, "model.shop.mart_revenue") || !strings.Contains(summary, "read from project files") {
		t.Errorf("job summary, want BF801 for model.shop.mart_revenue and the lineage read from the project's files:\n%s", summary)
	}
}

// runActionLintStep runs the action's lint step on paths with args, and
// returns what it wrote to GITHUB_OUTPUT and the job summary, and its
// temporary folder.
func runActionLintStep(t *testing.T, paths, args string) (outputs, summary, work string) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds bflint")
	}
	var action struct {
		Runs struct {
			Steps []struct {
				ID  string `yaml:"id"`
				Run string `yaml:"run"`
			} `yaml:"steps"`
		} `yaml:"runs"`
	}
	loadIntegrationYAML(t, "action.yml", &action)
	script := ""
	for _, s := range action.Runs.Steps {
		if s.ID == "lint" {
			script = s.Run
		}
	}
	if script == "" {
		t.Fatal("action.yml has no step with id lint")
	}
	work = t.TempDir()
	bin := filepath.Join(work, "bin")
	build := exec.Command("go", "build", "-o", filepath.Join(bin, "bflint"), ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	files := map[string]string{}
	for _, name := range []string{"GITHUB_OUTPUT", "GITHUB_STEP_SUMMARY", "GITHUB_PATH"} {
		files[name] = filepath.Join(work, strings.ToLower(name))
	}
	step := exec.Command("bash", "-c", script)
	step.Dir = filepath.Join(integrationRoot)
	step.Env = append(os.Environ(),
		"BFLINT_BIN="+bin, "BFLINT_PATHS="+paths, "BFLINT_ARGS="+args,
		"BFLINT_SARIF="+filepath.Join(work, "bflint.sarif"), "BFLINT_JOB_SUMMARY=true",
		"BFLINT_BRIEF=true", "BFLINT_BRIEF_FILE="+filepath.Join(work, "brief.md"),
		"RUNNER_TEMP="+work, "GITHUB_ACTIONS=true", "BFLINT_CACHE_DIR=off",
		"GITHUB_OUTPUT="+files["GITHUB_OUTPUT"], "GITHUB_STEP_SUMMARY="+files["GITHUB_STEP_SUMMARY"], "GITHUB_PATH="+files["GITHUB_PATH"])
	if out, err := step.CombinedOutput(); err != nil {
		t.Fatalf("the step failed: %v\n%s", err, out)
	}
	read := func(path string) string {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	return read(files["GITHUB_OUTPUT"]), read(files["GITHUB_STEP_SUMMARY"]), work
}
