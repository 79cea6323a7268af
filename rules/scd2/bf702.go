package scd2

import (
	"strings"

	"github.com/bflint/bflint/rules"
)

// AsOfNow reports a join that reads a type-2 dimension as it is today.
var AsOfNow = &rules.Rule{
	Code:        "BF702",
	Name:        "dimension-as-of-now",
	Severity:    rules.SeverityError,
	Scope:       rules.ScopeSQL,
	ReadsTokens: true,
	Doc: rules.Doc{
		Title: "A type-2 dimension is joined through its current row only",
		Why: "Filtering a type-2 dimension to its current version (is_current, valid_to IS NULL, valid_to = '9999-12-31', " +
			"a snapshot's dbt_valid_to_current, valid_to > CURRENT_DATE) is right for today's report and wrong for a backfill: " +
			"every historical row is given the attributes its key has now. A customer who moved in May has all of January's " +
			"orders re-attributed to the new country, the totals still reconcile, and the recomputed range describes a past " +
			"that never happened. Rows whose key has no current version drop out too. Join the version that was valid when " +
			"each row happened instead. " +
			"Not reported: a join that picks the version by the history's own row id (dbt_scd_id, version_id, a reference named " +
			"*_history_id or *_version_id), where the current-row filter can only drop rows; a statement that writes the dimension, " +
			"and a dbt model reading its own open versions through {{ this }}, which is how a type-2 model detects a change. " +
			"A primary or surrogate key (*_pk, *_sk) is not read as a version's: projects give that name to durable keys as often, " +
			"so a join on one with a current-row filter is reported. " +
			"Nor, outside a plan, a dbt model its config rebuilds whole on every run (table, view, ephemeral): it describes the " +
			"present, and today's attributes are what it is for; an incremental model keeps the rows it computed in the past, and " +
			"a backfill recomputes them.",
		Bad: rules.Example{Lang: "sql", Text: `SELECT r.order_id, d.country
FROM raw.orders_events AS r
JOIN dim.customer_snapshot AS d
  ON d.customer_id = r.customer_id
WHERE d.is_current;
`},
		Good: rules.Example{Lang: "sql", Text: `SELECT r.order_id, d.country
FROM raw.orders_events AS r
JOIN dim.customer_snapshot AS d
  ON d.customer_id = r.customer_id
 AND r.order_ts >= d.valid_from
 AND r.order_ts < d.valid_to;
`},
	},
	Run: func(pass *rules.Pass) error {
		forEachJoin(pass, func(dj *dimJoin) {
			// A join that picks one version by its key gets that version's
			// attributes; a current-row filter beside it only drops rows.
			if dj.current == "" || dj.pinned || pass.Plan == nil && describesPresent(dj.file) {
				return
			}
			dj.reportf(pass, "join to type-2 dimension %s keeps only its current version (%s): every row, however old, gets today's attributes, so the backfill rebuilds history with values that did not hold then; drop the filter and join the version valid at the row's time: %s",
				dj.label(), dj.current, dj.fix())
		})
		return nil
	},
}

// describesPresent reports whether a SQL file is a dbt model rebuilt whole
// on every run (a table, a view, dbt's default, ephemeral), as its
// resolved config or, outside a dbt project, its own config() says.
func describesPresent(f *rules.SQLFile) bool {
	materialized := ""
	switch {
	case f.Model != nil:
		materialized = f.Model.Config.Materialized
	case f.Parsed.Model != nil:
		materialized = f.Parsed.Model.Materialized
	default:
		return false
	}
	switch strings.ToLower(materialized) {
	case "incremental", "snapshot":
		return false
	}
	return true
}
