package runsql

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/bflint/bflint/parser/plan"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// Spec of the goldens: the example's correction of fct_orders.
func goldenSpec(d Dialect) Spec {
	s := Spec{
		Dialect: d, Target: "analytics.fct_orders", Staging: "backfill_staging.fct_orders__bf20260826_a",
		Rollback: "backfill_rollback.fct_orders__pre_bf20260826_a", PartitionColumn: "order_date", Grain: plan.Day,
		Start: time.Date(2026, 1, 14, 0, 0, 0, 0, time.UTC), End: time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC),
		Key: []string{"order_id"},
	}
	start, end := time.Date(2026, 1, 14, 0, 0, 0, 0, time.UTC), time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	cs, ce := time.Date(2026, 1, 7, 0, 0, 0, 0, time.UTC), time.Date(2026, 1, 13, 0, 0, 0, 0, time.UTC)
	s.Build = []Query{{start, end, goldenModel}}
	s.Control = &Control{Start: cs, End: ce, Build: []Query{{cs, ce, goldenModel}}}
	return s
}

const goldenModel = "SELECT order_id, order_date, amount_minor,\n       CASE WHEN is_refunded THEN 0 ELSE amount_minor END AS net_amount_minor\nFROM raw.orders_events"

func TestControlBefore(t *testing.T) {
	day := func(s string) time.Time { d, _ := time.Parse(time.DateOnly, s); return d }
	for _, tt := range []struct {
		g                  plan.Grain
		start, end, cs, ce string
	}{
		{plan.Day, "2026-01-14", "2026-06-30", "2026-01-07", "2026-01-13"},
		{plan.Day, "2026-03-01", "2026-03-03", "2026-02-26", "2026-02-28"},
		{plan.Month, "2026-03-01", "2026-04-01", "2026-01-01", "2026-02-01"},
	} {
		cs, ce := ControlBefore(tt.g, day(tt.start), day(tt.end))
		if cs != day(tt.cs) || ce != day(tt.ce) {
			t.Errorf("ControlBefore(%s, %s..%s) = %s..%s, want %s..%s", tt.g, tt.start, tt.end, cs.Format(time.DateOnly), ce.Format(time.DateOnly), tt.cs, tt.ce)
		}
	}
}

// TestGolden keeps each dialect's set under testdata/runsql/DIALECT, and
// a bigquery-etl build under bigquery_per_partition. What init writes
// from them is linted in cmd/bflint (init_sql_test.go,
// init_bqetl_plan_test.go), which expects no finding on the SQL.
func TestGolden(t *testing.T) {
	sets := map[string]Spec{}
	for _, d := range Dialects {
		sets[string(d)] = goldenSpec(d)
	}
	// A bigquery-etl table's build: its query bound to each day.
	perDay := goldenSpec(BigQuery)
	perDay.End = perDay.Start.AddDate(0, 0, 1)
	bound := func(p time.Time) Query {
		return Query{p, p, "SELECT order_id, order_date, amount_minor\nFROM raw.orders_events\nWHERE order_date = DATE '" + p.Format("2006-01-02") + "'"}
	}
	perDay.Build = nil
	for p := perDay.Start; !p.After(perDay.End); p = p.AddDate(0, 0, 1) {
		perDay.Build = append(perDay.Build, bound(p))
	}
	cs, ce := ControlBefore(plan.Day, perDay.Start, perDay.End)
	perDay.Control = &Control{Start: cs, End: ce}
	for p := cs; !p.After(ce); p = p.AddDate(0, 0, 1) {
		perDay.Control.Build = append(perDay.Control.Build, bound(p))
	}
	sets["bigquery_per_partition"] = perDay
	for name, spec := range sets {
		for _, f := range Generate(spec) {
			if name == "bigquery_per_partition" && f.Name != "build.sql" && f.Name != "validate_control.sql" {
				continue
			}
			path := filepath.Join("..", "..", "testdata", "runsql", name, f.Name)
			if *update {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(f.Text), 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./internal/runsql -update)", err)
			}
			if string(want) != f.Text {
				t.Errorf("%s differs from what Generate writes (run go test ./internal/runsql -update):\n%s", path, f.Text)
			}
		}
	}
}
