package scd2

import (
	"fmt"

	"github.com/bflint/bflint/rules"
)

// ClosedInterval reports a validity interval that includes its end.
var ClosedInterval = &rules.Rule{
	Code:        "BF703",
	Name:        "closed-validity-interval",
	Severity:    rules.SeverityWarning,
	Scope:       rules.ScopeSQL,
	ReadsTokens: true,
	Doc: rules.Doc{
		Title: "A type-2 join includes the end of the validity interval (BETWEEN or <= valid_to)",
		Why: "Type-2 versions are contiguous: one version's valid_to is the next version's valid_from. " +
			"With BETWEEN valid_from AND valid_to, or <= valid_to, a row that happened exactly at that instant matches both " +
			"versions and is written twice. With date-grained validity and daily facts that is every change day, not a rare " +
			"edge. The interval is half-open: event >= valid_from AND event < valid_to. " +
			"Not reported: a dimension whose valid_to a SQL file of the run defines as the day before the next version starts " +
			"(LEAD(valid_from) OVER (...) - 1, DATE_SUB(..., INTERVAL 1 DAY), DATEADD(day, -1, ...)), whose interval includes its last day, " +
			"so BETWEEN is right; and a statement that keeps one row per group with QUALIFY ROW_NUMBER() OVER (...) = 1, or numbers the rows (ROW_NUMBER() OVER (...) AS rn) and keeps rn = 1 in the query reading them, " +
			"where a row matching two versions may be reduced to one. A definition in a file outside the run is not seen.",
		Bad: rules.Example{Lang: "sql", Text: `SELECT r.order_id, d.country
FROM raw.orders_events AS r
JOIN dim.customer_snapshot AS d
  ON d.customer_id = r.customer_id
 AND r.order_ts BETWEEN d.valid_from AND d.valid_to;
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
			for _, c := range dj.upper {
				if !c.closed() || pass.Unit.Definitions.InclusiveEnd(dj.join.Relation, c.column) {
					continue
				}
				if dj.reduced() {
					return
				}
				from, _ := dj.validityNames()
				bound := "<= " + dj.name(c.column)
				if c.between {
					bound = fmt.Sprintf("BETWEEN %s AND %s", from, dj.name(c.column))
				}
				dj.reportf(pass, "join to type-2 dimension %s closes the validity interval with %s: a row at the instant one version ends and the next begins matches both, so it is written twice; make the upper bound exclusive: %s",
					dj.label(), bound, dj.fix())
				return
			}
		})
		return nil
	},
}
