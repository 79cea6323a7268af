package scd2

import (
	"fmt"

	"github.com/bflint/bflint/rules"
)

// PlainJoin reports a join to a type-2 dimension that does not pick the
// version valid when the row happened.
var PlainJoin = &rules.Rule{
	Code:        "BF701",
	Name:        "plain-dimension-join",
	Severity:    rules.SeverityError,
	Scope:       rules.ScopeSQL,
	ReadsTokens: true,
	Doc: rules.Doc{
		Title: "A type-2 dimension is joined on its key alone, without its validity interval",
		Why: "A type-2 dimension keeps one row per version of a key, each valid from valid_from until valid_to. " +
			"Joined on the key alone, every fact row matches every version of its key: rows multiply, and each copy carries " +
			"attributes from a version that was not in force when the row happened. Everything downstream still runs, and a " +
			"row-count check on a small range may even pass, but the backfill writes a past that never occurred. " +
			"Compare a time column of the fact with both validity columns (event >= valid_from AND event < valid_to), in ON or WHERE; " +
			"the same bounds written as the negation of their failures (NOT (event >= valid_to OR event < valid_from)) count as well. " +
			"A relation counts as type-2 when the statement uses both of its validity columns, when config scd2.relations " +
			"names it (doublestar globs over lower-cased names; scd2.valid_from and scd2.valid_to rename the columns), " +
			"or when the join keeps only its current row (BF702 reports that case instead). " +
			"Equating a validity column with a column of the fact (a stored version key) picks one version too, and so does a join on the " +
			"history's own row id (dbt_scd_id, version_id, or the other side's orders_history_id = h.id). " +
			"Not reported either: a history the query starts from (the first of several FROM items), whose versions are the rows it produces; " +
			"and two histories overlapped on both ends of one's interval (s.valid_from < c.valid_from AND s.valid_to > c.valid_from), " +
			"which pairs the versions in force together by design.",
		Bad: rules.Example{Lang: "sql", Text: `-- .bflint.yaml: scd2: {relations: ["dim.*_history"]}
CREATE OR REPLACE TABLE backfill_staging.fct_orders__bf20260826_a AS
SELECT r.order_id, r.order_ts, d.country
FROM raw.orders_events AS r
JOIN dim.customer_history AS d
  ON d.customer_id = r.customer_id;
`},
		Good: rules.Example{Lang: "sql", Text: `CREATE OR REPLACE TABLE backfill_staging.fct_orders__bf20260826_a AS
SELECT r.order_id, r.order_ts, d.country
FROM raw.orders_events AS r
JOIN dim.customer_history AS d
  ON d.customer_id = r.customer_id
 AND r.order_ts >= d.valid_from
 AND r.order_ts < d.valid_to;
`},
	},
	Run: func(pass *rules.Pass) error {
		forEachJoin(pass, func(dj *dimJoin) {
			// A current-row filter is BF702's finding, and an equality with a
			// validity column already picks one version. A bound may hide in
			// a predicate that could not be read.
			if dj.current != "" || dj.pinned || dj.partial {
				return
			}
			// A dimension the query starts from produces its versions as
			// rows: nothing is joined into another relation's rows. An
			// overlap of two histories pairs versions on purpose.
			if dj.leading || dj.overlap {
				return
			}
			from, to := dj.validityNames()
			var problem string
			switch {
			case len(dj.lower) == 0 && len(dj.upper) == 0:
				problem = fmt.Sprintf("compares neither %q nor %q with a column of the other side: each row matches every version of its key, so rows multiply and carry attributes that were not in force when they happened", from, to)
			case len(dj.upper) == 0:
				problem = fmt.Sprintf("compares %q but not %q with the other side: each row matches every version that started before it, so rows multiply and carry superseded attributes", from, to)
			case len(dj.lower) == 0:
				problem = fmt.Sprintf("compares %q but not %q with the other side: each row matches every version that ended after it, so rows multiply and carry attributes of later versions", to, from)
			default:
				return
			}
			dj.reportf(pass, "join to type-2 dimension %s %s; join the version valid at the row's time: %s", dj.label(), problem, dj.fix())
		})
		return nil
	},
}
