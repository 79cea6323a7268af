package daterange

import (
	"fmt"
	"strings"

	"github.com/bflint/bflint/parser/bqetl"
	"github.com/bflint/bflint/rules"
	"golang.org/x/tools/go/analysis"
)

// ClockDependentPartition reports a per-partition query whose rows depend
// on the day it runs where its date parameter belongs.
var ClockDependentPartition = &rules.Rule{
	Code:        "BF112",
	Name:        "clock-dependent-partition",
	Severity:    rules.SeverityWarning,
	Scope:       rules.ScopeSQL,
	ReadsTokens: true,
	Doc: rules.Doc{
		Title: "A query that computes one partition per run decides its rows by the day it runs, not by the partition's date",
		Why: "bigquery-etl runs a table's query once per date, binding the date to @submission_date (or the table's " +
			"date_partition_parameter), and a backfill runs it again for past dates. A query that compares a column with " +
			"CURRENT_DATE where the date parameter belongs (a.submission_date <= CURRENT_DATE, trial_end > TIMESTAMP(CURRENT_DATE)) " +
			"computes partition D with the day it runs: the scheduled run of D saw the rows up to D, a backfill of D run months " +
			"later sees the months after it too, and two runs of the same date disagree. In a tree the query is a warning; " +
			"an entry that backfills the table is an error, since its dates are exactly the ones computed with another day. " +
			"Not flagged: a clock that only fills a column (an audit column such as CURRENT_TIMESTAMP() AS loaded_at), one that " +
			"only stands in for the parameter when it is not given (COALESCE(@submission_date, CURRENT_DATE), " +
			"IF(@date IS NULL, ..., ...)), one under ERROR() (a guard refusing dates too old to rebuild), one that splits a " +
			"live table's recent days from its stable copy, and a query that writes its whole table on every run " +
			"(date_partition_parameter: null). A query the parser rejects is read from its tokens: its conditions and the select-list items using the clock that parse on their own, without the live-table exception.",
		Bad: rules.Example{Lang: "sql", Text: `SELECT a.client_id, MAX(a.submission_date) AS last_seen
FROM telemetry_derived.clients_daily_v6 AS a
WHERE a.submission_date <= CURRENT_DATE
GROUP BY 1
`},
		Good: rules.Example{Lang: "sql", Text: `SELECT a.client_id, MAX(a.submission_date) AS last_seen
FROM telemetry_derived.clients_daily_v6 AS a
WHERE a.submission_date <= @submission_date
GROUP BY 1
`},
	},
	Run: func(pass *rules.Pass) error {
		if pl := bqetl.Of(pass.Plan); pl != nil {
			reportEntryClock(pass, pl)
			return nil
		}
		if pass.Plan != nil {
			return nil
		}
		for _, f := range pass.Unit.SQL {
			q := f.Bqetl
			if q == nil || q.DateParameter == "" || f.Parsed == nil {
				continue
			}
			for _, st := range f.Parsed.Statements {
				report := pass.ReporterFor(st.Node == nil)
				for _, c := range st.ClockDecisions() {
					report(f.Pos(c.Offset), "the query compares %s with %s, but %s computes one partition per run, for the date in @%s: partition D is computed with the day it runs, and a backfill of D gets other rows than its scheduled run did\nhelp: compare with @%s (or a date derived from it); keep %s only for a column the run stamps",
						c.Column, clockSpelling(c.Call), q.Table.Name(), q.DateParameter, q.DateParameter, clockSpelling(c.Call))
				}
			}
		}
		return nil
	},
}

// reportEntryClock reports an entry whose table's query decides its rows
// by the clock: each date it backfills is computed with the day it runs.
func reportEntryClock(pass *rules.Pass, pl *bqetl.Planned) {
	e := pl.Entry
	if len(pl.Clock) == 0 || e.Cancelled() {
		return
	}
	var places []string
	d := rules.Diagnostic{}
	for _, c := range pl.Clock[:min(len(pl.Clock), 3)] {
		place := fmt.Sprintf("%s against %s", c.Column, clockSpelling(c.Call))
		places = append(places, place)
		d.Related = append(d.Related, analysis.RelatedInformation{Pos: c.Pos, Message: "compares " + place})
	}
	if more := len(pl.Clock) - len(places); more > 0 {
		places = append(places, fmt.Sprintf("and %d more", more))
	}
	d.Pos = e.Key
	d.Severity = rules.SeverityError
	d.Message = fmt.Sprintf("the query of %s decides its rows by the day it runs, not by the date it is run for (%s); each date this entry backfills is computed with the day of the backfill, not as its scheduled run computed it\nhelp: compare with the date parameter in the query first, then backfill", pl.Target, strings.Join(places, ", "))
	pass.Report(d)
}

// clockSpelling is the clock's name in messages.
func clockSpelling(call string) string { return strings.ToUpper(call) }
