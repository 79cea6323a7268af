package manifest

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/bflint/bflint/internal/testcorpus"
)

// corpusManifests lists the real manifests under testdata/thirdparty.
func corpusManifests(t *testing.T) []string {
	t.Helper()
	return testcorpus.Manifests(t)
}

// rawManifest is the same file decoded generically, as an independent
// reading to check the typed decoder against.
type rawManifest map[string]any

func readRaw(t *testing.T, path string) rawManifest {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var raw rawManifest
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return raw
}

func (r rawManifest) section(name string) map[string]any {
	s, _ := r[name].(map[string]any)
	return s
}

// edgeSet reads child_map or parent_map as sets; ok is false when absent.
func (r rawManifest) edgeSet(name string) (map[string][]string, bool) {
	s, ok := r[name].(map[string]any)
	if !ok {
		return nil, false
	}
	out := map[string][]string{}
	for id, v := range s {
		out[id] = setOf(v)
	}
	return out, true
}

func setOf(v any) []string {
	list, _ := v.([]any)
	var out []string
	for _, x := range list {
		out = append(out, x.(string))
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func str(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case float64:
		return fmt.Sprint(v)
	}
	return ""
}

func field(obj any, path ...string) any {
	for _, p := range path {
		m, ok := obj.(map[string]any)
		if !ok {
			return nil
		}
		obj = m[p]
	}
	return obj
}

var graphSections = []string{"nodes", "sources", "exposures", "metrics", "semantic_models", "saved_queries", "unit_tests", "functions"}

func TestCorpusManifests(t *testing.T) {
	versions := map[string]bool{}
	for _, path := range corpusManifests(t) {
		t.Run(path, func(t *testing.T) {
			m, err := Load(path)
			if err != nil {
				t.Fatalf("Load: %v", err)
			}
			raw := readRaw(t, path)
			if m.Fusion() {
				versions["fusion"] = true
			} else {
				versions[fmt.Sprintf("v%d", m.SchemaVersion)] = true
			}
			if m.Path != path {
				t.Errorf("Path = %q, want %q", m.Path, path)
			}
			if got, want := m.SchemaURL, str(field(map[string]any(raw), "metadata", "dbt_schema_version")); got != want {
				t.Errorf("SchemaURL = %q, want %q", got, want)
			}
			if got, want := m.ProjectName, str(field(map[string]any(raw), "metadata", "project_name")); got != want {
				t.Errorf("ProjectName = %q, want %q", got, want)
			}
			if got, want := m.AdapterType, str(field(map[string]any(raw), "metadata", "adapter_type")); got != want {
				t.Errorf("AdapterType = %q, want %q", got, want)
			}
			checkNodesMatchRaw(t, m, raw)
			checkEdges(t, m, raw)

			relations := 0
			for _, n := range m.Nodes() {
				if n.ResourceType == Model && m.RelationName(n) != "" {
					relations++
				}
			}
			if relations == 0 {
				t.Error("no model has a relation name")
			}
		})
	}
	for _, v := range []string{"v7", "v8", "v9", "v10", "v11", "v12", "fusion"} {
		if !versions[v] {
			t.Errorf("no corpus manifest of schema %s; saw %v", v, versions)
		}
	}
}

// checkNodesMatchRaw compares every decoded entry with the generic reading
// of the same file: nothing dropped, nothing invented, every field as
// written (repeated depends_on ids collapsed).
func checkNodesMatchRaw(t *testing.T, m *Manifest, raw rawManifest) {
	t.Helper()
	want := 0
	for _, section := range graphSections {
		for id, v := range raw.section(section) {
			want++
			n := m.Node(id)
			if n == nil {
				t.Errorf("%s[%q] missing", section, id)
				continue
			}
			prefix, _, _ := strings.Cut(id, ".")
			if n.UniqueID != id || n.ResourceType != prefix {
				t.Errorf("%s: UniqueID %q, ResourceType %q", id, n.UniqueID, n.ResourceType)
			}
			checks := []struct {
				name      string
				got, want string
			}{
				{"name", n.Name, str(field(v, "name"))},
				{"package_name", n.PackageName, str(field(v, "package_name"))},
				{"database", n.Database, str(field(v, "database"))},
				{"schema", n.Schema, str(field(v, "schema"))},
				{"alias", n.Alias, str(field(v, "alias"))},
				{"identifier", n.Identifier, str(field(v, "identifier"))},
				{"relation_name", n.Relation, str(field(v, "relation_name"))},
				{"original_file_path", n.OriginalFilePath, str(field(v, "original_file_path"))},
				{"version", string(n.Version), str(field(v, "version"))},
				{"materialized", n.Config.Materialized, str(field(v, "config", "materialized"))},
				{"incremental_strategy", n.Config.IncrementalStrategy, str(field(v, "config", "incremental_strategy"))},
				{"event_time", n.Config.EventTime, str(field(v, "config", "event_time"))},
				{"strategy", n.Config.Strategy, str(field(v, "config", "strategy"))},
				{"dbt_valid_to_current", n.Config.DBTValidToCurrent, str(field(v, "config", "dbt_valid_to_current"))},
				{"owner.email", n.Owner.Email, str(field(v, "owner", "email"))},
				{"type", n.Type, str(field(v, "type"))},
			}
			for _, c := range checks {
				if c.got != c.want {
					t.Errorf("%s: %s = %q, want %q", id, c.name, c.got, c.want)
				}
			}
			sum := field(v, "checksum")
			if s, ok := sum.(string); ok {
				sum = map[string]any{"checksum": s}
			}
			if n.Checksum.Name != str(field(sum, "name")) || n.Checksum.Checksum != str(field(sum, "checksum")) {
				t.Errorf("%s: checksum %+v, want %v", id, n.Checksum, sum)
			}
			var keys []string
			switch k := field(v, "config", "unique_key").(type) {
			case string:
				keys = []string{k}
			case []any:
				for _, x := range k {
					keys = append(keys, x.(string))
				}
			}
			if !slices.Equal(n.Config.UniqueKey, keys) {
				t.Errorf("%s: unique_key %q, want %q", id, n.Config.UniqueKey, keys)
			}
			if deps := setOf(field(v, "depends_on", "nodes")); !slices.Equal(n.DependsOn.Nodes, deps) {
				t.Errorf("%s: depends_on %q, want %q", id, n.DependsOn.Nodes, deps)
			}
		}
	}
	if got := len(m.Nodes()); got != want {
		t.Errorf("%d nodes decoded, the file has %d", got, want)
	}
}

// checkEdges holds the graph to the file: child_map and parent_map read as
// sets, each the inverse of the other and of depends_on, and every id they
// mention defined or reported by Unresolved.
func checkEdges(t *testing.T, m *Manifest, raw rawManifest) {
	t.Helper()
	unresolved := m.Unresolved()
	known := func(id string) bool { return m.Node(id) != nil || slices.Contains(unresolved, id) }
	children, hasChildren := raw.edgeSet("child_map")
	parents, hasParents := raw.edgeSet("parent_map")
	if !hasChildren || !hasParents {
		t.Fatalf("corpus manifest without child_map or parent_map: the hand-made ones cover that")
	}
	for id, want := range children {
		if !known(id) {
			t.Errorf("child_map key %q is neither a node nor reported unresolved", id)
		}
		if got := m.Children(id); !slices.Equal(got, want) && len(got)+len(want) > 0 {
			t.Errorf("Children(%q) = %q, want %q", id, got, want)
		}
	}
	for id, want := range parents {
		if got := m.Parents(id); !slices.Equal(got, want) && len(got)+len(want) > 0 {
			t.Errorf("Parents(%q) = %q, want %q", id, got, want)
		}
	}
	for _, n := range m.Nodes() {
		if got := m.Parents(n.UniqueID); !slices.Equal(got, n.DependsOn.Nodes) && len(got)+len(n.DependsOn.Nodes) > 0 {
			t.Errorf("Parents(%q) = %q, depends_on %q", n.UniqueID, got, n.DependsOn.Nodes)
		}
		for _, c := range m.Children(n.UniqueID) {
			if !slices.Contains(m.Parents(c), n.UniqueID) {
				t.Errorf("%q is a child of %q but does not list it as a parent", c, n.UniqueID)
			}
		}
		for _, p := range m.Parents(n.UniqueID) {
			if !slices.Contains(m.Children(p), n.UniqueID) {
				t.Errorf("%q is a parent of %q but does not list it as a child", p, n.UniqueID)
			}
		}
	}
}

const (
	dbtCore = "../../testdata/thirdparty/dbt-labs__dbt-core/tests/functional/artifacts/data/state/"
	hubspot = "../../testdata/thirdparty/fivetran__dbt_hubspot"
	bouncer = "../../testdata/thirdparty/godatadriven__dbt-bouncer/"
	fusion  = bouncer + "tests/fixtures/dbt_20/target/manifest.json"
)

func load(t *testing.T, path string) *Manifest {
	t.Helper()
	m, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func node(t *testing.T, m *Manifest, id string) *Node {
	t.Helper()
	n := m.Node(id)
	if n == nil {
		t.Fatalf("%s: no node %q", m.Path, id)
	}
	return n
}

func TestCorpusSnapshots(t *testing.T) {
	for _, tc := range []struct {
		path     string
		relation string
	}{
		// Schema v7 has no relation_name: it is made from the parts.
		{dbtCore + "v7/manifest.json", "dbt.test16763240740000063267_test_previous_version_state.snapshot_seed"},
		// v12 writes snapshot_meta_column_names with every name null.
		{dbtCore + "v12/manifest.json", `"dbt"."test17594237163467600387_test_previous_version_state"."snapshot_seed"`},
	} {
		m := load(t, tc.path)
		snaps := m.Snapshots()
		if len(snaps) != 1 || snaps[0].UniqueID != "snapshot.test.snapshot_seed" {
			t.Fatalf("%s: Snapshots() = %v", tc.path, snaps)
		}
		s := snaps[0]
		if got := m.RelationName(s); got != tc.relation {
			t.Errorf("%s: RelationName = %q, want %q", tc.path, got, tc.relation)
		}
		if from, to := s.ValidityColumns(); from != "dbt_valid_from" || to != "dbt_valid_to" {
			t.Errorf("%s: ValidityColumns = %q, %q", tc.path, from, to)
		}
		if s.Config.DBTValidToCurrent != "" || s.Config.Strategy != "check" || !slices.Equal(s.Config.UniqueKey, []string{"id"}) {
			t.Errorf("%s: config %+v", tc.path, s.Config)
		}
		if got := m.Parents(s.UniqueID); !slices.Equal(got, []string{"seed.test.my_seed"}) {
			t.Errorf("%s: Parents = %q", tc.path, got)
		}
	}

	m := load(t, bouncer+"dbt_project/target/manifest.json")
	multi := node(t, m, "snapshot.dbt_bouncer_test_project.snapshot_orders_multiple_unique_keys")
	if !slices.Equal(multi.Config.UniqueKey, []string{"id", "order_date"}) || multi.Config.Strategy != "timestamp" {
		t.Errorf("snapshot_orders_multiple_unique_keys config %+v", multi.Config)
	}
	if got := len(m.Snapshots()); got != 2 {
		t.Errorf("bouncer: %d snapshots, want 2", got)
	}
}

func TestCorpusIncremental(t *testing.T) {
	m := load(t, hubspot+"/docs/manifest.json")
	n := node(t, m, "model.hubspot.hubspot__daily_ticket_history")
	c := n.Config
	if c.Materialized != "incremental" || c.IncrementalStrategy != "delete+insert" || !slices.Equal(c.UniqueKey, []string{"ticket_day_id"}) {
		t.Errorf("config %+v", c)
	}
	if got, want := m.RelationName(n), `"postgres"."public_hubspot"."hubspot__daily_ticket_history"`; got != want {
		t.Errorf("RelationName = %q, want %q", got, want)
	}
	if got := m.Parents("model.hubspot.int_hubspot__pivot_daily_ticket_history"); !slices.Equal(got, []string{"model.hubspot.int_hubspot__daily_ticket_history"}) {
		t.Errorf("Parents = %q", got)
	}
	eph := node(t, m, "model.hubspot.int_hubspot__email_event_aggregates")
	if eph.Config.Materialized != "ephemeral" || m.RelationName(eph) != "" {
		t.Errorf("ephemeral model: materialized %q, relation %q", eph.Config.Materialized, m.RelationName(eph))
	}
}

// The 2023 hubspot manifests repeat ids in child_map, parent_map and
// depends_on (the same ref written twice in a model).
func TestCorpusRepeatedEdges(t *testing.T) {
	m := load(t, hubspot+"@58b08eb/docs/manifest.json")
	const task = "model.hubspot_source.stg_hubspot__engagement_task"
	want := []string{task + "_tmp"}
	if got := m.Parents(task); !slices.Equal(got, want) {
		t.Errorf("Parents(%q) = %q, want %q", task, got, want)
	}
	if got := node(t, m, task).DependsOn.Nodes; !slices.Equal(got, want) {
		t.Errorf("depends_on = %q, want %q", got, want)
	}
	const tmp = "model.hubspot_source.stg_hubspot__contact_property_history_tmp"
	if got := m.Children(tmp); !slices.Equal(got, []string{"model.hubspot_source.stg_hubspot__contact_property_history"}) {
		t.Errorf("Children(%q) = %q", tmp, got)
	}
}

func TestCorpusExposures(t *testing.T) {
	m := load(t, dbtCore+"v10/manifest.json")
	e := node(t, m, "exposure.test.simple_exposure")
	if e.ResourceType != Exposure || e.Type != "dashboard" || e.Owner != (Owner{Email: "something@example.com"}) {
		t.Errorf("exposure %+v", e)
	}
	if want := []string{"model.test.my_model", "source.test.my_source.my_table"}; !slices.Equal(e.DependsOn.Nodes, want) {
		t.Errorf("depends_on = %q, want %q", e.DependsOn.Nodes, want)
	}
	if !slices.Contains(m.Children("model.test.my_model"), e.UniqueID) {
		t.Errorf("Children(model.test.my_model) = %q, no exposure", m.Children("model.test.my_model"))
	}
	if m.RelationName(e) != "" {
		t.Errorf("an exposure has no relation, got %q", m.RelationName(e))
	}
}

// The same dbt-bouncer project written by dbt 1.12 and by Fusion (dbt 2.0).
func TestCorpusFusionAndCore(t *testing.T) {
	const pkg = "dbt_bouncer_test_project"
	for _, tc := range []struct {
		path         string
		fusion       bool
		unitChecksum Checksum
	}{
		{bouncer + "dbt_project/target/manifest.json", false, Checksum{Checksum: "2b6e62c49ce2ee68c9207c4c975a7b3b2f473ea379a30a969498b4c92fe5b15f"}},
		{fusion, true, Checksum{Name: "none"}},
	} {
		m := load(t, tc.path)
		if m.Fusion() != tc.fusion || m.SchemaVersion != 12 || m.ProjectName != pkg || m.AdapterType != "duckdb" {
			t.Errorf("%s: Fusion %v, schema %d, project %q, adapter %q", tc.path, m.Fusion(), m.SchemaVersion, m.ProjectName, m.AdapterType)
		}
		// Versioned models: four-part ids, one name. Fusion writes "1",
		// dbt 1.12 writes 1.
		for _, v := range []string{"1", "2", "3"} {
			n := node(t, m, "model."+pkg+".customers.v"+v)
			if n.Name != "customers" || string(n.Version) != v || n.LatestVersion != "3" {
				t.Errorf("%s: customers.v%s: name %q, version %q, latest %q", tc.path, v, n.Name, n.Version, n.LatestVersion)
			}
			if got, want := m.RelationName(n), `"dbt"."main_marts"."customers_v`+v+`"`; got != want {
				t.Errorf("%s: RelationName = %q, want %q", tc.path, got, want)
			}
		}
		e := node(t, m, "exposure."+pkg+".pulse_queries")
		if e.Type != "notebook" || e.Owner != (Owner{Name: "Jacky Jackson", Email: "jacky.jackson@example.com"}) {
			t.Errorf("%s: pulse_queries %+v", tc.path, e)
		}
		if want := []string{"model." + pkg + ".customers.v3", "model." + pkg + ".orders"}; !slices.Equal(e.DependsOn.Nodes, want) {
			t.Errorf("%s: pulse_queries depends_on %q", tc.path, e.DependsOn.Nodes)
		}
		inc := node(t, m, "model."+pkg+".int_incremental")
		if inc.Config.IncrementalStrategy != "delete+insert" || !slices.Equal(inc.Config.UniqueKey, []string{"id"}) {
			t.Errorf("%s: int_incremental %+v", tc.path, inc.Config)
		}
		if got := node(t, m, "unit_test."+pkg+".orders.test_amount_logic").Checksum; got != tc.unitChecksum {
			t.Errorf("%s: unit test checksum %+v, want %+v", tc.path, got, tc.unitChecksum)
		}
	}

	m := load(t, fusion)
	// Fusion seeds carry no materialized config.
	if got := node(t, m, "seed."+pkg+".raw_customers").Config.Materialized; got != "" {
		t.Errorf("Fusion seed materialized = %q", got)
	}
	if got := node(t, m, "operation."+pkg+"."+pkg+"-on-run-start-0").ResourceType; got != Operation {
		t.Errorf("on-run-start hook resource type %q", got)
	}
}
