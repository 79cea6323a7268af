package bqetl

import (
	"slices"
	"testing"

	"github.com/bflint/bflint/parser/yamlx"
)

func TestEntryColumns(t *testing.T) {
	for _, c := range []struct {
		reason string
		want   []string
	}{
		{"Populate the play_store_attribution_* fields for clients first seen after the fix", []string{"play_store_attribution_*"}},
		{"Backfill the new adjust_network and install_source columns", []string{"adjust_network", "install_source"}},
		{"Fill the surface_id, tile_id column", []string{"surface_id", "tile_id"}},
		{"Fix duplicated rows in clients_daily_v6", nil},
		{"Backfill missing fields", nil},
	} {
		e := &Entry{Reason: yamlx.String{V: c.reason}}
		if got := e.Columns(); !slices.Equal(got, c.want) {
			t.Errorf("Columns(%q) = %q, want %q", c.reason, got, c.want)
		}
	}
}

func TestQueryNamesMentions(t *testing.T) {
	q := QueryNames{Idents: map[string]bool{"play_store_attribution_campaign": true, "client_id": true}}
	for _, c := range []struct {
		columns []string
		want    bool
	}{
		{[]string{"play_store_attribution_*"}, true},
		{[]string{"adjust_network"}, false},
		{[]string{"client_id"}, true},
		{[]string{"client_*", "x_y"}, true},
	} {
		if got := q.Mentions(c.columns); got != c.want {
			t.Errorf("Mentions(%q) = %v, want %v", c.columns, got, c.want)
		}
	}
	if !(QueryNames{Star: true}).Mentions([]string{"a_b"}) {
		t.Error("a query selecting every column mentions every column")
	}
}
