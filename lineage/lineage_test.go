package lineage

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/bflint/bflint/parser/manifest"
)

// The hand-made manifests: shop has every kind of node a correction flows
// through or stops at; cycle has a loop in child_map that dbt would refuse
// but a hand-edited manifest may hold.
const (
	shopManifest  = "../testdata/lineage/shop/target/manifest.json"
	cycleManifest = "../testdata/lineage/cycle/manifest.json"
)

func load(t *testing.T, path string) (*Graph, *manifest.Manifest) {
	t.Helper()
	m, err := manifest.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return New(m), m
}

func equal(t *testing.T, what string, got, want []string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("%s:\n got %q\nwant %q", what, got, want)
	}
}

const target = "model.shop.fct_orders"

func TestShopDownstream(t *testing.T) {
	g, _ := load(t, shopManifest)
	equal(t, "Downstream", g.Downstream(target), []string{
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
		"snapshot.shop.orders_history",
	})
	equal(t, "Snapshots", g.Snapshots(target), []string{"snapshot.shop.orders_history"})
	// finance.orders_summary is a view too, but of a table built from the
	// target: it shows the correction only once that table is rebuilt.
	equal(t, "Views", g.Views(target), []string{"model.shop.dim_customers.v1", "model.shop.int_order_items"})
	equal(t, "Views of a view's source", g.Views("model.shop.stg_orders"), []string{"model.shop.orders"})
	// history_dashboard is reached only through the snapshot, and is still
	// told: it shows data derived from the target.
	equal(t, "Notify", g.Notify(target), []string{
		"exposure.shop.finance_dashboard",
		"exposure.shop.history_dashboard",
		"exposure.shop.metrics_app",
	})
	equal(t, "Downstream of a leaf", g.Downstream("model.shop.revenue_mv"), []string{})
	equal(t, "Downstream of an unknown id", g.Downstream("model.shop.nope"), nil)
	if len(g.Cycles()) != 0 {
		t.Errorf("Cycles = %q, want none", g.Cycles())
	}
}

func TestShopRebuild(t *testing.T) {
	g, m := load(t, shopManifest)
	got := g.Rebuild(target)
	// Required: tables, incrementals, the materialized view and the dynamic
	// table. Not: the ephemeral and view models between them (int_orders,
	// int_order_items, dim_customers.v1, orders_summary), the snapshot, the
	// table reached only through the snapshot (order_history_report), the
	// analysis, tests and unit tests.
	equal(t, "Rebuild", got, []string{
		"model.shop.revenue_daily",
		"model.shop.revenue_mv",
		"model.shop.finance_mart",
		"model.shop.orders_dt",
		"model.shop.customer_ltv",
		"model.shop.dim_customers.v2",
		"model.finance.orders",
	})
	checkOrder(t, m, got)
	equal(t, "Rebuild from a view", g.Rebuild("model.shop.int_order_items"), []string{"model.shop.customer_ltv"})
	// A corrected snapshot still feeds the models that read it.
	equal(t, "Rebuild from the snapshot", g.Rebuild("snapshot.shop.orders_history"), []string{
		"model.shop.order_history_report",
		"model.shop.finance_mart",
	})
	// Correcting a seed rebuilds the model that reads it, then what the
	// model feeds, in the same order.
	equal(t, "Rebuild from the seed", g.Rebuild("seed.shop.country_codes"), append([]string{target}, got...))
	equal(t, "Rebuild of an unknown id", g.Rebuild("model.shop.nope"), nil)
}

// checkOrder fails when a node of order comes before one of its ancestors
// that order also lists. Ancestors come from the manifest's parent lists,
// not from the graph under test.
func checkOrder(t *testing.T, m *manifest.Manifest, order []string) {
	t.Helper()
	pos := map[string]int{}
	for i, id := range order {
		pos[id] = i
	}
	for i, id := range order {
		seen := map[string]bool{id: true}
		queue := []string{id}
		for len(queue) > 0 {
			v := queue[0]
			queue = queue[1:]
			for _, p := range m.Parents(v) {
				if seen[p] {
					continue
				}
				seen[p] = true
				queue = append(queue, p)
				if j, ok := pos[p]; ok && j > i {
					t.Errorf("rebuild order puts %s (#%d) before its ancestor %s (#%d)", id, i+1, p, j+1)
				}
			}
		}
	}
}

func TestShopPath(t *testing.T) {
	g, _ := load(t, shopManifest)
	// finance_mart is one step from the snapshot, but required through
	// revenue_daily: the message must name that chain.
	equal(t, "Path to finance_mart", g.Path(target, "model.shop.finance_mart"),
		[]string{target, "model.shop.int_orders", "model.shop.revenue_daily", "model.shop.finance_mart"})
	equal(t, "Path to history_dashboard", g.Path(target, "exposure.shop.history_dashboard"),
		[]string{target, "snapshot.shop.orders_history", "model.shop.order_history_report", "exposure.shop.history_dashboard"})
	equal(t, "Path to itself", g.Path(target, target), []string{target})
	equal(t, "Path upstream", g.Path("model.shop.revenue_daily", target), nil)
	equal(t, "Path from an unknown id", g.Path("model.shop.nope", target), nil)
}

func TestMaterialization(t *testing.T) {
	g, _ := load(t, shopManifest)
	for id, want := range map[string]string{
		target:                            "incremental",
		"model.shop.int_orders":           "ephemeral",
		"model.shop.int_order_items":      "view",
		"model.shop.revenue_mv":           "materialized_view",
		"model.shop.orders_dt":            "dynamic_table",
		"snapshot.shop.orders_history":    "snapshot",
		"seed.shop.country_codes":         "seed",
		"exposure.shop.finance_dashboard": "",
		"source.shop.raw.orders":          "",
		"model.shop.nope":                 "",
		// Analyses record materialized "view" but build nothing.
		"analysis.shop.adhoc_revenue": "",
	} {
		if got := g.Materialization(id); got != want {
			t.Errorf("Materialization(%s) = %q, want %q", id, got, want)
		}
	}
	for id, want := range map[string]bool{
		target:                         true,
		"model.shop.orders_dt":         true,
		"model.shop.revenue_mv":        true,
		"model.shop.int_orders":        false,
		"model.shop.int_order_items":   false,
		"snapshot.shop.orders_history": false,
		"seed.shop.country_codes":      false,
		"source.shop.raw.orders":       false,
		"model.shop.nope":              false,
	} {
		if got := g.StoresRows(id); got != want {
			t.Errorf("StoresRows(%s) = %v, want %v", id, got, want)
		}
	}
}

// TestLongChain runs every traversal over a chain far deeper than a
// recursive walk could take comfortably, closed into a cycle at the end.
func TestLongChain(t *testing.T) {
	const n = 50000
	var b strings.Builder
	b.WriteString(`{"nodes": {`)
	id := func(i int) string { return fmt.Sprintf("model.p.m%06d", i) }
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		parent := id((i + n - 1) % n)
		mat := "table"
		if i%2 == 1 {
			mat = "view"
		}
		fmt.Fprintf(&b, `%q: {"resource_type": "model", "name": "m%06d", "package_name": "p", "schema": "s", "config": {"materialized": %q}, "depends_on": {"nodes": [%q]}}`, id(i), i, mat, parent)
	}
	b.WriteString(`}}`)
	m, err := manifest.Decode(strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	g := New(m)
	if c := g.Cycles(); len(c) != 1 || len(c[0]) != n {
		t.Fatalf("Cycles found %d cycles, want one of %d nodes", len(c), n)
	}
	if got := len(g.Downstream(id(0))); got != n-1 {
		t.Errorf("Downstream has %d nodes, want %d", got, n-1)
	}
	rebuild := g.Rebuild(id(0))
	if len(rebuild) != n/2-1 || rebuild[0] != id(2) || rebuild[len(rebuild)-1] != id(n-2) {
		t.Errorf("Rebuild has %d nodes from %s to %s, want %d from %s to %s", len(rebuild), rebuild[0], rebuild[len(rebuild)-1], n/2-1, id(2), id(n-2))
	}
	if p := g.Path(id(0), id(n-1)); len(p) != n {
		t.Errorf("Path has %d nodes, want %d", len(p), n)
	}
}

func TestResolve(t *testing.T) {
	g, _ := load(t, shopManifest)
	for _, tc := range []struct{ name, want string }{
		{"model.shop.fct_orders", target},
		{"MODEL.SHOP.FCT_ORDERS", target},
		{"fct_orders", target},
		{"Fct_Orders", target},
		{"analytics.fct_orders", target},
		{"ANALYTICS.FCT_ORDERS", target},
		{`"analytics"."fct_orders"`, target},
		{"analytics_db.analytics.fct_orders", target},
		{`"Analytics_DB".analytics."FCT_ORDERS"`, target},
		// A model is found by its alias as a relation, never by it as a name.
		{"analytics.orders_dynamic", "model.shop.orders_dt"},
		{"orders_dt", "model.shop.orders_dt"},
		// Versioned models: the bare name is the latest version.
		{"dim_customers", "model.shop.dim_customers.v2"},
		{"dim_customers.v1", "model.shop.dim_customers.v1"},
		{"analytics.dim_customers_v1", "model.shop.dim_customers.v1"},
		{"snapshots.orders_history", "snapshot.shop.orders_history"},
		{"orders_history", "snapshot.shop.orders_history"},
		{"country_codes", "seed.shop.country_codes"},
		// A source by source_name.table_name and by its relation.
		{"raw.orders", "source.shop.raw.orders"},
		{"raw_data.orders", "source.shop.raw.orders"},
		{"raw_db.raw_data.orders", "source.shop.raw.orders"},
		{"finance.orders", "model.finance.orders"},
		// Three parts against the three-part relation pick one of the two
		// revenue_daily tables that share schema and alias.
		{"eu_db.analytics.revenue_daily", "model.shop.revenue_daily_eu"},
		{"analytics_db.analytics.revenue_daily", "model.shop.revenue_daily"},
		// Names of other kinds answer when no model, snapshot, seed,
		// source or relation does.
		{"finance_dashboard", "exposure.shop.finance_dashboard"},
		{"revenue", "metric.shop.revenue"},
	} {
		got, err := g.Resolve(tc.name)
		if err != nil || got != tc.want {
			t.Errorf("Resolve(%q) = %q, %v; want %q", tc.name, got, err, tc.want)
		}
	}
}

func TestResolveAmbiguous(t *testing.T) {
	g, _ := load(t, shopManifest)
	for _, tc := range []struct {
		name string
		want []string
	}{
		// Two models called orders; the semantic model of that name is
		// not a candidate, as a model is what a plan means by it.
		{"orders", []string{"model.finance.orders", "model.shop.orders"}},
		{"analytics.revenue_daily", []string{"model.shop.revenue_daily", "model.shop.revenue_daily_eu"}},
	} {
		_, err := g.Resolve(tc.name)
		var amb *AmbiguousError
		if !errors.As(err, &amb) {
			t.Errorf("Resolve(%q): %v, want an AmbiguousError", tc.name, err)
			continue
		}
		equal(t, "candidates of "+tc.name, amb.Candidates, tc.want)
		for _, c := range tc.want {
			if !strings.Contains(err.Error(), c) {
				t.Errorf("Resolve(%q): message %q does not name %s", tc.name, err, c)
			}
		}
	}
}

func TestResolveUnknown(t *testing.T) {
	g, _ := load(t, shopManifest)
	for _, tc := range []struct{ name, suggestion string }{
		{"fct_ordrs", "fct_orders"},
		{"model.shop.fct_order", "model.shop.fct_orders"},
		{"analytics.fct_ordres", "analytics.fct_orders"},
		{`"analytics"."revenue_dialy"`, "analytics.revenue_daily"},
		{"raw.ordres", "raw.orders"},
		// Only the schema is wrong: the one relation of that name is meant.
		{"marts.customer_ltv", "analytics.customer_ltv"},
		{"completely_unrelated_name", ""},
		{"", ""},
		{"analytics..fct_orders", ""},
		// Tests are never a subject, so neither a match nor a suggestion.
		{"not_null_fct_orders_order_id", ""},
	} {
		got, err := g.Resolve(tc.name)
		var nf *NotFoundError
		if !errors.As(err, &nf) {
			t.Errorf("Resolve(%q) = %q, %v; want a NotFoundError", tc.name, got, err)
			continue
		}
		if nf.Suggestion() != tc.suggestion {
			t.Errorf("Resolve(%q) suggests %q, want %q", tc.name, nf.Suggestion(), tc.suggestion)
		}
		if tc.suggestion != "" && !strings.Contains(err.Error(), `did you mean "`+tc.suggestion+`"?`) {
			t.Errorf("Resolve(%q): message %q lacks the suggestion", tc.name, err)
		}
	}
}

func TestCycle(t *testing.T) {
	g, _ := load(t, cycleManifest)
	if got, want := g.Cycles(), [][]string{{"model.loop.a", "model.loop.b", "model.loop.c"}, {"model.loop.e"}}; !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("Cycles = %q, want %q", got, want)
	}
	// The loop leads back to a, which is still not its own descendant.
	equal(t, "Downstream(a)", g.Downstream("model.loop.a"), []string{"model.loop.b", "model.loop.c", "model.loop.d", "model.loop.f", "model.loop.ghost"})
	// ghost is in child_map only: followed, never required.
	equal(t, "Rebuild(a)", g.Rebuild("model.loop.a"), []string{"model.loop.c", "model.loop.f", "model.loop.d"})
	equal(t, "Rebuild(source)", g.Rebuild("source.loop.raw.events"), []string{"model.loop.a", "model.loop.c", "model.loop.f", "model.loop.d"})
	equal(t, "Downstream(e)", g.Downstream("model.loop.e"), []string{"exposure.loop.dash"})
	equal(t, "Rebuild(e)", g.Rebuild("model.loop.e"), []string{})
	equal(t, "Notify(e)", g.Notify("model.loop.e"), []string{"exposure.loop.dash"})
	equal(t, "Path(c, b)", g.Path("model.loop.c", "model.loop.b"), []string{"model.loop.c", "model.loop.a", "model.loop.b"})
	if _, err := g.Resolve("ghost"); err == nil {
		t.Error(`Resolve("ghost") found an id no section defines`)
	}
}

// TestConcurrentUse resolves from several goroutines at once, as rules do
// across plans, so that the race detector sees the lazily built indexes.
func TestConcurrentUse(t *testing.T) {
	g, _ := load(t, shopManifest)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if id, err := g.Resolve("analytics.fct_orders"); id != target || err != nil {
				t.Errorf("Resolve = %q, %v", id, err)
			}
			if _, err := g.Resolve("fct_ordrs"); err == nil {
				t.Error("Resolve(fct_ordrs) succeeded")
			}
			g.Rebuild(target)
		})
	}
	wg.Wait()
}
