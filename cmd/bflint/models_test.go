package main

import (
	"bytes"
	"encoding/json"
	"testing"
)

// TestModelsBqetlTree lists the tables of a bigquery-etl tree: each run
// for the date bqetl binds, with the window over which it reads each
// relation (a 28-day rolling table, a bit history that carries 28 days).
func TestModelsBqetlTree(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run([]string{"models", "--format", "json", "../../testdata/rules/BF809/sql"}, &stdout, &stderr); code != exitClean {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var doc struct {
		Models []struct {
			Name, Kind, Range, Materialized string
			Reads                           []struct{ Relation, Window string }
		}
	}
	if err := json.Unmarshal(stdout.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"shop-prod.orders_derived.orders_rolling_28d_v1": "days -27..0",
		"shop-prod.orders_derived.orders_last_seen_v1":   "days -27..0",
		"shop-prod.orders_derived.orders_daily_v1":       "same",
	}
	for _, m := range doc.Models {
		w, ok := want[m.Name]
		if !ok {
			continue
		}
		delete(want, m.Name)
		if m.Kind != "bqetl" || m.Range != "parameter" || m.Materialized != "incremental" {
			t.Errorf("%s: kind %s, range %s, materialized %s", m.Name, m.Kind, m.Range, m.Materialized)
		}
		if len(m.Reads) != 1 || m.Reads[0].Relation != "shop-prod.orders_derived.orders_v1" || m.Reads[0].Window != w {
			t.Errorf("%s reads %+v, want orders_v1 over %s", m.Name, m.Reads, w)
		}
	}
	if len(want) > 0 {
		t.Errorf("not listed: %v\n%s", want, stdout.String())
	}
}
