package json

import (
	"bytes"
	stdjson "encoding/json"
	"flag"
	"go/token"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/bflint/bflint/internal/schematest"
	"github.com/bflint/bflint/reporters/internal/reportertest"
	"github.com/bflint/bflint/rules"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

const schemaID = "https://github.com/bflint/bflint/blob/main/reporters/json/schema.json"

func render(t *testing.T, res *rules.Result) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, res, Options{ToolVersion: "1.0.0-test"}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestGolden(t *testing.T) {
	reportertest.Golden(t, "report.json", render(t, reportertest.Result()), *update)
}

// compileSchema registers schema.json under its own $id, so compiling it
// checks it against the draft 2020-12 metaschema (built into the library)
// and nothing is fetched from the network.
func compileSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	data, err := os.ReadFile("schema.json")
	if err != nil {
		t.Fatal(err)
	}
	return schematest.Compile(t, schemaID, data)
}

func instance(t *testing.T, out []byte) any {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(out))
	if err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, out)
	}
	return v
}

func TestOutputMatchesSchema(t *testing.T) {
	sch := compileSchema(t)
	for name, res := range map[string]*rules.Result{
		"fixture": reportertest.Result(),
		"empty":   {Fset: token.NewFileSet()},
	} {
		t.Run(name, func(t *testing.T) {
			out := render(t, res)
			if err := sch.Validate(instance(t, out)); err != nil {
				t.Errorf("output does not match schema.json: %v\n%s", err, out)
			}
		})
	}
}

// The schema must be strict enough to catch a reporter that drifts from it.
func TestSchemaRejectsDrift(t *testing.T) {
	sch := compileSchema(t)
	mutations := map[string]func(doc map[string]any){
		"missing fingerprint": func(doc map[string]any) {
			delete(doc["findings"].([]any)[0].(map[string]any), "fingerprint")
		},
		"unknown field": func(doc map[string]any) {
			doc["findings"].([]any)[0].(map[string]any)["col"] = 3
		},
		"end line without end column": func(doc map[string]any) {
			delete(doc["findings"].([]any)[0].(map[string]any), "end_column")
		},
		"zero column": func(doc map[string]any) {
			doc["findings"].([]any)[0].(map[string]any)["column"] = 0
		},
		"unknown severity": func(doc map[string]any) {
			doc["findings"].([]any)[0].(map[string]any)["severity"] = "fatal"
		},
	}
	for name, mutate := range mutations {
		t.Run(name, func(t *testing.T) {
			doc := instance(t, render(t, reportertest.Result())).(map[string]any)
			mutate(doc)
			if err := sch.Validate(doc); err == nil {
				t.Error("schema accepted the mutated document")
			}
		})
	}
}

func TestContent(t *testing.T) {
	res := reportertest.Result()
	var doc document
	if err := stdjson.Unmarshal(render(t, res), &doc); err != nil {
		t.Fatal(err)
	}
	if got, want := doc.Summary, (summary{Errors: 3, Warnings: 2, Infos: 1, Suppressed: 1}); got != want {
		t.Errorf("summary = %+v, want %+v", got, want)
	}
	if len(doc.Findings) != len(res.Findings)-1 {
		t.Errorf("%d findings listed, want every active one (%d)", len(doc.Findings), len(res.Findings)-1)
	}
	for _, f := range doc.Findings {
		if f.Code == "BF603" {
			t.Errorf("suppressed finding listed: %+v", f)
		}
	}
	// Fingerprints come from the shared helper, so SARIF agrees with them.
	prints := rules.Fingerprints(res.Findings)
	var want []string
	for i, f := range res.Findings {
		if f.Suppressed == nil {
			want = append(want, prints[i])
		}
	}
	for i, f := range doc.Findings {
		if f.Fingerprint != want[i] {
			t.Errorf("finding %d: fingerprint %s, want %s", i, f.Fingerprint, want[i])
		}
	}
	// Line 3 of the build SQL has a tab and multi-byte characters before
	// the relation: the column must count bytes.
	if f := doc.Findings[2]; f.Code != "BF201" || f.Line != 3 || f.Column != 44 || f.EndLine != 3 || f.EndColumn != 64 {
		t.Errorf("BF201 position = %d:%d-%d:%d, want 3:44-3:64", f.Line, f.Column, f.EndLine, f.EndColumn)
	}
	if f := doc.Findings[1]; f.EndLine != 0 || f.EndColumn != 0 {
		t.Errorf("finding without End has end %d:%d", f.EndLine, f.EndColumn)
	}
}

func TestEmptyResultHasArrays(t *testing.T) {
	out := string(render(t, &rules.Result{Fset: token.NewFileSet()}))
	for _, want := range []string{`"findings": []`, `"errors": []`} {
		if !strings.Contains(out, want) {
			t.Errorf("empty output lacks %s:\n%s", want, out)
		}
	}
}

// Every property the schema defines must be described in doc.go, so the
// package documentation cannot fall behind the schema.
func TestDocListsEverySchemaField(t *testing.T) {
	data, err := os.ReadFile("schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var schema any
	if err := stdjson.Unmarshal(data, &schema); err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	collectProperties(schema, names)
	docText, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	var missing []string
	for n := range names {
		if !strings.Contains(string(docText), `"`+n+`":`) {
			missing = append(missing, n)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("doc.go does not describe schema fields %v", missing)
	}
	if len(names) < 15 {
		t.Errorf("found only %d property names in schema.json; is the walk broken?", len(names))
	}
}

func collectProperties(v any, into map[string]bool) {
	switch v := v.(type) {
	case map[string]any:
		if props, ok := v["properties"].(map[string]any); ok {
			for name := range props {
				into[name] = true
			}
		}
		for _, child := range v {
			collectProperties(child, into)
		}
	case []any:
		for _, child := range v {
			collectProperties(child, into)
		}
	}
}

// A finding read from a statement's tokens says so in "analysis", which the
// schema accepts; other findings leave the field out.
func TestTokensAnalysis(t *testing.T) {
	res := reportertest.Result()
	res.Findings[2].FromTokens = true
	out := render(t, res)
	if err := compileSchema(t).Validate(instance(t, out)); err != nil {
		t.Errorf("output does not match schema.json: %v\n%s", err, out)
	}
	var doc document
	if err := stdjson.Unmarshal(out, &doc); err != nil {
		t.Fatal(err)
	}
	for i, f := range doc.Findings {
		want := ""
		if i == 2 {
			want = "tokens"
		}
		if f.Analysis != want {
			t.Errorf("finding %d (%s): analysis %q, want %q", i, f.Code, f.Analysis, want)
		}
	}
	if n := strings.Count(string(out), `"analysis"`); n != 1 {
		t.Errorf("%d findings have an analysis field, want 1:\n%s", n, out)
	}
}
