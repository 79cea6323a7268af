package rules

import (
	"go/token"
	"testing"

	"github.com/bflint/bflint/parser/config"
	"github.com/bflint/bflint/parser/manifest"
	"github.com/bflint/bflint/parser/plan"
	"github.com/bflint/bflint/parser/source"
	"github.com/bflint/bflint/parser/sqlname"
)

func passFor(t *testing.T, planText string) *Pass {
	t.Helper()
	var p *plan.Plan
	if planText != "" {
		f := source.Add(token.NewFileSet(), "p.backfill.yaml", []byte("bflint: 1\nid: bf1\n"+planText))
		p = plan.Parse(f)
		if len(p.Problems) > 0 {
			t.Fatalf("plan: %v", p.Problems)
		}
	}
	return &Pass{Plan: p, Config: &config.Config{}}
}

func TestIsStaging(t *testing.T) {
	cases := []struct {
		name, plan string
		staging    []string
		other      []string
	}{
		{
			name:    "own schema and default patterns",
			plan:    "target: analytics.fct_orders\nstaging:\n  relation: backfill_staging.fct_orders__bf1\n",
			staging: []string{"backfill_staging.fct_orders__bf1", "BACKFILL_STAGING.\"fct_orders__bf1_control\"", "prod.backfill_staging.x", "orders_staging.t", "staging_2026.t"},
			other:   []string{"analytics.fct_orders", "analytics.revenue_daily", "fct_orders__bf1_copy", "raw.orders"},
		},
		{
			name:    "staging inside the target's schema: only names that start with it",
			plan:    "target: analytics.fct_orders\nstaging:\n  relation: analytics.fct_orders__bf1\n",
			staging: []string{"analytics.fct_orders__bf1", "analytics.fct_orders__bf1_control"},
			other:   []string{"analytics.fct_orders", "analytics.revenue_daily"},
		},
		{
			name:    "standalone SQL: patterns only",
			staging: []string{"backfill_staging.t", "db.etl_staging.t"},
			other:   []string{"analytics.t", "t"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := passFor(t, c.plan)
			for _, n := range c.staging {
				if !p.IsStaging(sqlname.Parse(n)) {
					t.Errorf("%s should be staging", n)
				}
			}
			for _, n := range c.other {
				if p.IsStaging(sqlname.Parse(n)) {
					t.Errorf("%s should not be staging", n)
				}
			}
		})
	}
}

func TestIsTargetAndPartitionColumn(t *testing.T) {
	p := passFor(t, "target: model.shop.fct_orders\nrange:\n  partition_column: Order_Date\n")
	if !p.IsTarget(sqlname.Parse("analytics.FCT_ORDERS")) || p.IsTarget(sqlname.Parse("analytics.fct_orders_v2")) {
		t.Error("a dbt unique_id target matches relations by model name only")
	}
	if !p.IsPartitionColumn("order_date") || p.IsPartitionColumn("ds") {
		t.Error("the plan's partition_column replaces the patterns")
	}
	standalone := passFor(t, "")
	for col, want := range map[string]bool{"ds": true, "date": true, "order_date": true, "event_hour": true, "event_time": true, "order_id": false, "block_timestamp": false} {
		if standalone.IsPartitionColumn(col) != want {
			t.Errorf("IsPartitionColumn(%q) = %v", col, !want)
		}
	}
	// A table's declared partition field counts whatever its name.
	declared := passFor(t, "")
	model := &manifest.Node{}
	model.Config.PartitionBy.Field = "Block_Timestamp"
	declared.Unit = &Unit{SQL: []*SQLFile{{Model: model}, {Bqetl: &BqetlQuery{Partition: "received_at"}}}}
	for col, want := range map[string]bool{"block_timestamp": true, "received_at": true, "updated_at": false, "ds": true} {
		if declared.IsPartitionColumn(col) != want {
			t.Errorf("with declared partition fields, IsPartitionColumn(%q) = %v", col, !want)
		}
	}
}
