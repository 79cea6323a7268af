package files

import (
	"go/token"

	"github.com/bflint/bflint/parser/sqlparse"
	"github.com/bflint/bflint/rules"
)

// SQLUnparsed reports SQL that bflint cannot read, so a file is never
// passed over in silence.
var SQLUnparsed = &rules.Rule{
	Code:     "BF002",
	Name:     "sql-unparsed",
	Severity: rules.SeverityError,
	Scope:    rules.ScopeSQL,
	Doc: rules.Doc{
		Title: "Nothing could be read from a SQL statement, even after warehouse syntax and dbt Jinja are normalised and its tokens are read",
		Why: "Every SQL rule reads what a statement writes, how, and over which dates. " +
			"bflint normalises Snowflake, BigQuery, Databricks and dbt syntax before parsing, and reads a statement the parser still rejects from its tokens: " +
			"what it writes and how, what it joins and on which conditions, so the rules that can work from tokens " +
			"(BF102, BF201, BF204, BF302, BF504, BF701-BF704) still check it, their findings saying so. " +
			"Such a statement is coverage, not a finding: it is counted in the summary line, in --stats (by dialect and by the construct that stopped the parser) " +
			"and in the JSON and SARIF run properties. " +
			"What is reported is a statement nothing could be read from, at the construct that stopped the parser: no relation it writes, joins or acts on, " +
			"the rest of a file after an unterminated string or comment or past one of the limits that bound bflint's memory (docs/sql-coverage.md), a template that cannot be read. " +
			"In a plan's SQL that is an error, since the plan's safety cannot be checked; in a standalone SQL file it is a warning. " +
			"Rewrite the statement, or suppress the finding with a reason.",
		Bad: rules.Example{Lang: "sql", Text: `-- an unterminated string swallows the rest of the file
INSERT INTO backfill_staging.fct_orders__bf20260826_a
SELECT * FROM raw.orders WHERE order_date >= '2026-01-14;
`},
		Good: rules.Example{Lang: "sql", Text: `INSERT INTO backfill_staging.fct_orders__bf20260826_a
SELECT * FROM raw.orders WHERE order_date BETWEEN '2026-01-14' AND '2026-06-30';
`},
	},
	Run: func(pass *rules.Pass) error {
		report := pass.Reportf
		if pass.Plan == nil {
			report = func(pos token.Pos, format string, args ...any) {
				pass.ReportSeverityf(rules.SeverityWarning, pos, format, args...)
			}
		}
		for _, f := range pass.Unit.SQL {
			for _, p := range f.Parsed.Problems {
				report(f.Pos(p.Offset), "cannot read the template: %s; statements around it are still checked", p.Msg)
			}
			for _, st := range f.Parsed.Statements {
				switch {
				case st.Problem == nil:
				case st.Text == "":
					report(f.Pos(st.Problem.Offset), "cannot read the SQL from here to the end of the file: %s; the statements before it are checked, this one and any after it are not", st.Problem.Msg)
				case st.Coverage() == sqlparse.CoverageTokens:
					// Read from its tokens: coverage, counted, not reported.
				case st.TokenFacts().Dynamic:
					report(f.Pos(st.Problem.Offset), "EXECUTE IMMEDIATE runs SQL built when the script runs, which no static check can read: nothing it writes or joins is checked; review what it runs by hand, or suppress this with the reason")
				default:
					at := sqlparse.Construct(f.Source.Content, st.Problem.Offset, st.End)
					report(f.Pos(st.Problem.Offset), "cannot parse this statement at %s: %s; nothing it writes or joins could be read from its tokens either, so no SQL rule checks it", at, st.Problem.Msg)
				}
			}
		}
		return nil
	},
}
