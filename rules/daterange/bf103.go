package daterange

import (
	"strings"

	"github.com/bflint/bflint/rules"
)

// Unconfirmed reports a range start that rests on no recorded evidence.
var Unconfirmed = &rules.Rule{
	Code:     "BF103",
	Name:     "range-unconfirmed",
	Severity: rules.SeverityWarning,
	Scope:    rules.ScopePlan,
	Doc: rules.Doc{
		Title: "The range boundary lacks its candidate, confirmed date or evidence",
		Why: "The deploy history gives a candidate for where the bug began; the data gives the real boundary, " +
			"because a metric broken by a logic change almost always shows a step in its daily series. The two differ often enough to be worth recording. " +
			"A range whose start was guessed leaves a discontinuity in the corrected series that nobody can explain, " +
			"either unfixed days just before the start or correct days rewritten after it. " +
			"Writing down the candidate, the confirmed date and the query that found it makes the range defensible before the run and cheap to revisit after it.",
		Bad: rules.Example{Lang: "yaml", Text: `range:
  start: 2026-01-14     # "the deploy was around then"
  end: 2026-06-30
`},
		Good: rules.Example{Lang: "yaml", Text: `range:
  start: 2026-01-14
  end: 2026-06-30
  boundary:
    candidate: 2026-01-14             # deploy 3f2a9c1
    introduced_by: 3f2a9c1
    confirmed: 2026-01-14             # the step in daily net revenue
    evidence: sql/find_boundary.sql
`},
	},
	Run: func(pass *rules.Pass) error {
		p := pass.Plan
		r := p.Range
		if r == nil {
			// BF101 already asks for the range; its boundary comes with it.
			return nil
		}
		b := r.Boundary
		if b == nil {
			pass.Reportf(r.Key, "range of %q has no boundary: nothing shows that the backfill starts where the bug began, so a step left in the corrected series cannot be explained\nhelp: add range.boundary with the candidate from deploy history, the date confirmed in the data and the evidence query", p.Target.V)
			return nil
		}
		// The advice names only what is still missing, so a boundary
		// completed in part is not told again what it already records.
		var missing, advice []string
		if !written(b.Candidate) {
			missing, advice = append(missing, "candidate"), append(advice, "the candidate date from the deploy history")
		}
		if !written(b.Confirmed) {
			missing, advice = append(missing, "confirmed"), append(advice, "the date the daily series confirms")
		}
		if !b.Evidence.Set || strings.TrimSpace(b.Evidence.V) == "" {
			missing, advice = append(missing, "evidence"), append(advice, "the query that found it")
		}
		if len(missing) > 0 {
			pass.Reportf(b.Key, "range.boundary lacks %s: the start of the range of %q is not backed by both the deploy history and the data, so it may be a guess\nhelp: record %s", rules.Listing(missing), p.Target.V, rules.Listing(advice))
		}
		return nil
	},
}
