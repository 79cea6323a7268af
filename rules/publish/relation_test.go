package publish

import (
	"slices"
	"testing"
)

func TestRelationParts(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"analytics.fct_orders", []string{"analytics", "fct_orders"}},
		{"analytics.FCT_ORDERS", []string{"analytics", "fct_orders"}},
		{`"Analytics".fct_orders`, []string{"analytics", "fct_orders"}},
		{`"PROD"."Analytics"."Fct_Orders"`, []string{"prod", "analytics", "fct_orders"}},
		{"prod.analytics.fct_orders", []string{"prod", "analytics", "fct_orders"}},
		{"`my-project.analytics`.fct_orders", []string{"my-project.analytics", "fct_orders"}},
		{`"odd.schema".t`, []string{"odd.schema", "t"}},
		{`"say ""hi""".t`, []string{`say "hi"`, "t"}},
		{`"with space".t`, []string{"with space", "t"}},
		{" analytics . fct_orders ", []string{"analytics", "fct_orders"}},
		{"fct_orders", []string{"fct_orders"}},
		{"db..fct_orders", []string{"db", "", "fct_orders"}},
		{`"unclosed.t`, []string{"unclosed.t"}},
		{"", []string{""}},
	} {
		if got := relationParts(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("relationParts(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestSchemaOf(t *testing.T) {
	for _, tc := range []struct {
		in         string
		db, schema string
		ok         bool
	}{
		{"analytics.fct_orders", "", "analytics", true},
		{`"Prod"."Analytics".fct_orders`, "prod", "analytics", true},
		{"fct_orders", "", "", false},
		{"db..fct_orders", "", "", false},
	} {
		db, schema, ok := schemaOf(relationParts(tc.in))
		if db != tc.db || schema != tc.schema || ok != tc.ok {
			t.Errorf("schemaOf(%q) = %q, %q, %v, want %q, %q, %v", tc.in, db, schema, ok, tc.db, tc.schema, tc.ok)
		}
	}
}

func TestIsNodeID(t *testing.T) {
	for in, want := range map[string]bool{
		"model.shop.fct_orders":        true,
		"model.shop.fct_orders.v2":     true,
		"snapshot.shop.orders_history": true,
		"prod.analytics.fct_orders":    false,
		"analytics.fct_orders":         false,
		"model.fct_orders":             false,
		"fct_orders":                   false,
	} {
		if got := isNodeID(relationParts(in)); got != want {
			t.Errorf("isNodeID(%q) = %v, want %v", in, got, want)
		}
	}
}

func TestSameSchema(t *testing.T) {
	for _, tc := range []struct {
		staging, target string
		want            bool
	}{
		{"analytics.fct_orders_new", "analytics.fct_orders", true},
		{`"Analytics".fct_orders_new`, "ANALYTICS.fct_orders", true},
		{"analytics.fct_orders_new", "prod.analytics.fct_orders", true},
		{"prod.analytics.fct_orders_new", "prod.analytics.fct_orders", true},
		{"scratch.analytics.fct_orders_new", "prod.analytics.fct_orders", false},
		{"backfill_staging.fct_orders__bf1", "analytics.fct_orders", false},
		{"analytics.fct_orders__bf1", "model.shop.fct_orders", false},
		{"analytics.fct_orders__bf1", "fct_orders", false},
		{"fct_orders__bf1", "analytics.fct_orders", false},
	} {
		if got := sameSchema(relationParts(tc.staging), relationParts(tc.target)); got != tc.want {
			t.Errorf("sameSchema(%q, %q) = %v, want %v", tc.staging, tc.target, got, tc.want)
		}
	}
}
