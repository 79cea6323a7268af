package manifest

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const handmade = "../../testdata/manifests/"

func TestRepeatedEdgesAreSets(t *testing.T) {
	m := load(t, handmade+"duplicate_edges.json")
	for _, tc := range []struct {
		id                string
		parents, children []string
	}{
		{"source.shop.raw.orders", nil, []string{"model.shop.stg_orders"}},
		{"model.shop.stg_orders", []string{"source.shop.raw.orders"}, []string{"model.shop.fct_orders", "model.shop.ghost"}},
		{"model.shop.fct_orders", []string{"model.shop.stg_orders"}, nil},
	} {
		if got := m.Parents(tc.id); !slices.Equal(got, tc.parents) {
			t.Errorf("Parents(%q) = %q, want %q", tc.id, got, tc.parents)
		}
		if got := m.Children(tc.id); !slices.Equal(got, tc.children) {
			t.Errorf("Children(%q) = %q, want %q", tc.id, got, tc.children)
		}
	}
	if got := node(t, m, "model.shop.stg_orders").DependsOn.Nodes; !slices.Equal(got, []string{"source.shop.raw.orders"}) {
		t.Errorf("depends_on = %q", got)
	}
	// child_map names a node no section defines.
	if got := m.Unresolved(); !slices.Equal(got, []string{"model.shop.ghost"}) {
		t.Errorf("Unresolved = %q", got)
	}
	// Schema v9 has no project_name.
	if m.ProjectName != "" || m.SchemaVersion != 9 || m.AdapterType != "postgres" {
		t.Errorf("metadata: project %q, schema %d, adapter %q", m.ProjectName, m.SchemaVersion, m.AdapterType)
	}
	src := node(t, m, "source.shop.raw.orders")
	if got := m.RelationName(src); got != `"raw"."shop"."orders"` {
		t.Errorf("source RelationName = %q", got)
	}
}

func TestMissingChildMapIsDerived(t *testing.T) {
	m := load(t, handmade+"no_child_map.json")
	if m.SchemaVersion != 13 || m.SchemaVersion <= NewestSchemaVersion || !m.Fusion() {
		t.Errorf("schema %d (%q), Fusion %v: a newer schema must still be read", m.SchemaVersion, m.SchemaURL, m.Fusion())
	}
	for _, tc := range []struct {
		id                string
		parents, children []string
	}{
		{"seed.shop.country_codes", nil, []string{"model.shop.fct_events", "model.shop.stg_events"}},
		{"model.shop.stg_events", []string{"seed.shop.country_codes"}, []string{"model.shop.fct_events"}},
		{"model.shop.fct_events", []string{"model.shop.stg_events", "seed.shop.country_codes"}, []string{"exposure.shop.events_dashboard", "unit_test.shop.fct_events.counts_once"}},
		{"exposure.shop.events_dashboard", []string{"model.shop.fct_events"}, nil},
	} {
		if got := m.Parents(tc.id); !slices.Equal(got, tc.parents) {
			t.Errorf("Parents(%q) = %q, want %q", tc.id, got, tc.parents)
		}
		if got := m.Children(tc.id); !slices.Equal(got, tc.children) {
			t.Errorf("Children(%q) = %q, want %q", tc.id, got, tc.children)
		}
	}
	fct := node(t, m, "model.shop.fct_events")
	c := fct.Config
	if c.IncrementalStrategy != "microbatch" || c.EventTime != "occurred_at" || c.BatchSize != "day" || c.UniqueKey != nil {
		t.Errorf("microbatch config %+v", c)
	}
	if fct.OriginalFilePath != "models/marts/fct_events.sql" || fct.Checksum.Name != "sha256" || len(fct.Checksum.Checksum) != 64 {
		t.Errorf("file %q, checksum %+v", fct.OriginalFilePath, fct.Checksum)
	}
	if got := m.RelationName(node(t, m, "model.shop.stg_events")); got != "" {
		t.Errorf("ephemeral model has relation %q", got)
	}
	var ids []string
	for _, n := range m.Nodes() {
		ids = append(ids, n.UniqueID)
	}
	want := []string{"exposure.shop.events_dashboard", "model.shop.fct_events", "model.shop.stg_events", "seed.shop.country_codes", "unit_test.shop.fct_events.counts_once"}
	if !slices.Equal(ids, want) {
		t.Errorf("Nodes() = %q, want %q (sorted; the unknown top-level section ignored)", ids, want)
	}
}

func TestVersionedModels(t *testing.T) {
	m := load(t, handmade+"versioned.json")
	for _, tc := range []struct{ id, version, relation string }{
		{"model.shop.dim_customers.v1", "1", `"dev"."marts"."dim_customers_v1"`},
		{"model.shop.dim_customers.v2", "2", `"dev"."marts"."dim_customers"`},
	} {
		n := node(t, m, tc.id)
		if n.Name != "dim_customers" || string(n.Version) != tc.version || n.LatestVersion != "2" || m.RelationName(n) != tc.relation {
			t.Errorf("%s: name %q version %q latest %q relation %q", tc.id, n.Name, n.Version, n.LatestVersion, m.RelationName(n))
		}
	}
	if got := m.Children("model.shop.dim_customers.v2"); !slices.Equal(got, []string{"exposure.shop.customer_360"}) {
		t.Errorf("Children(v2) = %q", got)
	}
	e := node(t, m, "exposure.shop.customer_360")
	if e.Owner != (Owner{Email: "crm@example.com"}) || e.Type != "application" {
		t.Errorf("exposure %+v", e)
	}
}

func TestConfigVariants(t *testing.T) {
	m := load(t, handmade+"configs.json")
	for _, tc := range []struct {
		id        string
		strategy  string
		uniqueKey StringList
	}{
		{"model.shop.key_string", "merge", StringList{"order_id"}},
		{"model.shop.key_list", "delete+insert", StringList{"order_id", "line_no"}},
		{"model.shop.key_empty", "", nil},
		{"model.shop.strategy_null", "", nil},
		{"model.shop.strategy_missing", "", nil},
	} {
		c := node(t, m, tc.id).Config
		if c.Materialized != "incremental" || c.IncrementalStrategy != tc.strategy || !slices.Equal(c.UniqueKey, tc.uniqueKey) {
			t.Errorf("%s: %+v, want strategy %q and unique_key %q", tc.id, c, tc.strategy, tc.uniqueKey)
		}
	}
	for _, tc := range []struct{ id, from, to, current string }{
		{"snapshot.shop.customers_history", "valid_from", "valid_to", "to_date('9999-12-31')"},
		// Only dbt_valid_to renamed; dbt_valid_to_current null: NULL marks current rows.
		{"snapshot.shop.plans_history", "dbt_valid_from", "ended_at", ""},
	} {
		s := node(t, m, tc.id)
		if from, to := s.ValidityColumns(); from != tc.from || to != tc.to || s.Config.DBTValidToCurrent != tc.current {
			t.Errorf("%s: validity %q/%q, current %q; want %q/%q, %q", tc.id, from, to, s.Config.DBTValidToCurrent, tc.from, tc.to, tc.current)
		}
	}
	var snaps []string
	for _, s := range m.Snapshots() {
		snaps = append(snaps, s.UniqueID)
	}
	if want := []string{"snapshot.shop.customers_history", "snapshot.shop.plans_history"}; !slices.Equal(snaps, want) {
		t.Errorf("Snapshots() = %q, want %q", snaps, want)
	}
	// No relation_name and no quoting: made from the parts.
	if got := m.RelationName(node(t, m, "model.shop.key_list")); got != "db.s.key_list" {
		t.Errorf("RelationName = %q", got)
	}
}

func TestRelationNameSkipsEmptyParts(t *testing.T) {
	var m Manifest
	for _, tc := range []struct {
		n    Node
		want string
	}{
		{Node{ResourceType: Source, Schema: "raw", Identifier: "orders", Name: "orders_src"}, "raw.orders"},
		{Node{ResourceType: Seed, Database: "db", Name: "codes"}, "db.codes"},
		{Node{ResourceType: Model, Database: "db", Schema: "s", Alias: "a", Name: "n", Relation: "`p`.`s`.`a`"}, "`p`.`s`.`a`"},
		{Node{ResourceType: Test, Database: "db", Schema: "s", Alias: "not_null_x"}, ""},
	} {
		if got := m.RelationName(&tc.n); got != tc.want {
			t.Errorf("RelationName(%+v) = %q, want %q", tc.n, got, tc.want)
		}
	}
	if m.RelationName(nil) != "" {
		t.Error("RelationName(nil) is not empty")
	}
}

// loadError loads a manifest that must fail and returns its *Error.
func loadError(t *testing.T, path string) *Error {
	t.Helper()
	m, err := Load(path)
	if err == nil {
		t.Fatalf("Load(%s) = %v, want an error", path, m)
	}
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("Load(%s) error %T %v, want *Error", path, err, err)
	}
	if e.Path != path {
		t.Errorf("Path = %q, want %q", e.Path, path)
	}
	return e
}

// lineCol computes the position of offset in data independently.
func lineCol(data []byte, offset int64) (int, int) {
	before := data[:offset]
	return bytes.Count(before, []byte("\n")) + 1, int(offset) - (bytes.LastIndexByte(before, '\n') + 1) + 1
}

func TestTruncatedManifest(t *testing.T) {
	path := handmade + "truncated.json"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	e := loadError(t, path)
	if e.Offset != int64(len(data)) {
		t.Errorf("Offset = %d, want the file length %d", e.Offset, len(data))
	}
	line, col := lineCol(data, e.Offset)
	if e.Line != line || e.Column != col {
		t.Errorf("at %d:%d, want %d:%d", e.Line, e.Column, line, col)
	}
	for _, want := range []string{fmt.Sprintf("%s:%d:%d: ", path, line, col), `nodes["model.shop.fct_orders"]`, "truncated", fmt.Sprintf("(at byte %d)", len(data))} {
		if !strings.Contains(e.Error(), want) {
			t.Errorf("message %q does not contain %q", e.Error(), want)
		}
	}
}

func TestNodesIsAList(t *testing.T) {
	path := handmade + "nodes_list.json"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	e := loadError(t, path)
	want := int64(bytes.Index(data, []byte(`[`)))
	if e.Offset != want {
		t.Errorf("Offset = %d, want %d (the list)", e.Offset, want)
	}
	if e.Line != 6 || e.Column != 12 {
		t.Errorf("at %d:%d, want 6:12", e.Line, e.Column)
	}
	if want := `"nodes" is a list, expected an object keyed by unique_id`; !strings.Contains(e.Msg, want) {
		t.Errorf("message %q does not contain %q", e.Msg, want)
	}
}

// TestDecodeErrors covers failures with no file of their own. at is the
// first occurrence of the text the offset must point at (for a field inside
// a node, the text just after the field's value), atEnd the end of input.
func TestDecodeErrors(t *testing.T) {
	for _, tc := range []struct {
		name, input, msg string
		at               string
		atEnd            bool
	}{
		{name: "empty", input: "  \n", msg: "the file is empty", at: "  \n"},
		{name: "top-level list", input: `[{"nodes": {}}]`, msg: "the manifest is a list, expected an object", at: `[{`},
		{name: "top-level string", input: `"manifest"`, msg: "the manifest is a string", at: `"manifest"`},
		{name: "no nodes", input: `{"metadata": {}}`, msg: `no "nodes" section`},
		{
			name:  "catalog",
			input: `{"metadata": {"dbt_schema_version": "https://schemas.getdbt.com/dbt/catalog/v1.json"}, "nodes": {}}`,
			msg:   "this is a dbt catalog file, not a manifest", at: `{"dbt_schema_version"`,
		},
		{
			name:  "run results",
			input: `{"metadata": {"dbt_schema_version": "https://schemas.getdbt.com/dbt/run-results/v6.json"}, "results": []}`,
			msg:   "this is a dbt run results file", at: `{"dbt_schema_version"`,
		},
		{
			name:  "node is a string",
			input: `{"nodes": {"model.a.b": "model"}}`,
			msg:   `nodes["model.a.b"] is a string, expected an object`, at: `"model"}`,
		},
		{
			name:  "materialized is a number",
			input: `{"nodes": {"model.a.b": {"name": "b", "config": {"materialized": 42}}}}`,
			msg:   `nodes["model.a.b"].config.materialized is a number, expected a string`, at: `}}}}`,
		},
		{
			name:  "unique_key is an object",
			input: `{"nodes": {"model.a.b": {"config": {"unique_key": {"a": 1}}}}}`,
			msg:   `nodes["model.a.b"].config.unique_key is an object, expected a string or a list of strings`, at: `{"config"`,
		},
		{
			name:  "depends_on.nodes is an object",
			input: `{"nodes": {"model.a.b": {"depends_on": {"nodes": {"x": 1}}}}}`,
			msg:   `nodes["model.a.b"].depends_on.nodes is an object, expected a list`, at: `"x": 1}`,
		},
		{
			name:  "child_map entry is a string",
			input: `{"nodes": {}, "child_map": {"model.a.b": "model.a.c"}}`,
			msg:   `child_map["model.a.b"] is a string, expected a list`, at: `"model.a.c"`,
		},
		{
			name:  "syntax error inside a node",
			input: "{\"nodes\": {\"model.a.b\": {\"name\" \"b\"}}}",
			msg:   `invalid JSON in nodes["model.a.b"]: invalid character '"' after object key`, at: `"b"}`,
		},
		{
			name:  "syntax error inside a skipped section",
			input: `{"macros": {"macro.a.b": {"x": tru}}, "nodes": {}}`,
			msg:   `invalid JSON in "macros": invalid character '}' in literal true`, at: `}}, "nodes"`,
		},
		{
			name:  "syntax error between entries",
			input: `{"nodes": {"model.a.b": {} "model.a.c": {}}}`,
			msg:   `invalid character '"' after object key:value pair`, at: `"model.a.c"`,
		},
		{
			name:  "missing colon",
			input: `{"nodes" {}}`,
			msg:   `invalid character '{' after object key`, at: `{}}`,
		},
		{name: "truncated inside a key", input: `{"nodes": {"model.a`, msg: `the file ends inside "nodes": it is truncated`, atEnd: true},
		{name: "truncated after a node", input: `{"nodes": {"model.a.b": {}`, msg: `the file ends inside "nodes"`, atEnd: true},
		{name: "truncated at top level", input: `{"nodes": {}, `, msg: `the file ends inside the manifest`, atEnd: true},
		{name: "trailing data", input: `{"nodes": {}} {"x": 1}`, msg: "unexpected data after the end of the manifest", at: `{"x"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := Decode(strings.NewReader(tc.input))
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("Decode = %v, %v; want *Error", m, err)
			}
			if !strings.Contains(e.Msg, tc.msg) {
				t.Errorf("message %q does not contain %q", e.Msg, tc.msg)
			}
			if e.Path != "" || e.Line != 0 {
				t.Errorf("Decode set Path %q, Line %d", e.Path, e.Line)
			}
			want := int64(-1)
			switch {
			case tc.atEnd:
				want = int64(len(tc.input))
			case tc.at != "":
				want = int64(strings.Index(tc.input, tc.at))
			}
			if e.Offset != want {
				t.Errorf("Offset = %d, want %d: %q", e.Offset, want, e.Error())
			}
		})
	}
}

func TestSizeLimit(t *testing.T) {
	input := `{"nodes": {"model.a.b": {"name": "b"}}, "child_map": {}}`
	if _, err := decode(strings.NewReader(input), int64(len(input))); err != nil {
		t.Fatalf("a manifest of exactly the limit: %v", err)
	}
	padded := input + strings.Repeat(" ", 1<<20)
	_, err := decode(strings.NewReader(padded), 1<<19)
	var e *Error
	if !errors.As(err, &e) || !errors.Is(err, errTooLarge) || !strings.Contains(e.Msg, "larger than 524288 bytes") {
		t.Fatalf("over the limit: %v", err)
	}

	// Load measures a file before reading it; a sparse file costs no disk.
	path := filepath.Join(t.TempDir(), "manifest.json")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(MaxSize + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	e = loadError(t, path)
	if !strings.Contains(e.Msg, "larger than 1.0 GiB") {
		t.Errorf("message %q", e.Msg)
	}
	if _, err := LoadCatalog(path); err == nil || !strings.Contains(err.Error(), "larger than 1.0 GiB") {
		t.Errorf("LoadCatalog of a huge file: %v", err)
	}
}

func TestLoadMissingFile(t *testing.T) {
	_, err := Load(filepath.Join(t.TempDir(), "manifest.json"))
	if !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Load of a missing file: %v, want ErrNotExist", err)
	}
}

// Every prefix of a manifest is a truncated manifest, and every single-byte
// change either still decodes or is reported with an offset inside the
// input: never a panic.
func TestCorruptionNeverPanics(t *testing.T) {
	data, err := os.ReadFile(handmade + "no_child_map.json")
	if err != nil {
		t.Fatal(err)
	}
	complete := len(bytes.TrimRight(data, " \n"))
	for n := range len(data) {
		_, err := Decode(bytes.NewReader(data[:n]))
		if n >= complete {
			if err != nil {
				t.Errorf("prefix of %d bytes (complete JSON): %v", n, err)
			}
			continue
		}
		checkDecodeError(t, data[:n], err)
	}
	for i := range data {
		for _, b := range []byte{'[', '"', ':', 'x'} {
			changed := bytes.Clone(data)
			changed[i] = b
			if _, err := Decode(bytes.NewReader(changed)); err != nil {
				checkDecodeError(t, changed, err)
			}
		}
	}
}

func checkDecodeError(t *testing.T, input []byte, err error) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("%q: %v, want *Error", input, err)
	}
	if e.Offset < -1 || e.Offset > int64(len(input)) {
		t.Fatalf("%q: offset %d outside the input: %v", input, e.Offset, e)
	}
}

// FuzzDecode extends TestCorruptionNeverPanics to arbitrary input; a graph
// that decodes must be consistent.
func FuzzDecode(f *testing.F) {
	for _, name := range []string{"duplicate_edges.json", "no_child_map.json", "versioned.json", "configs.json", "truncated.json", "nodes_list.json"} {
		data, err := os.ReadFile(handmade + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Decode(bytes.NewReader(data))
		if err != nil {
			checkDecodeError(t, data, err)
			return
		}
		for _, n := range m.Nodes() {
			if m.Node(n.UniqueID) != n {
				t.Fatalf("Node(%q) is not the node Nodes lists", n.UniqueID)
			}
			if !isSet(m.Children(n.UniqueID)) || !isSet(m.Parents(n.UniqueID)) {
				t.Fatalf("edges of %q are not sorted sets", n.UniqueID)
			}
		}
	})
}

// isSet reports whether ids is sorted without repeats.
func isSet(ids []string) bool {
	for i := 1; i < len(ids); i++ {
		if ids[i-1] >= ids[i] {
			return false
		}
	}
	return true
}
