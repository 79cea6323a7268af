package scd2

import "github.com/bflint/bflint/rules"

// OpenDropped reports an inner join that loses a snapshot's current rows.
var OpenDropped = &rules.Rule{
	Code:        "BF704",
	Name:        "open-validity-dropped",
	Severity:    rules.SeverityError,
	Scope:       rules.ScopeSQL,
	ReadsTokens: true,
	Doc: rules.Doc{
		Title: "An inner join compares a dbt snapshot's NULL valid_to without COALESCE or IS NULL",
		Why: "dbt snapshots leave dbt_valid_to NULL on the current version unless dbt_valid_to_current is configured. " +
			"Any comparison with NULL is unknown, so event < dbt_valid_to (or BETWEEN) never holds for a current version, and an " +
			"inner join silently drops every row whose key has not changed since: typically the most recent and most " +
			"valuable part of the range. Nothing fails; the backfill just loses rows. Give NULL a far-future value with " +
			"COALESCE, or accept it with OR dbt_valid_to IS NULL. Without a manifest, a relation compared through the " +
			"dbt_valid_to name is taken to be a dbt snapshot with dbt's defaults.",
		Bad: rules.Example{Lang: "sql", Text: `SELECT o.order_id, s.segment
FROM {{ ref('stg_orders') }} AS o
JOIN {{ ref('customers_snapshot') }} AS s
  ON s.customer_id = o.customer_id
 AND o.ordered_at >= s.dbt_valid_from
 AND o.ordered_at < s.dbt_valid_to
`},
		Good: rules.Example{Lang: "sql", Text: `SELECT o.order_id, s.segment
FROM {{ ref('stg_orders') }} AS o
JOIN {{ ref('customers_snapshot') }} AS s
  ON s.customer_id = o.customer_id
 AND o.ordered_at >= s.dbt_valid_from
 AND o.ordered_at < coalesce(s.dbt_valid_to, '9999-12-31')
`},
	},
	Run: func(pass *rules.Pass) error {
		forEachJoin(pass, func(dj *dimJoin) {
			// NULL handling may hide in a predicate that could not be read.
			if dj.keepsRows || dj.nullSafe || dj.partial {
				return
			}
			for _, c := range dj.upper {
				if c.coalesced || !dj.dim.dropsCurrentRows(c.column) {
					continue
				}
				to := dj.name(c.column)
				dj.reportf(pass, "inner join to dbt snapshot %s compares %q without handling NULL, but the snapshot's current versions have NULL %s (no dbt_valid_to_current): the comparison never holds for them, so every row whose version is current silently vanishes; write %s",
					dj.label(), to, to, dj.fix())
				return
			}
		})
		return nil
	},
}
