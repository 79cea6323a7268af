package files

import (
	"fmt"
	"go/token"

	"github.com/bflint/bflint/parser/sqlparse"
	"github.com/bflint/bflint/rules"
	"golang.org/x/tools/go/analysis"
)

// SQLUnparsed reports SQL that bflint cannot read, so a file is never
// passed over in silence.
var SQLUnparsed = &rules.Rule{
	Code:               "BF002",
	Name:               "sql-unparsed",
	Severity:           rules.SeverityError,
	StandaloneSeverity: rules.SeverityWarning,
	Scope:              rules.ScopeSQL,
	Doc: rules.Doc{
		Title: "Nothing could be read from a SQL statement, even after warehouse syntax and dbt Jinja are normalised and its tokens are read",
		Why: "Every SQL rule reads what a statement writes, how, and over which dates. " +
			"bflint normalises Snowflake, BigQuery, Databricks and dbt syntax before parsing, and reads a statement the parser still rejects from its tokens: " +
			"what it writes and how, what it joins and on which conditions, so the rules that can work from tokens " +
			"(BF102, BF112, BF201, BF204, BF302, BF504, BF701-BF704) still check it, their findings saying so. " +
			"Such a statement is coverage, not a finding: it is counted in the summary line, in --stats (by dialect and by the construct that stopped the parser) " +
			"and in the JSON and SARIF run properties. " +
			"What is reported is a statement nothing could be read from, at the construct that stopped the parser: no relation it writes, joins or acts on, " +
			"the rest of a file after an unterminated string or comment or past one of the limits that bound bflint's memory (docs/sql-coverage.md), a template that cannot be read, " +
			"an EXECUTE IMMEDIATE whose SQL is built when the script runs: held in a variable, or concatenated from values that name everything it touches. " +
			"SQL an EXECUTE IMMEDIATE writes out as a literal, or concatenates from literals (CONCAT('INSERT counts SELECT ...', ds, ...)), is read from the literals; a relation a value names is left out. " +
			"In a plan's SQL that is an error, since the plan's safety cannot be checked; in a standalone SQL file it is a warning. " +
			"The statements of one file that the parser rejected and nothing was read from are one finding, at the first, noting the others (the first 20) as related places: " +
			"a file of fragments, such as a SQL formatter's test input, is one line of the report. " +
			"A statement a bflint:ignore directive governs is reported on its own, so that the directive suppresses it alone. " +
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
		severity := rules.SeverityDefault
		if pass.Plan == nil {
			severity = pass.Rule.StandaloneSeverity
		}
		report := func(pos token.Pos, related []analysis.RelatedInformation, format string, args ...any) {
			pass.Report(rules.Diagnostic{Diagnostic: analysis.Diagnostic{Pos: pos, Message: fmt.Sprintf(format, args...), Related: related}, Severity: severity})
		}
		for _, f := range pass.Unit.SQL {
			for _, p := range f.Parsed.Problems {
				report(f.Pos(p.Offset), nil, "cannot read the template: %s; statements around it are still checked", p.Msg)
			}
			var rejected []rejection
			for _, st := range f.Parsed.Statements {
				switch {
				case st.Problem == nil:
				case st.Text == "":
					report(f.Pos(st.Problem.Offset), nil, "cannot read the SQL from here to the end of the file: %s; the statements before it are checked, this one and any after it are not", st.Problem.Msg)
				case st.Coverage() == sqlparse.CoverageTokens:
					// Read from its tokens: coverage, counted, not reported.
				case st.TokenFacts().Dynamic:
					report(f.Pos(st.Problem.Offset), nil, "EXECUTE IMMEDIATE runs SQL built when the script runs, which no static check can read: nothing it writes or joins is checked; review what it runs by hand, or suppress this with the reason")
				default:
					r := rejection{pos: f.Pos(st.Problem.Offset), at: sqlparse.Construct(f.Source.Content, st.Problem.Offset, st.End), msg: st.Problem.Msg}
					if pass.Governed(r.pos) {
						report(r.pos, nil, "%s%s", r.headline(), fixOne)
					} else {
						rejected = append(rejected, r)
					}
				}
			}
			reportRejected(rejected, report)
		}
		return nil
	},
}

// A file of SQL fragments (a formatter's test input, a template's
// pieces) can hold hundreds of statements the parser rejects: one finding
// per file, at the first, notes the others, so that such a file is one
// line of a report and not hundreds. A statement a directive governs is
// reported on its own, so that its directive suppresses it alone.

// maxNoted bounds the other rejected statements a finding notes.
const maxNoted = 20

// rejection is a statement the parser rejected and nothing was read from.
type rejection struct {
	pos token.Pos
	at  string // the construct the parser stopped at
	msg string
}

func (r rejection) headline() string {
	return fmt.Sprintf("cannot parse this statement at %s: %s; nothing it writes or joins could be read from its tokens either, so no SQL rule checks it", r.at, r.msg)
}

func reportRejected(rejected []rejection, report func(token.Pos, []analysis.RelatedInformation, string, ...any)) {
	if len(rejected) == 0 {
		return
	}
	first, others := rejected[0], rejected[1:]
	if len(others) == 0 {
		report(first.pos, nil, "%s%s", first.headline(), fixOne)
		return
	}
	var related []analysis.RelatedInformation
	for _, r := range others[:min(len(others), maxNoted)] {
		related = append(related, analysis.RelatedInformation{Pos: r.pos, Message: fmt.Sprintf("the parser also rejected this statement, at %s", r.at)})
	}
	if unlisted := len(others) - len(related); unlisted > 0 {
		related[len(related)-1].Message += fmt.Sprintf(", and %d more statements not noted here", unlisted)
	}
	// The count is part of the message, so that a baseline recorded
	// before another statement broke does not hide that one.
	rest := fmt.Sprintf("the %d other statements", len(others))
	if len(others) == 1 {
		rest = "the other statement"
	}
	report(first.pos, related, "%s, nor %s of this file the parser rejected (%s)%s", first.headline(), rest, noted(len(others)), fixFile)
}

// The fixes a rejected statement's finding offers: one statement is
// rewritten or suppressed; a file of many often holds no SQL that runs.
const (
	fixOne  = rules.HelpMarker + "rewrite the statement so that it parses, or suppress it with \"-- bflint:ignore BF002 <reason>\""
	fixFile = rules.HelpMarker + "if the file holds no SQL that runs (a test's input, a template's pieces), add it to exclude in .bflint.yaml; otherwise rewrite the statements so that they parse"
)

func noted(others int) string {
	if others <= maxNoted {
		return "noted below"
	}
	return fmt.Sprintf("the first %d noted below", maxNoted)
}
