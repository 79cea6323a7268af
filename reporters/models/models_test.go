package models

import (
	"strings"
	"testing"
)

func TestParseFilter(t *testing.T) {
	f, err := ParseFilter("Range=clock, watermark")
	if err != nil || f.Field != "range" || strings.Join(f.Values, "|") != "clock|watermark" {
		t.Errorf("ParseFilter = %+v, %v", f, err)
	}
	for _, bad := range []string{"range", "range=", "colour=red", "range=clok"} {
		if _, err := ParseFilter(bad); err == nil {
			t.Errorf("ParseFilter(%q) accepted", bad)
		}
	}
}

func TestMatches(t *testing.T) {
	r := Row{Name: "orders", Kind: "dbt", Materialized: "incremental", Strategy: "merge", Rerun: "safe", Range: "clock"}
	clock, _ := ParseFilter("range=clock,watermark")
	table, _ := ParseFilter("materialized=table")
	if !matches(r, []Filter{clock}) || matches(r, []Filter{clock, table}) {
		t.Error("filters are alternatives within one --where and all must hold across them")
	}
}
