package rules

import (
	"fmt"
	"go/token"
	"time"

	"github.com/bflint/bflint/parser/config"
	"github.com/bflint/bflint/parser/plan"
	"golang.org/x/tools/go/analysis"
)

// Diagnostic is what a rule reports: go/analysis's diagnostic (position,
// message, suggested fixes) and, rarely, a severity other than the rule's
// default for this one finding.
type Diagnostic struct {
	analysis.Diagnostic
	Severity Severity
}

// Pass is one rule's view of one unit.
type Pass struct {
	Rule *Rule
	Unit *Unit
	// Plan is the unit's plan; nil for a standalone SQL file.
	Plan *plan.Plan
	// Now is the clock for every date rule (--now); rules never read the
	// system clock, so runs are reproducible.
	Now    time.Time
	Config *config.Config
	// Plans are every plan of the run, this one included: a correction
	// that spans several datasets is several plans, checked as a set.
	Plans []*plan.Plan

	report func(Diagnostic)
}

// Report records a diagnostic.
func (p *Pass) Report(d Diagnostic) { p.report(d) }

// Reportf records a diagnostic at pos with the rule's severity.
func (p *Pass) Reportf(pos token.Pos, format string, args ...any) {
	p.report(Diagnostic{Diagnostic: analysis.Diagnostic{Pos: pos, Message: fmt.Sprintf(format, args...)}})
}

// ReportSeverityf records a diagnostic at pos with a severity that differs
// from the rule's default, for rules whose catalogue entry escalates a case.
func (p *Pass) ReportSeverityf(sev Severity, pos token.Pos, format string, args ...any) {
	p.report(Diagnostic{Diagnostic: analysis.Diagnostic{Pos: pos, Message: fmt.Sprintf(format, args...)}, Severity: sev})
}

// PlanStart is where findings about an absent section point: the plan's
// first key.
func (p *Pass) PlanStart() token.Pos {
	if p.Plan != nil && p.Plan.Field.Key.IsValid() {
		return p.Plan.Field.Key
	}
	return p.Unit.File.Pos(0)
}

// SectionOr returns the position of a section's key when the section is
// present, else the plan start.
func (p *Pass) SectionOr(f plan.Field) token.Pos {
	if f.Key.IsValid() {
		return f.Key
	}
	return p.PlanStart()
}
