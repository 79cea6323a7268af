package manifest

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestCorpusCatalog(t *testing.T) {
	c, err := LoadCatalog(hubspot + "/docs/catalog.json")
	if err != nil {
		t.Fatal(err)
	}
	m := load(t, hubspot+"/docs/manifest.json")
	ids := c.IDs()
	if len(ids) != 262 {
		t.Errorf("%d catalog entries, want 262", len(ids))
	}
	for _, id := range ids {
		if m.Node(id) == nil {
			t.Errorf("catalog entry %q is not in the manifest of the same run", id)
		}
	}
	got := c.Columns("model.hubspot.hubspot__daily_ticket_history")
	if want := []string{"ticket_day_id", "source_relation", "date_day", "ticket_id", "ticket_state"}; len(got) < 5 || !slices.Equal(got[:5], want) {
		t.Errorf("columns = %q, want to start with %q", got, want)
	}
	if got := c.Columns("source.hubspot.hubspot.company"); len(got) < 3 || !slices.Equal(got[:3], []string{"id", "is_deleted", "_fivetran_synced"}) {
		t.Errorf("source columns = %q", got)
	}
	if c.Columns("model.hubspot.nope") != nil {
		t.Error("Columns of an unknown id is not nil")
	}
}

func TestCatalogColumns(t *testing.T) {
	// Snowflake reports upper-case names; the map order of columns is not
	// the table's order, index is.
	input := `{
  "metadata": {"dbt_schema_version": "https://schemas.getdbt.com/dbt/catalog/v1.json"},
  "nodes": {
    "snapshot.shop.customers_history": {
      "metadata": {"type": "BASE TABLE", "schema": "SNAPSHOTS", "name": "CUSTOMERS_HISTORY", "database": "DB"},
      "columns": {
        "DBT_VALID_TO": {"type": "TIMESTAMP_NTZ", "index": 4, "name": "DBT_VALID_TO", "comment": null},
        "CUSTOMER_ID": {"type": "NUMBER", "index": 1, "name": "CUSTOMER_ID", "comment": null},
        "DBT_VALID_FROM": {"type": "TIMESTAMP_NTZ", "index": 3, "name": "DBT_VALID_FROM", "comment": null},
        "Tier": {"type": "TEXT", "index": 2, "name": "Tier", "comment": null}
      },
      "stats": {},
      "unique_id": "snapshot.shop.customers_history"
    }
  },
  "sources": null,
  "errors": null
}`
	c, err := DecodeCatalog(strings.NewReader(input))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"customer_id", "tier", "dbt_valid_from", "dbt_valid_to"}
	if got := c.Columns("snapshot.shop.customers_history"); !slices.Equal(got, want) {
		t.Errorf("Columns = %q, want %q", got, want)
	}
	if got := c.IDs(); !slices.Equal(got, []string{"snapshot.shop.customers_history"}) {
		t.Errorf("IDs = %q", got)
	}
}

func TestCatalogErrors(t *testing.T) {
	for _, tc := range []struct{ name, input, msg string }{
		{"manifest", `{"metadata": {"dbt_schema_version": "https://schemas.getdbt.com/dbt/manifest/v12.json"}, "nodes": {}}`, "this is a dbt manifest file, not a catalog"},
		{"nodes is a list", `{"nodes": []}`, `"nodes" is a list, expected an object keyed by unique_id`},
		{"columns is a list", `{"nodes": {"model.a.b": {"columns": ["id"]}}}`, `nodes["model.a.b"].columns is a list, expected an object`},
		{"truncated", `{"nodes": {"model.a.b": {"columns": {`, `the file ends inside nodes["model.a.b"]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := DecodeCatalog(strings.NewReader(tc.input))
			var e *Error
			if !errors.As(err, &e) || !strings.Contains(e.Msg, tc.msg) {
				t.Errorf("DecodeCatalog = %v, want an *Error containing %q", err, tc.msg)
			}
		})
	}
}
