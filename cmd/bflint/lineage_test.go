package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const shopManifest = "../../testdata/lineage/shop/target/manifest.json"

// runLineage runs bflint lineage with args and returns the exit code and
// both streams.
func runLineage(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(append([]string{"lineage"}, args...), &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

// TestLineageJSON checks the whole JSON document, with the target given as
// a relation and the flags after it.
func TestLineageJSON(t *testing.T) {
	code, stdout, stderr := runLineage(t, `"ANALYTICS".fct_orders`, "--manifest", shopManifest, "--format", "json")
	if code != exitClean {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	const want = `{
  "target": "model.shop.fct_orders",
  "downstream": [
    "analysis.shop.adhoc_revenue",
    "exposure.shop.finance_dashboard",
    "exposure.shop.history_dashboard",
    "exposure.shop.metrics_app",
    "metric.shop.revenue",
    "model.finance.orders",
    "model.finance.orders_summary",
    "model.shop.customer_ltv",
    "model.shop.dim_customers.v1",
    "model.shop.dim_customers.v2",
    "model.shop.finance_mart",
    "model.shop.int_order_items",
    "model.shop.int_orders",
    "model.shop.order_history_report",
    "model.shop.orders_dt",
    "model.shop.revenue_daily",
    "model.shop.revenue_mv",
    "semantic_model.shop.orders",
    "snapshot.shop.orders_history"
  ],
  "rebuild": [
    "model.shop.revenue_daily",
    "model.shop.revenue_mv",
    "model.shop.finance_mart",
    "model.shop.orders_dt",
    "model.shop.customer_ltv",
    "model.shop.dim_customers.v2",
    "model.finance.orders"
  ],
  "notify": [
    "exposure.shop.finance_dashboard",
    "exposure.shop.history_dashboard",
    "exposure.shop.metrics_app"
  ],
  "snapshots": [
    "snapshot.shop.orders_history"
  ]
}
`
	if stdout != want {
		t.Errorf("JSON output:\n%s\nwant:\n%s", stdout, want)
	}
}

// TestLineageJSONEmpty keeps empty lists as [] for consumers that index them.
func TestLineageJSONEmpty(t *testing.T) {
	code, stdout, stderr := runLineage(t, "--format", "json", "--manifest", shopManifest, "revenue_mv")
	if code != exitClean {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	want := "{\n  \"target\": \"model.shop.revenue_mv\",\n  \"downstream\": [],\n  \"rebuild\": [],\n  \"notify\": [],\n  \"snapshots\": []\n}\n"
	if stdout != want {
		t.Errorf("JSON output:\n%s\nwant:\n%s", stdout, want)
	}
}

func TestLineageText(t *testing.T) {
	code, stdout, stderr := runLineage(t, "fct_orders", "--manifest", shopManifest)
	if code != exitClean {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, line := range []string{
		"model.shop.fct_orders (incremental, merge) [target]",
		"├── model.shop.int_orders (ephemeral)",
		"│   └── model.shop.revenue_daily (table) [rebuild 1]",
		"│       ├── analysis.shop.adhoc_revenue (analysis)",
		"│       │   └── exposure.shop.finance_dashboard (exposure) [notify]",
		"│   └── model.shop.customer_ltv (incremental, microbatch) [rebuild 5]",
		"└── snapshot.shop.orders_history (snapshot) [snapshot: cannot be rebuilt]",
		"    ├── model.shop.finance_mart (table) [rebuild 3] (children shown above)",
		"    └── model.shop.order_history_report (table) [not rebuilt: derived only through a snapshot]",
		"Rebuild, in this order (7):",
		"  1. model.shop.revenue_daily (table)",
		"  2. model.shop.revenue_mv (materialized_view)",
		"  7. model.finance.orders (table)",
		"Snapshots (1): cannot be rebuilt; re-running one records the corrected values as new versions valid from now.",
		"  snapshot.shop.orders_history",
		"Notify (3):",
		"  exposure.shop.metrics_app",
	} {
		if !strings.Contains(stdout, line+"\n") {
			t.Errorf("text output lacks the line %q:\n%s", line, stdout)
		}
	}
	if strings.Contains(stdout, "test.shop.") || strings.Contains(stdout, "unit_test.shop.") {
		t.Errorf("text output shows tests:\n%s", stdout)
	}
}

func TestLineageCycle(t *testing.T) {
	code, stdout, stderr := runLineage(t, "model.loop.a", "--manifest", "../../testdata/lineage/cycle/manifest.json")
	if code != exitClean {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, line := range []string{
		"        └── model.loop.ghost (not defined in the manifest)",
		"Notify: no exposure is derived from the target.",
		"Cycle among model.loop.a, model.loop.b, model.loop.c: each is built from another, so no rebuild order can satisfy it.",
	} {
		if !strings.Contains(stdout, line+"\n") {
			t.Errorf("text output lacks the line %q:\n%s", line, stdout)
		}
	}

	code, stdout, stderr = runLineage(t, "e", "--manifest", "../../testdata/lineage/cycle/manifest.json")
	if code != exitClean {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, line := range []string{
		"model.loop.e (table) [target]",
		"└── exposure.loop.dash (exposure) [notify]",
		"Rebuild: nothing must be rebuilt.",
		"Cycle among model.loop.e: each is built from another, so no rebuild order can satisfy it.",
	} {
		if !strings.Contains(stdout, line+"\n") {
			t.Errorf("text output lacks the line %q:\n%s", line, stdout)
		}
	}
}

// TestLineageDiscovery finds the manifest from a folder inside the dbt
// project, through dbt_project.yml's target-path.
func TestLineageDiscovery(t *testing.T) {
	manifest, err := os.ReadFile(shopManifest)
	if err != nil {
		t.Fatal(err)
	}
	project := t.TempDir()
	for path, data := range map[string]string{
		"dbt_project.yml":     "name: shop\ntarget-path: \"build\"  # compiled artifacts\nclean-targets: [build]\n",
		"build/manifest.json": string(manifest),
		"models/marts/.keep":  "",
	} {
		path = filepath.Join(project, filepath.FromSlash(path))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(filepath.Join(project, "models", "marts"))
	code, stdout, stderr := runLineage(t, "--format=json", "raw.orders")
	if code != exitClean {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.HasPrefix(stdout, "{\n  \"target\": \"source.shop.raw.orders\",\n") {
		t.Errorf("JSON output:\n%s", stdout)
	}

	if err := os.Remove(filepath.Join(project, "build", "manifest.json")); err != nil {
		t.Fatal(err)
	}
	// Without the manifest the project's own files are the lineage, and
	// this project declares no source.
	code, _, stderr = runLineage(t, "raw.orders")
	want := `target "raw.orders" is not in the lineage (lineage of ` + filepath.Join("..", "..", "dbt_project.yml") + ")"
	if code != exitUsage || !strings.Contains(stderr, want) {
		t.Errorf("without the manifest: exit %d, stderr %q; want 2 and %q", code, stderr, want)
	}
}

func TestLineageUsageErrors(t *testing.T) {
	truncated := filepath.Join(t.TempDir(), "manifest.json")
	data, err := os.ReadFile(shopManifest)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(truncated, data[:len(data)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"fct_ordrs", "--manifest", shopManifest}, `target "fct_ordrs" is not in the lineage; did you mean "fct_orders"?`},
		{[]string{"orders", "--manifest", shopManifest}, `target "orders" is ambiguous: it names "model.finance.orders", "model.shop.orders"`},
		{[]string{"fct_orders", "--manifest", truncated}, "it is truncated"},
		{[]string{"fct_orders", "--manifest", filepath.Join(t.TempDir(), "none.json")}, "none.json: no such file or directory"},
		{[]string{"--manifest", shopManifest}, "lineage takes one target"},
		{[]string{"fct_orders", "revenue_mv", "--manifest", shopManifest}, "lineage takes one target"},
		{[]string{"fct_orders", "--manifest", shopManifest, "--format", "sarif"}, `lineage --format "sarif": use text or json`},
		{[]string{"fct_orders", "--depth", "2"}, "flag provided but not defined: -depth"},
	} {
		code, stdout, stderr := runLineage(t, tc.args...)
		if code != exitUsage || !strings.Contains(stderr, tc.want) || stdout != "" {
			t.Errorf("lineage %q: exit %d, stdout %q, stderr %q; want exit 2 and %q", tc.args, code, stdout, stderr, tc.want)
		}
	}
}

func TestLineageHelp(t *testing.T) {
	code, stdout, _ := runLineage(t, "--help")
	if code != exitClean || !strings.Contains(stdout, "Usage: bflint lineage TARGET") || !strings.Contains(stdout, "-manifest FILE") {
		t.Errorf("lineage --help: exit %d\n%s", code, stdout)
	}
}

// TestLineageDeepTree keeps a long chain's tree to a bounded indentation
// while the rebuild list still names every model.
func TestLineageDeepTree(t *testing.T) {
	const n = 3 * maxTreeDepth
	var b strings.Builder
	b.WriteString(`{"nodes": {`)
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		parent := ""
		if i > 0 {
			parent = fmt.Sprintf(`"model.p.m%03d"`, i-1)
		}
		fmt.Fprintf(&b, `"model.p.m%03d": {"resource_type": "model", "name": "m%03d", "config": {"materialized": "table"}, "depends_on": {"nodes": [%s]}}`, i, i, parent)
	}
	b.WriteString(`}}`)
	path := filepath.Join(t.TempDir(), "manifest.json")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runLineage(t, "m000", "--manifest", path)
	if code != exitClean {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	cut := fmt.Sprintf("%s└── model.p.m%03d (table) [rebuild %d] (deeper nodes not shown)\n", strings.Repeat("    ", maxTreeDepth-1), maxTreeDepth, maxTreeDepth)
	if !strings.Contains(stdout, cut) {
		t.Errorf("the tree is not cut at depth %d:\n%s", maxTreeDepth, stdout)
	}
	if last := fmt.Sprintf("  %d. model.p.m%03d (table)\n", n-1, n-1); !strings.Contains(stdout, last) {
		t.Errorf("the rebuild list lacks %q:\n%s", last, stdout)
	}
}

// TestLineageBqetlTree reads the lineage of a bigquery-etl tree, found from
// the working directory, and lists the tables that need entries apart
// from the one written whole.
func TestLineageBqetlTree(t *testing.T) {
	tree, err := filepath.Abs("../../testdata/rules/BF801/bqetl/sql")
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("BFLINT_CACHE_DIR", "off")
	t.Chdir(filepath.Join(tree, "shop-prod", "orders"))
	code, stdout, stderr := runLineage(t, "orders_derived.orders_v1", "--format", "json")
	if code != exitClean {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	const want = `{
  "target": "shop-prod.orders_derived.orders_v1",
  "downstream": [
    "shop-prod.orders.all_stores",
    "shop-prod.orders.orders",
    "shop-prod.orders_derived.daily_totals_v1",
    "shop-prod.orders_derived.manual_totals_v1",
    "shop-prod.orders_derived.order_counts_v1",
    "shop-prod.orders_derived.orders_archive_v1",
    "shop-prod.orders_derived.orders_by_channel_v1",
    "shop-prod.orders_derived.outlet_revenue_v1",
    "shop-prod.orders_derived.revenue_monthly_v1"
  ],
  "rebuild": [
    "shop-prod.orders_derived.orders_by_channel_v1",
    "shop-prod.orders_derived.orders_archive_v1",
    "shop-prod.orders_derived.order_counts_v1",
    "shop-prod.orders_derived.manual_totals_v1",
    "shop-prod.orders_derived.daily_totals_v1",
    "shop-prod.orders_derived.revenue_monthly_v1",
    "shop-prod.orders_derived.outlet_revenue_v1"
  ],
  "notify": [],
  "snapshots": [],
  "backfill": [
    "shop-prod.orders_derived.orders_by_channel_v1",
    "shop-prod.orders_derived.daily_totals_v1",
    "shop-prod.orders_derived.revenue_monthly_v1"
  ],
  "through_union": [
    "shop-prod.orders_derived.outlet_revenue_v1"
  ]
}
`
	if stdout != want {
		t.Errorf("got\n%s\nwant\n%s", stdout, want)
	}
	code, stdout, stderr = runLineage(t, "--tree", tree, "shop-prod.orders_derived.orders_v1")
	if code != exitClean {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, line := range []string{
		"├── shop-prod.orders.orders (view)",
		"│   └── shop-prod.orders_derived.daily_totals_v1 (incremental, insert_overwrite) [rebuild 5]",
		"├── shop-prod.orders_derived.manual_totals_v1 (unscheduled) [rebuild 4]",
		"├── shop-prod.orders_derived.orders_archive_v1 (deprecated) [rebuild 2]",
		"Backfill entries needed, in the order above (3 incremental tables); the 1 table written whole is recomputed by its next scheduled run; 1 deprecated table(s) need none; 1 table(s) no DAG schedules need none:",
		"│   ├── shop-prod.orders.all_stores (view, union)",
		"Through a union only (1 incremental table(s)): each reads the target through a view marked union that combines it with other relations; whether it reads the target's rows depends on its filters:",
		"  shop-prod.orders_derived.outlet_revenue_v1",
		"Through views: 3 of the 7 tables read the target only through views or other tables; 4 read it directly.",
	} {
		if !strings.Contains(stdout, line+"\n") {
			t.Errorf("output lacks %q:\n%s", line, stdout)
		}
	}
}

// TestLineageWindows prints, for a bigquery-etl tree, the window over
// which each table to rebuild reads the target and the range it is then
// rebuilt over; a table reading one partition per partition has none.
func TestLineageWindows(t *testing.T) {
	code, stdout, stderr := runLineage(t, "shop-prod.orders_derived.orders_v1", "--tree", "../../testdata/rules/BF809/sql")
	if code != exitClean {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		"shop-prod.orders_derived.orders_rolling_28d_v1 (incremental, insert_overwrite) [reads it over days -27..0: rebuild S..E+27]",
		"shop-prod.orders_derived.orders_last_seen_v1 (incremental, insert_overwrite) [reads it over days -27..0: rebuild S..E+27]",
		"shop-prod.orders_derived.orders_daily_v1 (incremental, insert_overwrite) [rebuild",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("missing %q in:\n%s", want, stdout)
		}
	}
	_, js, _ := runLineage(t, "shop-prod.orders_derived.orders_v1", "--tree", "../../testdata/rules/BF809/sql", "--format", "json")
	if !strings.Contains(js, `"node": "shop-prod.orders_derived.orders_rolling_28d_v1",
      "window": "days -27..0",
      "rebuild": "S..E+27"`) {
		t.Errorf("JSON windows missing:\n%s", js)
	}
}

// A folder after the target is where the lineage is found, as if the
// command ran there; a second word that is no folder is still refused.
func TestLineageFromAFolder(t *testing.T) {
	code, stdout, stderr := runLineage(t, "fct_orders", "../../testdata/lineage/shop", "--format", "json")
	if code != exitClean || !strings.Contains(stdout, `"target": "model.shop.fct_orders"`) {
		t.Errorf("from the project's folder: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	code, _, stderr = runLineage(t, "fct_orders", "no_such_folder")
	if code != exitUsage || !strings.Contains(stderr, "at most a folder to find the lineage in") {
		t.Errorf("a second word that is no folder: exit %d, stderr %q", code, stderr)
	}
	code, _, stderr = runLineage(t, "fct_orders", "../../testdata/lineage/shop", "--manifest", shopManifest)
	if code != exitUsage || !strings.Contains(stderr, "not both") {
		t.Errorf("a folder and --manifest: exit %d, stderr %q", code, stderr)
	}
}
