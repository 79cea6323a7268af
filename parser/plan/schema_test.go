package plan

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/bflint/bflint/parser/yamlx"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

const (
	schemaFile = "schema.json"
	schemaID   = "https://github.com/bflint/bflint/blob/main/parser/plan/schema.json"
	draft2020  = "https://json-schema.org/draft/2020-12/schema"
)

// loadSchemaDoc reads schema.json from the package folder as generic JSON.
func loadSchemaDoc(t *testing.T) map[string]any {
	t.Helper()
	data, err := os.ReadFile(schemaFile)
	if err != nil {
		t.Fatalf("read %s: %v", schemaFile, err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s is not valid JSON: %v", schemaFile, err)
	}
	obj, ok := doc.(map[string]any)
	if !ok {
		t.Fatalf("%s: top level is %T, want an object", schemaFile, doc)
	}
	return obj
}

// compileSchema compiles schema.json under its own $id, so that the metaschema
// check of draft 2020-12 runs as part of the compilation.
func compileSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	doc := loadSchemaDoc(t)
	c := jsonschema.NewCompiler()
	if err := c.AddResource(schemaID, doc); err != nil {
		t.Fatalf("add schema resource: %v", err)
	}
	sch, err := c.Compile(schemaID)
	if err != nil {
		t.Fatalf("compile %s: %v", schemaFile, err)
	}
	return sch
}

func TestSchemaHeader(t *testing.T) {
	doc := loadSchemaDoc(t)
	if got := doc["$schema"]; got != draft2020 {
		t.Errorf("$schema = %v, want %s", got, draft2020)
	}
	if got := doc["$id"]; got != schemaID {
		t.Errorf("$id = %v, want %s", got, schemaID)
	}
	for _, key := range []string{"title", "description"} {
		if s, _ := doc[key].(string); strings.TrimSpace(s) == "" {
			t.Errorf("schema has no %s", key)
		}
	}
	compileSchema(t)
}

// TestSchemaObjectsClosedAndDescribed walks the schema: every object schema
// must reject unknown keys (a misspelt key is the most common plan mistake),
// and every property must say what it means, since editors show it on hover.
func TestSchemaObjectsClosedAndDescribed(t *testing.T) {
	doc := loadSchemaDoc(t)
	objects := 0
	var walk func(ptr string, v any)
	walk = func(ptr string, v any) {
		switch v := v.(type) {
		case map[string]any:
			if props, ok := v["properties"].(map[string]any); ok {
				objects++
				if v["additionalProperties"] != false {
					t.Errorf("%s: object schema without additionalProperties: false", ptr)
				}
				names := make([]string, 0, len(props))
				for name := range props {
					names = append(names, name)
				}
				sort.Strings(names)
				for _, name := range names {
					p, _ := props[name].(map[string]any)
					if d, _ := p["description"].(string); strings.TrimSpace(d) == "" {
						t.Errorf("%s/properties/%s: no description", ptr, name)
					}
				}
			}
			for k, child := range v {
				walk(ptr+"/"+k, child)
			}
		case []any:
			for i, child := range v {
				walk(fmt.Sprintf("%s/%d", ptr, i), child)
			}
		}
	}
	walk("#", doc)
	if objects < 15 {
		t.Errorf("found %d object schemas with properties, want every plan section (at least 15)", objects)
	}
}

func TestYAMLToJSON(t *testing.T) {
	got, err := yamlx.ToJSON([]byte(`
start: 2026-01-14
hour: 2026-06-30T23:00
quoted: "2026-02-01"
owns: 2
ratio: 0.5
flag: true
word: yes
none: null
list: [a, 1]
`))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"start":  "2026-01-14",
		"hour":   "2026-06-30T23:00",
		"quoted": "2026-02-01",
		"owns":   2,
		"ratio":  0.5,
		"flag":   true,
		"word":   "yes",
		"none":   nil,
		"list":   []any{"a", 1},
	}
	gotJSON, _ := json.Marshal(got)
	wantJSON, _ := json.Marshal(want)
	if !bytes.Equal(gotJSON, wantJSON) {
		t.Errorf("yamlToJSON:\n got %s\nwant %s", gotJSON, wantJSON)
	}
}

// TestSchemaExamples validates the plans under examples/. The good plan must
// match. So must the broken one: everything wrong with it (an appending
// write, a missing rollback, personal data without suppression ...) is for
// bflint's rules to report, and the schema only checks the shape of a plan.
func TestSchemaExamples(t *testing.T) {
	sch := compileSchema(t)
	for _, name := range []string{"good", "broken"} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join("..", "..", "examples", name, "fct_orders_refunds.backfill.yaml")
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			// The URL, not a path into this repository, so that the line
			// still works in a plan copied from the example.
			if first, _, _ := bytes.Cut(data, []byte("\n")); !bytes.Equal(first, []byte("# yaml-language-server: $schema=https://raw.githubusercontent.com/bflint/bflint/main/parser/plan/schema.json")) {
				t.Errorf("%s: first line %q does not point editors at the schema", path, first)
			}
			v, err := yamlx.ToJSON(data)
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			if err := sch.Validate(v); err != nil {
				t.Errorf("%s does not match the schema:\n%v", path, err)
			}
		})
	}
}

func TestSchemaCases(t *testing.T) {
	sch := compileSchema(t)
	const head = "bflint: 1\nid: bf20260826_a\ntarget: analytics.fct_orders\n"
	cases := []struct {
		name  string
		plan  string // YAML; head is prepended unless full is set
		full  bool
		valid bool
	}{
		{name: "minimal", valid: true},
		{name: "day range unquoted", plan: "range: {start: 2026-01-14, end: 2026-06-30, grain: day, timezone: UTC, partition_column: order_date, pipeline_owns: 1}", valid: true},
		{name: "quoted dates", plan: "range: {start: \"2026-01-14\", end: '2026-06-30'}", valid: true},
		{name: "hour range", plan: "range: {start: 2026-06-30T00:00, end: 2026-06-30T23:00:00, grain: hour}", valid: true},
		{name: "hour with space and Z", plan: "range: {start: '2026-06-30 00:00', end: 2026-06-30T23:00Z, grain: hour}", valid: true},
		{name: "month range", plan: "range: {start: 2026-01, end: 2026-06-01, grain: month}", valid: true},
		{name: "numeric deploy id", plan: "range: {boundary: {candidate: 2026-01-14, introduced_by: 4521, confirmed: 2026-01-14, evidence: sql/b.sql}}", valid: true},
		{name: "key as one string", plan: "rerun: {write: merge, key: order_id, uniqueness_check: sql/u.sql}", valid: true},
		{name: "key as list", plan: "rerun: {write: merge, key: [order_id, line_no], tested: {partition: 2026-03-01, identical: true}}", valid: true},
		{name: "after as string", plan: "after: bf20260820_a", valid: true},
		{name: "after as list", plan: "after: [bf20260820_a, bf20260821_b]", valid: true},
		{name: "shared compute", plan: "compute: {environment: shared, max_concurrency: 2, window: Sat 00:00 - Sun 12:00 UTC}", valid: true},
		{name: "control period", plan: "validation:\n  checks:\n    - {name: c, sql: sql/c.sql, control: {start: 2025-10-01, end: 2025-12-31}, pass: changed_rows = 0}", valid: true},
		{name: "per partition publish", plan: "publish: {mode: per_partition, mechanism: partition_swap, sql: sql/p.sql, progress: backfill_state.bf20260826_a}", valid: true},
		{name: "rollback durations", plan: "rollback: {mechanism: time_travel, location: v42, retained_until: 2027-12-31, restorable_by: oncall, restore_time: 1h30m, tested: false}", valid: true},
		{name: "skip with reason", plan: "downstream: {rebuild: model.shop.revenue_daily, notify: [exposure.shop.finance], skip: [{node: snapshot.shop.orders_history, reason: history stays as recorded}]}", valid: true},
		{name: "pii handled", plan: "data: {contains_pii: true, suppression: sql/s.sql, grants: inherit_target}", valid: true},

		{name: "unknown top-level key", plan: "rollbak: {mechanism: restore_copy}"},
		{name: "unknown nested key", plan: "rerun: {wirte: merge}"},
		{name: "unknown check key", plan: "validation: {checks: [{name: c, passes: x > 1}]}"},
		{name: "bad write enum", plan: "rerun: {write: upsert}"},
		{name: "bad grain enum", plan: "range: {grain: year}"},
		{name: "bad environment enum", plan: "compute: {environment: dedicated}"},
		{name: "bad publish mechanism", plan: "publish: {mechanism: swap}"},
		{name: "bad rollback mechanism", plan: "rollback: {mechanism: backup}"},
		{name: "version 2", full: true, plan: "bflint: 2\nid: bf1\ntarget: t"},
		{name: "version as string", full: true, plan: "bflint: \"1\"\nid: bf1\ntarget: t"},
		{name: "id with capital letter", full: true, plan: "bflint: 1\nid: BF20260826_a\ntarget: t"},
		{name: "id with dash", full: true, plan: "bflint: 1\nid: bf-1\ntarget: t"},
		{name: "missing target", full: true, plan: "bflint: 1\nid: bf1"},
		{name: "missing version", full: true, plan: "id: bf1\ntarget: t"},
		{name: "after id with capital", plan: "after: [Bf1]"},
		{name: "pipeline_owns zero", plan: "range: {pipeline_owns: 0}"},
		{name: "max_concurrency fraction", plan: "compute: {max_concurrency: 1.5}"},
		{name: "date not ISO", plan: "range: {start: 14/01/2026}"},
		{name: "hour with non-UTC offset", plan: "range: {end: 2026-06-30T23:00+02:00}"},
		{name: "date without padding", plan: "range: {start: 2026-1-14}"},
		{name: "retained_until month", plan: "rollback: {retained_until: 2027-12}"},
		{name: "restore_time words", plan: "rollback: {restore_time: 30 minutes}"},
		{name: "tested as string", plan: "rollback: {tested: \"true\"}"},
		{name: "pass as number", plan: "validation: {checks: [{pass: 0}]}"},
		{name: "control without end", plan: "validation: {checks: [{control: {start: 2025-10-01}}]}"},
		{name: "skip without reason", plan: "downstream: {skip: [{node: snapshot.shop.orders_history}]}"},
		{name: "empty section", plan: "rollback:"},
		{name: "key as mapping", plan: "rerun: {key: {col: order_id}}"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			src := tc.plan
			if !tc.full {
				src = head + tc.plan
			}
			v, err := yamlx.ToJSON([]byte(src))
			if err != nil {
				t.Fatalf("YAML: %v\n%s", err, src)
			}
			err = sch.Validate(v)
			switch {
			case tc.valid && err != nil:
				t.Errorf("rejected, want accepted:\n%s\n%v", src, err)
			case !tc.valid && err == nil:
				t.Errorf("accepted, want rejected:\n%s", src)
			}
		})
	}
}

func TestDescribe(t *testing.T) {
	for path, want := range map[string]string{
		"owner":                     "The person or team that runs the backfill.",
		"validation.checks[1].name": "Short name of the check.",
		"rollback.restorable_by":    "Who can carry out the restore.",
		"rollback.nope":             "",
		"nope":                      "",
	} {
		if got := Describe(path); got != want {
			t.Errorf("Describe(%q) = %q, want %q", path, got, want)
		}
	}
}
