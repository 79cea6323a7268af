package main_test

// Checks the files that wire bflint into other tools (.pre-commit-hooks.yaml,
// action.yml, .github/workflows/*.yml): they parse, and they carry the keys
// pre-commit and GitHub require. The real pre-commit runs the hook in
// testdata/precommit/run.sh (from .ci/run); GitHub cannot be run here.

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"
)

const integrationRoot = "../.."

func loadIntegrationYAML(t *testing.T, name string, into any) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(integrationRoot, name))
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(data, into); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

func TestIntegrationFilesPreCommitHook(t *testing.T) {
	var hooks []map[string]any
	loadIntegrationYAML(t, ".pre-commit-hooks.yaml", &hooks)
	var hook, system map[string]any
	for _, h := range hooks {
		for _, key := range []string{"id", "name", "entry", "language"} {
			if s, _ := h[key].(string); s == "" {
				t.Errorf("hook %v: %q must be a non-empty string (pre-commit requires it)", h["id"], key)
			}
		}
		switch h["id"] {
		case "bflint":
			hook = h
		case "bflint-system":
			system = h
		}
	}
	if hook == nil || system == nil {
		t.Fatal(`want hooks with ids "bflint" and "bflint-system"`)
	}
	// The system hook is the same hook run from a binary on PATH.
	if system["entry"] != "bflint" || system["language"] != "system" {
		t.Errorf("bflint-system: entry %v, language %v; want bflint, system", system["entry"], system["language"])
	}
	for _, key := range []string{"files", "types", "require_serial", "pass_filenames"} {
		if fmt.Sprint(system[key]) != fmt.Sprint(hook[key]) {
			t.Errorf("bflint-system %s = %v, bflint has %v: the two hooks must select the same files", key, system[key], hook[key])
		}
	}
	if hook["entry"] != "bflint" || hook["language"] != "golang" {
		t.Errorf("entry %v, language %v; want bflint, golang", hook["entry"], hook["language"])
	}
	if _, ok := hook["language_version"]; ok {
		t.Error("language_version makes pre-commit download a Go release; the hook must use the machine's Go")
	}
	if hook["require_serial"] != true {
		t.Error("require_serial must be true: one report per commit rather than one per batch of files")
	}
	if v, ok := hook["pass_filenames"]; ok && v != true {
		t.Error("pass_filenames must stay true: bflint lints the files pre-commit selects")
	}
	files, _ := hook["files"].(string)
	re, err := regexp.Compile(files)
	if err != nil {
		t.Fatalf("files %q: %v", files, err)
	}
	for name, want := range map[string]bool{
		"fct_orders.backfill.yaml":      true,
		"plans/fct_orders.backfill.yml": true,
		"sql/build.sql":                 true,
		"dbt_project.yml":               false,
		".bflint.yaml":                  false,
		"models/x.sql.j2":               false,
		"target/manifest.json":          false,
	} {
		if re.MatchString(name) != want {
			t.Errorf("files %q matches %s: %v, want %v", files, name, !want, want)
		}
	}
}

// expressionRefs lists the names after prefix ("inputs.", "steps.") inside
// ${{ }} expressions and if: conditions of text.
func expressionRefs(text, prefix string) []string {
	re := regexp.MustCompile(regexp.QuoteMeta(prefix) + `([A-Za-z_][A-Za-z0-9_-]*)`)
	var names []string
	for _, m := range re.FindAllStringSubmatch(text, -1) {
		names = append(names, m[1])
	}
	return names
}

func TestIntegrationFilesAction(t *testing.T) {
	type step struct {
		ID    string            `yaml:"id"`
		Name  string            `yaml:"name"`
		If    string            `yaml:"if"`
		Uses  string            `yaml:"uses"`
		Run   string            `yaml:"run"`
		Shell string            `yaml:"shell"`
		With  map[string]string `yaml:"with"`
		Env   map[string]string `yaml:"env"`
	}
	var action struct {
		Name        string `yaml:"name"`
		Description string `yaml:"description"`
		Inputs      map[string]struct {
			Description string  `yaml:"description"`
			Default     *string `yaml:"default"`
		} `yaml:"inputs"`
		Outputs map[string]struct {
			Value string `yaml:"value"`
		} `yaml:"outputs"`
		Runs struct {
			Using string `yaml:"using"`
			Steps []step `yaml:"steps"`
		} `yaml:"runs"`
	}
	loadIntegrationYAML(t, "action.yml", &action)
	if action.Name == "" || action.Description == "" {
		t.Error("action.yml needs name and description")
	}
	if action.Runs.Using != "composite" {
		t.Errorf("runs.using = %q, want composite", action.Runs.Using)
	}
	for name, want := range map[string]string{"path": ".", "args": "", "sarif-file": "bflint.sarif", "category": "bflint", "version": "", "upload-sarif": "false", "job-summary": "true"} {
		in, ok := action.Inputs[name]
		switch {
		case !ok:
			t.Errorf("input %q missing", name)
		case in.Description == "":
			t.Errorf("input %q has no description", name)
		case in.Default == nil || *in.Default != want:
			t.Errorf("input %q default %v, want %q", name, in.Default, want)
		}
	}

	data, _ := os.ReadFile(filepath.Join(integrationRoot, "action.yml"))
	for _, name := range expressionRefs(string(data), "inputs.") {
		if _, ok := action.Inputs[name]; !ok {
			t.Errorf("action.yml refers to undeclared input %q", name)
		}
	}
	ids := map[string]bool{}
	var setupGo, upload, runsBflint bool
	for i, s := range action.Runs.Steps {
		if (s.Uses == "") == (s.Run == "") {
			t.Errorf("step %d (%s): exactly one of uses and run", i, s.Name)
		}
		if s.Run != "" && s.Shell == "" {
			t.Errorf("step %d (%s): a composite run step needs shell", i, s.Name)
		}
		if s.ID != "" {
			ids[s.ID] = true
		}
		switch {
		case strings.HasPrefix(s.Uses, "actions/setup-go@"):
			setupGo = true
			if !strings.Contains(s.With["go-version-file"], "github.action_path") {
				t.Errorf("setup-go must read the Go version from the action's own go.mod, got %q", s.With["go-version-file"])
			}
		case strings.HasPrefix(s.Uses, "github/codeql-action/upload-sarif@"):
			upload = true
			if s.With["category"] == "" || s.With["sarif_file"] == "" {
				t.Error("upload-sarif needs sarif_file and category")
			}
			if !strings.Contains(s.If, "always()") {
				t.Error("upload-sarif must run when bflint found something: if: always()")
			}
		case strings.Contains(s.Run, "--format text") && strings.Contains(s.Run, "sarif=") && strings.Contains(s.Run, "GITHUB_STEP_SUMMARY"):
			runsBflint = true
		}
	}
	if !setupGo || !upload || !runsBflint {
		t.Errorf("steps: setup-go %v, bflint with SARIF %v, upload-sarif %v; want all", setupGo, runsBflint, upload)
	}
	for _, id := range expressionRefs(string(data), "steps.") {
		if !ids[id] {
			t.Errorf("action.yml refers to step %q, which has no such id", id)
		}
	}
	last := action.Runs.Steps[len(action.Runs.Steps)-1]
	if !strings.Contains(last.If, "always()") || !strings.Contains(last.Run, "exit") {
		t.Error("the last step must always run and exit with bflint's status")
	}
}

func TestIntegrationFilesWorkflows(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join(integrationRoot, ".github", "workflows", "*.yml"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no workflows: %v", err)
	}
	dogfood := false
	for _, p := range paths {
		name, _ := filepath.Rel(integrationRoot, p)
		var wf struct {
			Name string `yaml:"name"`
			On   any    `yaml:"on"`
			Jobs map[string]struct {
				RunsOn any              `yaml:"runs-on"`
				Steps  []map[string]any `yaml:"steps"`
			} `yaml:"jobs"`
		}
		loadIntegrationYAML(t, name, &wf)
		if wf.On == nil || len(wf.Jobs) == 0 {
			t.Errorf("%s: needs on and jobs", name)
		}
		for job, j := range wf.Jobs {
			if j.RunsOn == nil || len(j.Steps) == 0 {
				t.Errorf("%s: job %s needs runs-on and steps", name, job)
			}
			for i, s := range j.Steps {
				_, uses := s["uses"]
				_, run := s["run"]
				if uses == run {
					t.Errorf("%s: job %s step %d: exactly one of uses and run", name, job, i)
				}
				if s["uses"] == "./" {
					dogfood = true
				}
			}
		}
	}
	if !dogfood {
		t.Error("no workflow uses the action itself (uses: ./)")
	}
}
