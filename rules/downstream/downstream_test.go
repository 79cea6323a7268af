package downstream

import (
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/bflint/bflint/lineage"
	"github.com/bflint/bflint/parser/manifest"
	"github.com/bflint/bflint/parser/runcmd"
)

func load(t *testing.T, path string) *lookup {
	t.Helper()
	m, err := manifest.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return &lookup{g: lineage.New(m), m: m, memo: map[string]resolution{}}
}

// manifests are every manifest.json under testdata: the hand-made ones of
// the fixtures and the real ones under testdata/thirdparty.
func manifests(t *testing.T) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir("../../testdata", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && d.Name() == "manifest.json" {
			out = append(out, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestPathsMatchLineage checks that the one-search paths give what
// lineage's Path gives node by node, for every model as the start.
func TestPathsMatchLineage(t *testing.T) {
	for _, path := range manifests(t) {
		m, err := manifest.Load(path)
		if err != nil {
			continue // the malformed manifests of BF003's fixtures
		}
		l := &lookup{g: lineage.New(m), m: m, memo: map[string]resolution{}}
		checked := 0
		for _, n := range m.Nodes() {
			if n.ResourceType != manifest.Model || checked >= 50 {
				continue
			}
			checked++
			ps := pathsFrom(l, n.UniqueID)
			for _, id := range l.g.Downstream(n.UniqueID) {
				if got, want := ps.to(id), l.g.Path(n.UniqueID, id); !slices.Equal(got, want) {
					t.Errorf("%s: path %s to %s = %v, lineage says %v", path, n.UniqueID, id, got, want)
				}
			}
		}
	}
}

func TestDBTChecksum(t *testing.T) {
	// sha256("select 1"): dbt strips what Python's str.strip strips,
	// including the information separators U+001C to U+001F.
	const want = "822ae07d4783158bc1912bb623e5107cc9002d519e1143a9c200ed6ee18b6d0f"
	for _, text := range []string{"select 1", "\n\nselect 1\n", " \n\x1c select 1\n\t\u3000"} {
		if got := dbtChecksum([]byte(text)); got != want {
			t.Errorf("dbtChecksum(%q) = %s, want %s", text, got, want)
		}
	}
	if dbtChecksum([]byte("\ufeffselect 1")) == want {
		t.Error("a byte order mark is content to dbt, not whitespace")
	}
}

func TestSelection(t *testing.T) {
	l := load(t, "../../testdata/rules/BF801/missing/target/manifest.json")
	sel := func(values ...string) string {
		var words []runcmd.Word
		for _, v := range values {
			words = append(words, runcmd.Word{Value: v})
		}
		var ids []string
		for id := range selection(l, words) {
			ids = append(ids, strings.TrimPrefix(id, "model.shop."))
		}
		slices.Sort(ids)
		return strings.Join(ids, " ")
	}
	for _, c := range []struct {
		values []string
		want   string
	}{
		{[]string{"revenue_daily"}, "revenue_daily"},
		{[]string{"revenue_daily+"}, "exposure.shop.finance_dashboard revenue_daily revenue_monthly"},
		{[]string{"orders_enriched+1"}, "customer_ltv orders_batched orders_enriched orders_mv"},
		{[]string{"+int_orders"}, "fct_orders int_orders seed.shop.country_codes source.shop.raw.orders stg_orders"},
		{[]string{"1+revenue_daily"}, "int_orders revenue_daily"},
		{[]string{"revenue_daily orders_mv", "customer_ltv"}, "customer_ltv orders_mv revenue_daily"},
		{[]string{"analytics.customer_ltv"}, "customer_ltv"},
		// Outside the subset bflint reads: nothing is selected.
		{[]string{"tag:finance", "path:models/marts", "fct_orders+,tag:daily", "@fct_orders", "revenue_*", "no_such_model+"}, ""},
	} {
		if got := sel(c.values...); got != c.want {
			t.Errorf("selection(%q) = %q, want %q", c.values, got, c.want)
		}
	}
}
