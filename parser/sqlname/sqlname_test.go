package sqlname

import (
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	cases := []struct {
		in, parts, key, schema string
	}{
		{"analytics.fct_orders", "analytics|fct_orders", "analytics|fct_orders", "analytics"},
		{`Prod."Analytics".Fct_Orders`, "Prod|Analytics|Fct_Orders", "prod|analytics|fct_orders", "Analytics"},
		{`"my.db".sch."a""b"`, `my.db|sch|a"b`, `my.db|sch|a"b`, "sch"},
		{"`proj.ds`.`t`", "proj.ds|t", "proj.ds|t", "proj.ds"},
		{" analytics . fct_orders ", "analytics|fct_orders", "analytics|fct_orders", "analytics"},
		{"fct_orders", "fct_orders", "fct_orders", ""},
		{"", "", "", ""},
	}
	for _, c := range cases {
		r := Parse(c.in)
		if got := strings.Join(r.Parts, "|"); got != c.parts {
			t.Errorf("%q: parts %q, want %q", c.in, got, c.parts)
		}
		if got := strings.Join(r.Key(), "|"); got != c.key {
			t.Errorf("%q: key %q, want %q", c.in, got, c.key)
		}
		if r.Schema() != c.schema {
			t.Errorf("%q: schema %q, want %q", c.in, r.Schema(), c.schema)
		}
		if r.Offset != -1 {
			t.Errorf("%q: offset %d, want -1 for a name outside SQL", c.in, r.Offset)
		}
		// Name must read back into the same parts, quoting where needed.
		if back := Parse(r.Name()); strings.Join(back.Parts, "|") != c.parts {
			t.Errorf("%q: Name() %q reads back as %q", c.in, r.Name(), back.Parts)
		}
	}
}

func TestRelationMatches(t *testing.T) {
	cases := []struct {
		a, b string
		want bool
	}{
		{"analytics.fct_orders", "ANALYTICS.FCT_ORDERS", true},
		{`"analytics"."fct_orders"`, "analytics.fct_orders", true},
		{"analytics.fct_orders", "prod.analytics.fct_orders", true},
		{"prod.analytics.fct_orders", "analytics.fct_orders", true},
		{"fct_orders", "prod.analytics.fct_orders", true},
		{"staging.fct_orders", "analytics.fct_orders", false},
		{"dev.analytics.fct_orders", "prod.analytics.fct_orders", false},
		{"analytics.fct_orders", "analytics.fct_orders_v2", false},
		{"", "fct_orders", false},
	}
	for _, c := range cases {
		a, b := Parse(c.a), Parse(c.b)
		if got := a.Matches(b); got != c.want {
			t.Errorf("%q matches %q = %v, want %v", c.a, c.b, got, c.want)
		}
		if a.Matches(b) != b.Matches(a) {
			t.Errorf("%q and %q: Matches is not symmetric", c.a, c.b)
		}
	}
}

// Every adapter's quoting reads as the same parts, and SQL renders them so
// that a PostgreSQL-syntax parser reads the name back.
func TestAdapterQuoting(t *testing.T) {
	cases := []struct{ in, parts, sql string }{
		{"`proj`.`ds`.`fct_events`", "proj|ds|fct_events", "proj.ds.fct_events"},
		{"`moz-fx-data-shared-prod`.`telemetry`.`t`", "moz-fx-data-shared-prod|telemetry|t", `"moz-fx-data-shared-prod".telemetry.t`},
		{"[dw].[dbo].[Orders]", "dw|dbo|Orders", "dw.dbo.Orders"},
		{"[a]]b].c", "a]b|c", `"a]b".c`},
		{`"ANALYTICS"."PUBLIC"."ORDERS"`, "ANALYTICS|PUBLIC|ORDERS", "ANALYTICS.PUBLIC.ORDERS"},
		{`"my db"."a""b"`, `my db|a"b`, `"my db"."a""b"`},
		{"analytics.2024_orders", "analytics|2024_orders", `analytics."2024_orders"`},
	}
	for _, c := range cases {
		r := Parse(c.in)
		if got := strings.Join(r.Parts, "|"); got != c.parts {
			t.Errorf("%q: parts %q, want %q", c.in, got, c.parts)
		}
		if got := r.SQL(); got != c.sql {
			t.Errorf("%q: SQL %q, want %q", c.in, got, c.sql)
		}
		if back := Parse(r.SQL()); strings.Join(back.Parts, "|") != c.parts {
			t.Errorf("%q: SQL() %q reads back as %q", c.in, r.SQL(), back.Parts)
		}
	}
}
