package bqetl

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/bflint/bflint/internal/testfs"
	"github.com/bflint/bflint/parser/sqlname"
)

// treeFixture is a hand-written bigquery-etl tree: a table, the view over
// it, two incremental tables, one written whole and a deprecated one.
const treeFixture = "../../testdata/rules/BF801/bqetl/sql"

func TestObjectsAndRoot(t *testing.T) {
	objects, err := Objects(treeFixture)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, o := range objects {
		names = append(names, o.Name+" "+o.Definition)
	}
	want := []string{
		"shop-prod.orders.all_stores view.sql",
		"shop-prod.orders.orders view.sql",
		"shop-prod.orders_derived.daily_totals_v1 query.sql",
		"shop-prod.orders_derived.manual_totals_v1 query.sql",
		"shop-prod.orders_derived.order_counts_v1 query.sql",
		"shop-prod.orders_derived.orders_archive_v1 query.sql",
		"shop-prod.orders_derived.orders_by_channel_v1 query.sql",
		"shop-prod.orders_derived.orders_v1 query.sql",
		"shop-prod.orders_derived.outlet_revenue_v1 query.sql",
		"shop-prod.orders_derived.revenue_monthly_v1 query.sql",
	}
	if !slices.Equal(names, want) {
		t.Errorf("objects %v, want %v", names, want)
	}
	root, ok := Root(objects[0].Dir)
	if !ok || root != treeFixture {
		t.Errorf("Root(%s) = %q, %v; want %q", objects[0].Dir, root, ok, treeFixture)
	}
	if _, ok := Root(filepath.Join(treeFixture, "shop-prod")); ok {
		t.Error("a dataset folder is not a table folder")
	}
}

func TestReferences(t *testing.T) {
	meta := []byte(`references:
  query.sql:
  - moz-fx-data-shared-prod.telemetry_stable.main_v5
  - telemetry_derived.clients_daily_v6
  - moz-fx-data-shared-prod.accounts_db_external.fxa_accounts_v1 for system_time
  - external_query('conn', 'select 1')
  - region-us.INFORMATION_SCHEMA.JOBS
  - c
  checks.sql:
  - moz-fx-data-shared-prod.telemetry_derived.other_v1
`)
	got, ok := References(meta, "query.sql", "moz-fx-data-shared-prod")
	want := []string{
		"moz-fx-data-shared-prod.telemetry_stable.main_v5",
		"moz-fx-data-shared-prod.telemetry_derived.clients_daily_v6",
		"moz-fx-data-shared-prod.accounts_db_external.fxa_accounts_v1",
	}
	if !ok || !slices.Equal(got, want) {
		t.Errorf("References = %v, %v; want %v", got, ok, want)
	}
	if _, ok := References(meta, "view.sql", "p"); ok {
		t.Error("no list for view.sql: the definition must be read")
	}
	if _, ok := References([]byte("friendly_name: x\n"), "query.sql", "p"); ok {
		t.Error("a metadata.yaml without references has none")
	}
}

func TestQualify(t *testing.T) {
	cases := []struct {
		parts []string
		want  string
		ok    bool
	}{
		{[]string{"P", "D", "T"}, "p.d.t", true},
		{[]string{"d", "t"}, "proj.d.t", true},
		{[]string{"t"}, "", false},
		{[]string{"proj", "d", "INFORMATION_SCHEMA", "PARTITIONS"}, "", false},
	}
	for _, c := range cases {
		got, ok := Qualify(sqlname.Relation{Parts: c.parts}, "proj")
		if got != c.want || ok != c.ok {
			t.Errorf("Qualify(%v) = %q, %v; want %q, %v", c.parts, got, ok, c.want, c.ok)
		}
	}
}

func TestReadLineage(t *testing.T) {
	check := func(t *testing.T, l *Lineage) {
		m := l.Manifest
		cases := []struct {
			name, materialized string
			parents            []string
		}{
			{"shop-prod.orders_derived.orders_v1", "incremental", []string{"shop-prod.orders_stable.orders_v1"}},
			{"shop-prod.orders.orders", "view", []string{"shop-prod.orders_derived.orders_v1"}},
			{"shop-prod.orders_derived.daily_totals_v1", "incremental", []string{"shop-prod.orders.orders"}},
			{"shop-prod.orders_derived.revenue_monthly_v1", "incremental", []string{"shop-prod.orders_derived.daily_totals_v1"}},
			{"shop-prod.orders_derived.order_counts_v1", "table", []string{"shop-prod.orders_derived.orders_v1"}},
			{"shop-prod.orders_derived.orders_archive_v1", Deprecated, []string{"shop-prod.orders_derived.orders_v1"}},
		}
		for _, c := range cases {
			n := m.Node(c.name)
			if n == nil {
				t.Errorf("%s is not in the lineage", c.name)
				continue
			}
			if n.Config.Materialized != c.materialized || !slices.Equal(m.Parents(c.name), c.parents) || l.ParentsOf(c.name) != FromSQL {
				t.Errorf("%s: %s with parents %v from %q; want %s with %v from SQL", c.name, n.Config.Materialized, m.Parents(c.name), l.ParentsOf(c.name), c.materialized, c.parents)
			}
		}
		for name, want := range map[string]string{"shop-prod.orders.all_stores": UnionView, "shop-prod.orders.orders": ""} {
			if n := m.Node(name); n == nil || n.Union != want {
				t.Errorf("%s: union %+v, want %q", name, n, want)
			}
		}
		if n := m.Node("shop-prod.orders_stable.orders_v1"); n == nil || n.ResourceType != "source" {
			t.Errorf("an ingestion table the tree does not define is a source; got %+v", n)
		}
	}
	l, err := ReadLineage(treeFixture, true)
	if err != nil {
		t.Fatal(err)
	}
	check(t, l)
	dir := filepath.Join(t.TempDir(), "cache")
	for range 2 { // written to the cache, then read from it
		l, err := ReadLineageCached(treeFixture, true, dir)
		if err != nil {
			t.Fatal(err)
		}
		check(t, l)
	}
	if entries, _ := filepath.Glob(filepath.Join(dir, "assembled-*.bin")); len(entries) != 1 {
		t.Errorf("cache entries %v, want one", entries)
	}
}

func TestMaterialization(t *testing.T) {
	table := Object{Definition: "query.sql"}
	cases := []struct {
		meta, want string
	}{
		{"bigquery:\n  time_partitioning:\n    type: day\n    field: d\nscheduling:\n  dag_name: bqetl_shop\n", "incremental"},
		// No DAG runs it: its partitions are no bqetl run's to recompute.
		{"bigquery:\n  time_partitioning:\n    type: day\n    field: d\n", Unscheduled},
		{"bigquery:\n  time_partitioning:\n    type: day\nscheduling:\n  depends_on_past: false\n", Unscheduled},
		{"bigquery:\n  time_partitioning:\n    type: day\nscheduling:\n  date_partition_parameter: null\n", "table"},
		{"friendly_name: no partitioning\n", "table"},
		{"deprecated: true\nbigquery:\n  time_partitioning:\n    type: day\n", Deprecated},
		{"labels:\n  deprecated: true\nbigquery:\n  time_partitioning:\n    type: day\n", Deprecated},
		{"labels:\n  deprecated: false\nbigquery:\n  time_partitioning:\n    type: day\nscheduling:\n  dag_name: bqetl_shop\n", "incremental"},
		{"not: [yaml", "table"},
	}
	for _, c := range cases {
		if got, _ := materialization(table, []byte(c.meta)); got != c.want {
			t.Errorf("materialization(%q) = %q, want %q", c.meta, got, c.want)
		}
	}
	if got, _ := materialization(Object{Definition: "view.sql", View: true}, nil); got != "view" {
		t.Errorf("a view is %q", got)
	}
	// What bqetl does with a run's rows, in dbt's words.
	for meta, want := range map[string]string{
		"bigquery:\n  time_partitioning:\n    type: day\nscheduling:\n  dag_name: bqetl_shop\n":                                "insert_overwrite",
		"scheduling:\n  dag_name: bqetl_shop\n  arguments: [--append_table]\nbigquery:\n  time_partitioning:\n    type: day\n": "append",
		"scheduling:\n  date_partition_parameter: null\n":                                                                      "",
	} {
		if _, got := materialization(table, []byte(meta)); got != want {
			t.Errorf("strategy of %q = %q, want %q", meta, got, want)
		}
	}
}

// A folder may keep capitals; SQL names are read folded, and the edge
// from a table's reader must still reach it.
func TestLineageKeepsCapitalizedTables(t *testing.T) {
	root := filepath.Join(t.TempDir(), "sql")
	files := map[string]string{
		"shop-prod/web_derived/share_of_URI_loads_v1/query.sql": "SELECT submission_date FROM `shop-prod.web_stable.loads_v1` WHERE submission_date = @submission_date",
		"shop-prod/web/share_of_URI_loads/view.sql":             "CREATE OR REPLACE VIEW `shop-prod.web.share_of_URI_loads` AS SELECT * FROM `shop-prod.web_derived.share_of_URI_loads_v1`",
	}
	testfs.Write(t, root, files)
	l, err := ReadLineage(root, false)
	if err != nil {
		t.Fatal(err)
	}
	view := l.Manifest.Node("shop-prod.web.share_of_URI_loads")
	if view == nil {
		t.Fatal("the view is no node")
	}
	if want := []string{"shop-prod.web_derived.share_of_URI_loads_v1"}; !slices.Equal(view.DependsOn.Nodes, want) {
		t.Errorf("the view depends on %v, want %v", view.DependsOn.Nodes, want)
	}
}
