package sarif

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bflint/bflint/internal/testcorpus"
	"github.com/bflint/bflint/reporters/internal/reportertest"
	"github.com/bflint/bflint/rules"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// The SARIF schemas are OASIS files, kept verbatim under testdata/thirdparty
// with their terms; they are not under bflint's licence.
var schemaDir = testcorpus.Path("sarif")

// goldenRoot is a made-up project root: the golden file must not depend on
// the machine the test runs on.
const goldenRoot = "/home/runner/work/demo/demo"

func render(t *testing.T, res *rules.Result, opts Options) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, res, opts); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestGolden(t *testing.T) {
	out := render(t, reportertest.Result(), Options{ToolVersion: "1.0.0-test", SrcRoot: goldenRoot})
	reportertest.Golden(t, "report.sarif", out, *update)
}

// loadSchema compiles a SARIF schema file under the id it declares (draft-04
// "id" or draft-07 "$id"), so its internal references resolve locally and
// nothing is fetched. A missing file fails the test: skipping would let an
// invalid log through unnoticed.
func loadSchema(t *testing.T, file string) *jsonschema.Schema {
	t.Helper()
	path := filepath.Join(schemaDir, file)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("SARIF schema %s is missing: testdata/thirdparty/sarif is part of the repository", path)
	}
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s is not JSON: %v", path, err)
	}
	obj, _ := doc.(map[string]any)
	id, _ := obj["$id"].(string)
	if id == "" {
		id, _ = obj["id"].(string)
	}
	if id == "" {
		t.Fatalf("%s declares no id", path)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(id, doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile(id)
	if err != nil {
		t.Fatalf("compile %s: %v", path, err)
	}
	return sch
}

func TestOutputMatchesSchema(t *testing.T) {
	results := map[string][]byte{
		"fixture with root": render(t, reportertest.Result(), Options{ToolVersion: "1.0.0", SrcRoot: goldenRoot}),
		"fixture no root":   render(t, reportertest.Result(), Options{}),
		"empty":             render(t, &rules.Result{Fset: token.NewFileSet(), Rules: []*rules.Rule{reportertest.BF601}}, Options{}),
	}
	// The errata file is the OASIS standard; the draft-07 one is what
	// SchemaStore serves and editors validate with.
	for _, file := range []string{"sarif-schema-2.1.0.json", "sarif-schema-2.1.0.draft-07.json"} {
		sch := loadSchema(t, file)
		for name, out := range results {
			t.Run(file+"/"+name, func(t *testing.T) {
				inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(out))
				if err != nil {
					t.Fatalf("output is not JSON: %v", err)
				}
				if err := sch.Validate(inst); err != nil {
					t.Errorf("output does not match %s: %v", file, err)
				}
			})
		}
	}
}

// decode reads the log back into the writer's own types.
func decode(t *testing.T, out []byte) run {
	t.Helper()
	var log sarifLog
	if err := json.Unmarshal(out, &log); err != nil {
		t.Fatal(err)
	}
	if len(log.Runs) != 1 {
		t.Fatalf("%d runs, want 1", len(log.Runs))
	}
	return log.Runs[0]
}

func TestContent(t *testing.T) {
	res := reportertest.Result()
	r := decode(t, render(t, res, Options{}))

	if got, want := len(r.Tool.Driver.Rules), len(res.Rules); got != want {
		t.Errorf("%d rule descriptors, want one per known rule (%d)", got, want)
	}
	for _, res := range r.Results {
		if d := r.Tool.Driver.Rules[res.RuleIndex]; d.ID != res.RuleID {
			t.Errorf("result %s has ruleIndex %d, which is %s", res.RuleID, res.RuleIndex, d.ID)
		}
	}
	if len(r.Results) != len(res.Findings) {
		t.Fatalf("%d results, want every finding including suppressed ones (%d)", len(r.Results), len(res.Findings))
	}
	prints := rules.Fingerprints(res.Findings)
	var suppressed int
	for i, got := range r.Results {
		if got.PartialFingerprints[FingerprintKey] != prints[i] {
			t.Errorf("result %d: fingerprint %q, want the shared one %q", i, got.PartialFingerprints[FingerprintKey], prints[i])
		}
		if len(got.Suppressions) > 0 {
			suppressed++
			if s := got.Suppressions[0]; s.Kind != "inSource" || s.Justification != res.Findings[i].Suppressed.Justification {
				t.Errorf("suppression = %+v", s)
			}
		}
	}
	if suppressed != 1 {
		t.Errorf("%d suppressed results, want 1", suppressed)
	}

	// Line 3 of the build SQL: tab, two two-byte letters and a four-byte
	// emoji before the relation. Bytes give column 44; UTF-16 gives 40.
	bf201 := r.Results[2]
	if rg := bf201.Locations[0].PhysicalLocation.Region; bf201.RuleID != "BF201" || *rg != (region{StartLine: 3, StartColumn: 40, EndLine: 3, EndColumn: 60}) {
		t.Errorf("BF201 region = %+v, want 3:40-3:60 in UTF-16 units", *rg)
	}
	if rg := r.Results[1].Locations[0].PhysicalLocation.Region; rg.EndLine != 0 || rg.EndColumn != 0 {
		t.Errorf("finding without End has region end %d:%d", rg.EndLine, rg.EndColumn)
	}

	inv := r.Invocations[0]
	if inv.ExecutionSuccessful {
		t.Error("executionSuccessful is true despite an internal error")
	}
	if len(inv.ToolExecutionNotifications) != 1 {
		t.Fatalf("%d notifications, want 1", len(inv.ToolExecutionNotifications))
	}
	n := inv.ToolExecutionNotifications[0]
	if n.Level != "error" || n.AssociatedRule == nil || n.AssociatedRule.ID != "BF207" || r.Tool.Driver.Rules[n.AssociatedRule.Index].ID != "BF207" {
		t.Errorf("notification = %+v", n)
	}
	if base := r.OriginalURIBaseIDs[SrcRootID]; base.URI != "" || base.Description == nil {
		t.Errorf("without SrcRoot, %%SRCROOT%% = %+v, want a description and no uri", base)
	}
}

func TestCleanRunIsSuccessful(t *testing.T) {
	r := decode(t, render(t, &rules.Result{Fset: token.NewFileSet()}, Options{}))
	if !r.Invocations[0].ExecutionSuccessful {
		t.Error("executionSuccessful is false without internal errors")
	}
	if r.Results == nil {
		t.Error("results must be an empty array, not absent: absent means the tool did not run")
	}
}

func TestFindingOfUnlistedRule(t *testing.T) {
	res := reportertest.Result()
	res.Rules = res.Rules[:1] // only BF002
	r := decode(t, render(t, res, Options{}))
	for _, got := range r.Results {
		if d := r.Tool.Driver.Rules[got.RuleIndex]; d.ID != got.RuleID {
			t.Errorf("result %s points at descriptor %s", got.RuleID, d.ID)
		}
	}
}

func TestSrcRoot(t *testing.T) {
	tests := []struct {
		root, want string
	}{
		{"/home/ci/repo", "file:///home/ci/repo/"},
		{"/home/ci/repo/", "file:///home/ci/repo/"},
		{"/home/ci/my repo#1", "file:///home/ci/my%20repo%231/"},
	}
	for _, tt := range tests {
		got, err := srcRoot(tt.root)
		if err != nil || got.URI != tt.want {
			t.Errorf("srcRoot(%q) = %q, %v; want %q", tt.root, got.URI, err, tt.want)
		}
	}
	if _, err := srcRoot("relative/dir"); err == nil {
		t.Error("a relative source root was accepted")
	}
}

func TestArtifactURI(t *testing.T) {
	tests := map[string]string{
		"sql/build.sql":         "sql/build.sql",
		"sql/my build.sql":      "sql/my%20build.sql",
		"sql/100%.sql":          "sql/100%25.sql",
		"sql/a#b.sql":           "sql/a%23b.sql",
		"c:weird/plan.yaml":     "./c:weird/plan.yaml",
		"models/ünïcode/x.yaml": "models/%C3%BCn%C3%AFcode/x.yaml",
	}
	for in, want := range tests {
		if got := artifact(in).URI; got != want {
			t.Errorf("artifact(%q) = %q, want %q", in, got, want)
		}
	}
}

// The validation must be able to fail: a log that breaks the schema in the
// ways a careless change could is rejected.
func TestSchemaRejectsInvalidLog(t *testing.T) {
	sch := loadSchema(t, "sarif-schema-2.1.0.json")
	mutations := map[string]func(log map[string]any){
		"unknown level": func(log map[string]any) {
			firstResult(log)["level"] = "fatal"
		},
		"zero start line": func(log map[string]any) {
			loc := firstResult(log)["locations"].([]any)[0].(map[string]any)
			loc["physicalLocation"].(map[string]any)["region"].(map[string]any)["startLine"] = 0
		},
		"help uri not a uri": func(log map[string]any) {
			drv := log["runs"].([]any)[0].(map[string]any)["tool"].(map[string]any)["driver"].(map[string]any)
			drv["rules"].([]any)[0].(map[string]any)["helpUri"] = "docs/rules/BF002.md"
		},
		"unknown suppression kind": func(log map[string]any) {
			firstResult(log)["suppressions"] = []any{map[string]any{"kind": "comment"}}
		},
	}
	for name, mutate := range mutations {
		t.Run(name, func(t *testing.T) {
			inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(render(t, reportertest.Result(), Options{})))
			if err != nil {
				t.Fatal(err)
			}
			mutate(inst.(map[string]any))
			if err := sch.Validate(inst); err == nil {
				t.Error("schema accepted the broken log")
			}
		})
	}
}

func firstResult(log map[string]any) map[string]any {
	return log["runs"].([]any)[0].(map[string]any)["results"].([]any)[0].(map[string]any)
}

// A finding read from a statement's tokens carries a property saying so,
// and the log still matches the schema; other results have no property bag.
func TestTokensProperty(t *testing.T) {
	res := reportertest.Result()
	res.Findings[2].FromTokens = true
	out := render(t, res, Options{})
	for _, file := range []string{"sarif-schema-2.1.0.json", "sarif-schema-2.1.0.draft-07.json"} {
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(out))
		if err != nil {
			t.Fatal(err)
		}
		if err := loadSchema(t, file).Validate(inst); err != nil {
			t.Errorf("output does not match %s: %v", file, err)
		}
	}
	for i, got := range decode(t, out).Results {
		switch {
		case i == 2 && (got.Properties == nil || got.Properties.Analysis != "tokens"):
			t.Errorf("result %d from tokens has properties %+v, want bflint/analysis tokens", i, got.Properties)
		case i != 2 && got.Properties != nil:
			t.Errorf("result %d has properties %+v, want none", i, got.Properties)
		}
	}
	if !strings.Contains(string(out), `"bflint/analysis": "tokens"`) {
		t.Errorf("log lacks the bflint/analysis property:\n%s", out)
	}
}
