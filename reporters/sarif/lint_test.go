package sarif

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/bflint/bflint/rules/all"
	"github.com/bflint/bflint/rules/ruletest"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

var sarifFile = flag.String("sarif-file", "", "a SARIF log written by the bflint binary, to validate (used by .ci/run)")

// TestRealRunsMatchSchema lints the shipped examples and every rule fixture,
// as the CLI does, and validates the SARIF of each run against the schema:
// real findings exercise what a hand-built result cannot.
func TestRealRunsMatchSchema(t *testing.T) {
	sch := loadSchema(t, "sarif-schema-2.1.0.json")
	for _, dir := range []string{"../../examples", "../../testdata/rules"} {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			res := ruletest.Lint(t, dir, all.Registry(), nil)
			if len(res.Findings) == 0 {
				t.Fatal("the run found nothing; it should exercise the reporter")
			}
			validate(t, sch, render(t, res, Options{ToolVersion: "test"}))
		})
	}
}

// TestValidateSARIFFile validates the log named by -sarif-file; .ci/run
// passes the one the built binary wrote over examples/.
func TestValidateSARIFFile(t *testing.T) {
	if *sarifFile == "" {
		t.Skip("no -sarif-file given")
	}
	out, err := os.ReadFile(*sarifFile)
	if err != nil {
		t.Fatal(err)
	}
	validate(t, loadSchema(t, "sarif-schema-2.1.0.json"), out)
}

func validate(t *testing.T, sch *jsonschema.Schema, out []byte) {
	t.Helper()
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(out))
	if err != nil {
		t.Fatalf("output is not JSON: %v", err)
	}
	if err := sch.Validate(inst); err != nil {
		t.Errorf("output does not match the SARIF schema: %v", err)
	}
}
