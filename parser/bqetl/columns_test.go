package bqetl

import (
	"os"
	"path/filepath"
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

func TestQueryNamesNames(t *testing.T) {
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
		if got := q.Names(c.columns); got != c.want {
			t.Errorf("Names(%q) = %v, want %v", c.columns, got, c.want)
		}
	}
}

func TestQueryNamesAliases(t *testing.T) {
	dir := t.TempDir()
	sqlDir := filepath.Join(dir, "sql")
	view := filepath.Join(sqlDir, "p", "d", "v")
	if err := os.MkdirAll(view, 0o755); err != nil {
		t.Fatal(err)
	}
	text := "CREATE OR REPLACE VIEW `p.d.v` AS\nSELECT\n  CASE WHEN a_b IS NULL THEN 'x' ELSE a_b END AS a_b_label,\n  udf.f(c_d) AS c_d_kind,\n  COALESCE(e_f, g_h) AS e_or_g,\n  CAST(i_j AS INT64) AS i_j_int,\n  * EXCEPT (k_l)\nFROM t\nWHERE m_n > 0\n"
	if err := os.WriteFile(filepath.Join(view, "view.sql"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	lin, err := ReadLineage(sqlDir, false)
	if err != nil {
		t.Fatal(err)
	}
	q := ReadQueryNames(sqlDir, lin.Manifest, "p.d.v")
	if !q.Known() {
		t.Fatal("not read")
	}
	for col, want := range map[string][]string{"a_b": {"a_b_label"}, "c_d": {"c_d_kind"}, "e_f": {"e_or_g"}, "g_h": {"e_or_g"}, "i_j": {"i_j_int"}, "m_n": nil, "k_l": nil} {
		if got := q.Renamed([]string{col}); !slices.Equal(got, want) {
			t.Errorf("Renamed(%s) = %v, want %v", col, got, want)
		}
	}
	if !q.SelectsAll(func(r string) bool { return r == "t" }) || q.SelectsAll(func(r string) bool { return r == "u" }) {
		t.Errorf("* EXCEPT selects every other column of t alone: %q", q.StarFrom)
	}
}

// A * selects every column of what its FROM reads, or of the relation its
// qualifier names: a * over another relation passes none of the target's.
func TestQueryNamesSelectsAll(t *testing.T) {
	dir := t.TempDir()
	sqlDir := filepath.Join(dir, "sql")
	table := filepath.Join(sqlDir, "p", "d", "x_v1")
	if err := os.MkdirAll(table, 0o755); err != nil {
		t.Fatal(err)
	}
	text := "SELECT ac.client_id, r.* EXCEPT (client_id)\nFROM `p.d.clients` AS ac\nLEFT JOIN (SELECT * FROM `p.d.retention`) AS r USING (client_id)\nLEFT JOIN p.d.events ev USING (client_id)\nWHERE ac.submission_date = @submission_date\n"
	if err := os.WriteFile(filepath.Join(table, "query.sql"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	lin, err := ReadLineage(sqlDir, false)
	if err != nil {
		t.Fatal(err)
	}
	q := ReadQueryNames(sqlDir, lin.Manifest, "p.d.x_v1")
	if !q.Known() {
		t.Fatal("not read")
	}
	for rel, want := range map[string]bool{"p.d.clients": false, "p.d.retention": true, "p.d.events": false} {
		if got := q.SelectsAll(func(r string) bool { return r == rel }); got != want {
			t.Errorf("SelectsAll(%s) = %v, want %v (stars %q, relations %v)", rel, got, want, q.StarFrom, q.Relations)
		}
	}
}
