package config

import (
	"bytes"
	"encoding/json"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bflint/bflint/parser/yamlx"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

func compileSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	data, err := os.ReadFile("schema.json")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	const id = "https://github.com/bflint/bflint/blob/main/parser/config/schema.json"
	if err := c.AddResource(id, doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile(id)
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

// TestLoad checks each configuration both ways: bflint's own reading and
// the JSON Schema editors use must agree on what is valid.
func TestLoad(t *testing.T) {
	schema := compileSchema(t)
	cases := []struct {
		name, text string
		wantErr    string // "" for a valid file
		// schemaBlind marks defects a JSON Schema cannot see, because they
		// are gone once the YAML is read as data.
		schemaBlind bool
	}{
		{name: "everything", text: `rules:
  disable: [BF301]
  enable: BF901
  severity: {BF604: error, compute-unplanned: off}
exclude: ["legacy/**"]
staging: ["backfill_staging.*"]
scd2: {relations: ["dim.*"], valid_from: [valid_from], valid_to: [valid_to]}
partition_columns: ["*_date"]
reporting_cycle: 5w
manifest: target/manifest.json
dialect: postgres
`},
		{name: "empty file is an error", text: ``, wantErr: "file is empty"},
		{name: "unknown top-level key", text: "exclud: [x]\n", wantErr: `unknown key "exclud" in the configuration; did you mean "exclude"?`},
		{name: "unknown nested key", text: "rules:\n  disabel: [BF301]\n", wantErr: `unknown key "disabel" in "rules"; did you mean "disable"?`},
		{name: "bad dialect", text: "dialect: snowflake\n", wantErr: `dialect: unknown value "snowflake"`},
		{name: "bad cycle", text: "reporting_cycle: a month\n", wantErr: `reporting_cycle "a month" must be a number of days or weeks`},
		{name: "duplicate key", text: "exclude: [a]\nexclude: [b]\n", wantErr: `duplicate key "exclude"`, schemaBlind: true},
		{name: "severity not a mapping", text: "rules:\n  severity: [BF601]\n", wantErr: `rules.severity must be a mapping`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), FileName)
			if err := os.WriteFile(path, []byte(c.text), 0o644); err != nil {
				t.Fatal(err)
			}
			_, errs := Load(token.NewFileSet(), path, FileName)
			var got string
			if len(errs) > 0 {
				got = errs[0].Error()
			}
			if c.wantErr == "" && got != "" {
				t.Fatalf("unexpected error: %s", got)
			}
			if c.wantErr != "" && !strings.Contains(got, c.wantErr) {
				t.Fatalf("error %q does not contain %q", got, c.wantErr)
			}
			doc, err := yamlx.ToJSON([]byte(c.text))
			if err != nil {
				t.Fatal(err)
			}
			schemaErr := schema.Validate(doc)
			if doc == nil || c.schemaBlind {
				return
			}
			if (schemaErr == nil) != (c.wantErr == "") {
				t.Errorf("schema says valid=%v, bflint says valid=%v (%v)", schemaErr == nil, c.wantErr == "", schemaErr)
			}
		})
	}
}

func TestParseCycle(t *testing.T) {
	for in, want := range map[string]time.Duration{"35d": 35 * 24 * time.Hour, "35": 35 * 24 * time.Hour, "5w": 35 * 24 * time.Hour, "2 weeks": 14 * 24 * time.Hour} {
		got, err := ParseCycle(in)
		if err != nil || got != want {
			t.Errorf("ParseCycle(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
}

func TestFindWalksUpToRoot(t *testing.T) {
	root := t.TempDir()
	sub := filepath.Join(root, "a", "b")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if got := Find(sub, root); got != "" {
		t.Fatalf("found %q with no configuration anywhere", got)
	}
	cfg := filepath.Join(root, "a", FileName)
	if err := os.WriteFile(cfg, []byte("exclude: [x]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := Find(sub, root); got != cfg {
		t.Fatalf("Find = %q, want %q", got, cfg)
	}
	// Above the project root nothing is looked at.
	if got := Find(sub, filepath.Join(root, "a", "b")); got != "" {
		t.Fatalf("Find crossed the root: %q", got)
	}
}

// A .bflint.yaml that is a folder is found, so that Load says what is
// wrong with it, instead of passed over for one further up or none.
func TestFindAFolderNamedLikeTheConfiguration(t *testing.T) {
	root := t.TempDir()
	folder := filepath.Join(root, FileName)
	if err := os.Mkdir(folder, 0o755); err != nil {
		t.Fatal(err)
	}
	if got := Find(root, root); got != folder {
		t.Fatalf("Find = %q, want the folder %q", got, folder)
	}
	if _, errs := Load(token.NewFileSet(), folder, FileName); len(errs) == 0 || !strings.Contains(errs[0].Error(), "folder") {
		t.Errorf("Load of a folder: %v, want an error saying it is a folder", errs)
	}
}

// The schema shows the default partition column patterns, so `bflint
// schema --config` and editors show what bflint uses when none are set.
func TestSchemaShowsDefaultPartitionColumns(t *testing.T) {
	var doc struct {
		Properties map[string]struct {
			Default []string `json:"default"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(Schema, &doc); err != nil {
		t.Fatal(err)
	}
	if got := doc.Properties["partition_columns"].Default; !slices.Equal(got, DefaultPartitionColumns) {
		t.Errorf("schema.json partition_columns default = %q, want DefaultPartitionColumns %q", got, DefaultPartitionColumns)
	}
}
