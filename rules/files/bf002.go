package files

import "github.com/bflint/bflint/rules"

// SQLUnparsed reports SQL that bflint cannot read, so a file is never
// passed over in silence.
var SQLUnparsed = &rules.Rule{
	Code:     "BF002",
	Name:     "sql-unparsed",
	Severity: rules.SeverityError,
	Scope:    rules.ScopeSQL,
	Doc: rules.Doc{
		Title: "A SQL statement cannot be parsed, even after warehouse syntax and dbt Jinja are normalised",
		Why: "Every SQL rule reads the parsed statement: which relation it writes, how, and over which dates. " +
			"A statement bflint cannot parse is a statement none of those checks saw, so a green run would say nothing about it. " +
			"bflint normalises Snowflake, BigQuery, Databricks and dbt syntax before parsing; what is still unreadable is reported " +
			"at the construct that stopped the parser, so it can be rewritten, or suppressed with a reason.",
		Bad: rules.Example{Lang: "sql", Text: `-- an unterminated string swallows the rest of the file
INSERT INTO backfill_staging.fct_orders__bf20260826_a
SELECT * FROM raw.orders WHERE order_date >= '2026-01-14;
`},
		Good: rules.Example{Lang: "sql", Text: `INSERT INTO backfill_staging.fct_orders__bf20260826_a
SELECT * FROM raw.orders WHERE order_date BETWEEN '2026-01-14' AND '2026-06-30';
`},
	},
	Run: func(pass *rules.Pass) error {
		for _, f := range pass.Unit.SQL {
			for _, p := range f.Parsed.Problems {
				pass.Reportf(f.Pos(p.Offset), "cannot read the template: %s; statements around it are still checked", p.Msg)
			}
			for _, st := range f.Parsed.Statements {
				switch {
				case st.Problem == nil:
				case st.Text == "":
					pass.Reportf(f.Pos(st.Problem.Offset), "cannot read the SQL from here to the end of the file: %s; the statements before it are checked, this one and any after it are not", st.Problem.Msg)
				default:
					pass.Reportf(f.Pos(st.Problem.Offset), "cannot parse this statement: %s; no SQL rule checks it", st.Problem.Msg)
				}
			}
		}
		return nil
	},
}
