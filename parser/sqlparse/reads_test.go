package sqlparse

import (
	"slices"
	"testing"
)

func TestFileReads(t *testing.T) {
	cases := []struct {
		name, src string
		want      []string
		unread    int
		templated int
	}{
		{"FROM, JOIN and a subquery, each once",
			"SELECT * FROM `p.d.a` AS a JOIN d.b ON a.k = b.k WHERE a.k IN (SELECT k FROM d.c) AND a.x IN (SELECT x FROM d.b)",
			[]string{"p.d.a", "d.b", "d.c"}, 0, 0},
		{"WITH queries are no relations", "WITH w AS (SELECT * FROM d.a) SELECT * FROM w", []string{"d.a"}, 0, 0},
		{"an array path of a FROM item is no table",
			"SELECT e.name FROM d.events AS t, t.items AS e", []string{"d.events"}, 0, 0},
		{"a dataset named like its table is still a table", "SELECT * FROM orders.orders", []string{"orders.orders"}, 0, 0},
		{"a temporary table of the script is left out",
			"CREATE TEMP TABLE staged AS SELECT * FROM d.a; SELECT * FROM staged JOIN d.b USING (k)", []string{"d.a", "d.b"}, 0, 0},
		{"a statement read from tokens counts",
			"SELECT * FROM d.a WHERE x = ANY_VALUE(y HAVING MAX z)", []string{"d.a"}, 0, 0},
		{"a name Jinja writes is unknown", "SELECT * FROM `p.{{ dataset }}.t` JOIN d.b USING (k)", []string{"d.b"}, 0, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := Parse(c.src, Options{}).Reads()
			var got []string
			for _, rel := range r.Relations {
				got = append(got, rel.Name())
			}
			if !slices.Equal(got, c.want) || r.Unread != c.unread || r.Templated != c.templated {
				t.Errorf("got %v (unread %d, templated %d), want %v (unread %d, templated %d)", got, r.Unread, r.Templated, c.want, c.unread, c.templated)
			}
		})
	}
}
