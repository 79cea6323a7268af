package rules

import (
	"fmt"
	"go/token"
	"strings"
	"time"

	"github.com/bflint/bflint/parser/config"
	"github.com/bflint/bflint/parser/plan"
	"github.com/bflint/bflint/parser/sqlparse"
	"github.com/bflint/bflint/parser/sqlparse/fact"
	"golang.org/x/tools/go/analysis"
)

// Diagnostic is what a rule reports: go/analysis's diagnostic (position,
// message, suggested fixes) and, rarely, a severity other than the rule's
// default for this one finding.
type Diagnostic struct {
	analysis.Diagnostic
	Severity Severity
	// FromTokens is set when the finding comes from a statement read from
	// its tokens because it did not parse: coarser than a parse tree, so
	// reporters say so.
	FromTokens bool
	// Inventory marks one entry of a project-wide inventory (BF111's
	// models that cannot be backfilled by range): counted in the summary
	// and kept by the machine formats, but not printed one by one by the
	// formats a person reads, where hundreds would bury the rest.
	Inventory bool
	// Absent marks a finding about what a file lacks (a plan section):
	// no line shows it, so reporters print no source line under it.
	Absent bool
}

// TokensNote ends the message of a finding read from a statement's tokens.
const TokensNote = " (analysed from tokens: the statement did not parse)"

// HelpMarker separates a message's headline (the object and what goes
// wrong) from its help (the one concrete fix), as a rule writes it:
// "rerun.write is append: ... doubling them\nhelp: use merge on a unique
// key". Reporters show the help on its own line, as rustc and ruff do.
const HelpMarker = "\nhelp: "

// SplitHelp parts a reported message into its headline and its help; the
// note of a finding read from tokens stays with the headline.
func SplitHelp(message string) (headline, help string) {
	headline, help, found := strings.Cut(message, HelpMarker)
	if !found {
		return message, ""
	}
	if strings.HasSuffix(help, TokensNote) {
		headline, help = headline+TokensNote, strings.TrimSuffix(help, TokensNote)
	}
	return headline, help
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

	report     func(Diagnostic)
	tokensOnly bool
	shared     *sharedFacts
}

// Report records a diagnostic.
func (p *Pass) Report(d Diagnostic) { p.report(d) }

// Reportf records a diagnostic at pos with the rule's severity.
func (p *Pass) Reportf(pos token.Pos, format string, args ...any) {
	p.report(Diagnostic{Diagnostic: analysis.Diagnostic{Pos: pos, Message: fmt.Sprintf(format, args...)}})
}

// ReportAbsentf reports what the plan lacks, at its start (PlanStart),
// with no source line shown under the message.
func (p *Pass) ReportAbsentf(format string, args ...any) {
	p.report(Diagnostic{Diagnostic: analysis.Diagnostic{Pos: p.PlanStart(), Message: fmt.Sprintf(format, args...)}, Absent: true})
}

// ReportSeverityf records a diagnostic at pos with a severity that differs
// from the rule's default, for rules whose catalogue entry escalates a case.
func (p *Pass) ReportSeverityf(sev Severity, pos token.Pos, format string, args ...any) {
	p.report(Diagnostic{Diagnostic: analysis.Diagnostic{Pos: pos, Message: fmt.Sprintf(format, args...)}, Severity: sev})
}

// ReportTokensf records a diagnostic at pos, with the rule's severity,
// about a statement read from its tokens: the message says so.
func (p *Pass) ReportTokensf(pos token.Pos, format string, args ...any) {
	p.report(Diagnostic{Diagnostic: analysis.Diagnostic{Pos: pos, Message: fmt.Sprintf(format, args...) + TokensNote}, FromTokens: true})
}

// ReporterFor returns Reportf, or ReportTokensf when the finding is about
// a statement read from its tokens.
func (p *Pass) ReporterFor(fromTokens bool) func(pos token.Pos, format string, args ...any) {
	if fromTokens {
		return p.ReportTokensf
	}
	return p.Reportf
}

// tokensKey keys a statement's token facts in the unit's facts.
type tokensKey struct{ st *sqlparse.Statement }

// Tokens returns what the tokens of st say when the rules must read it
// from them: it did not parse, and it is not the unread rest of a file
// after a lexer fault (which has no text). nil when its parse tree is
// read. Under Settings.TokensOnly every statement is read from tokens.
func (p *Pass) Tokens(st *sqlparse.Statement) *fact.TokenFacts {
	if st.Text == "" || !p.tokensOnly && (st.Node != nil || st.Problem == nil) {
		return nil
	}
	return p.Unit.Fact(tokensKey{st}, func() any { return st.TokenFacts() }).(*fact.TokenFacts)
}

// Joined returns what st joins, from its parse tree or, when it did not
// parse, from its tokens (Joined.FromTokens is then set).
func (p *Pass) Joined(st *sqlparse.Statement) fact.Joined {
	if tf := p.Tokens(st); tf != nil {
		return tf.Joined()
	}
	return st.Joined()
}

// Writes returns what st writes, from its parse tree or, when it did not
// parse, from its tokens (fromTokens is then set, and findings about the
// writes are reported with ReportTokensf).
func (p *Pass) Writes(st *sqlparse.Statement) (ws []fact.Write, fromTokens bool) {
	if tf := p.Tokens(st); tf != nil {
		return tf.Writes, true
	}
	return st.Writes(), false
}

// WriteConditions returns the conditions that choose the rows of w, a
// write of st, read the way Writes read it: from the parse tree, or when
// st did not parse, from its tokens.
func (p *Pass) WriteConditions(st *sqlparse.Statement, w fact.Write) []sqlparse.Condition {
	if tf := p.Tokens(st); tf != nil {
		return st.TokenWriteConditions(tf, w)
	}
	return st.WriteConditions(w)
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

// Listing writes names as English does, for messages: "a", "a and b",
// "a, b and c".
func Listing(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}
