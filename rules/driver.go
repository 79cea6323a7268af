package rules

import (
	"fmt"
	"go/token"
	"runtime/debug"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/bflint/bflint/parser/config"
	"github.com/bflint/bflint/parser/plan"
	"github.com/bflint/bflint/parser/source"
	"golang.org/x/tools/go/analysis"
)

// Finding is a diagnostic after processing: attributed to its rule, with
// its final severity, and marked when an in-source directive suppressed it.
type Finding struct {
	Rule     *Rule
	Severity Severity
	File     *source.File
	Pos, End token.Pos
	// Message is the headline: the object and the consequence. Help is
	// the one concrete fix, "" when the rule has none to give.
	Message, Help string
	Fixes         []analysis.SuggestedFix
	// Suppressed holds the reason when a bflint:ignore comment or a
	// baseline suppressed the finding; suppressed findings count for
	// nothing but are kept for SARIF, which records them.
	Suppressed *Suppression
	// FromTokens is set when the finding comes from a statement read from
	// its tokens because it did not parse.
	FromTokens bool
	// Related are other places the finding is about, such as the INSERT
	// that a DELETE is not paired with.
	Related []Related
	// Plans are the plans whose lint reported the finding: several when
	// plans share a SQL file, none for a standalone SQL file.
	Plans []*plan.Plan
	// Inventory is Diagnostic.Inventory, Absent Diagnostic.Absent.
	Inventory, Absent bool
}

// Listed reports whether a report a person reads shows the finding: it
// is not suppressed, and not an entry of an inventory.
func (f Finding) Listed() bool { return f.Suppressed == nil && !f.Inventory }

// Text is the finding as one sentence, headline and help joined: what a
// fixture's want comment matches, and what one-line formats print.
func (f Finding) Text() string {
	if f.Help == "" {
		return f.Message
	}
	return f.Message + "; " + f.Help
}

// Related is a place a finding points at besides its own.
type Related struct {
	File     *source.File
	Pos, End token.Pos
	Message  string
}

// Suppression is why a finding is not counted.
type Suppression struct {
	Justification string
	// External is set when the finding was accepted outside the linted
	// files, by a baseline, rather than by a bflint:ignore comment: SARIF
	// consumers treat the two kinds differently.
	External bool
}

// InternalError is a rule that crashed or returned an error on a unit: a bug
// in bflint, reported so the run can go on with the other rules.
type InternalError struct {
	Rule    *Rule
	File    *source.File
	Message string
}

// Result is everything a run found.
type Result struct {
	Fset     *token.FileSet
	Rules    []*Rule // every known rule, for reporters that describe them
	Findings []Finding
	Errors   []InternalError
	Units    int
	// Inputs count the plans and lineages linted.
	Inputs Inputs
	// Coverage counts how the run's SQL statements were read.
	Coverage Coverage
	// Models are the run's dbt models, by file name, for the inventory
	// (bflint models) and the summary line.
	Models []Model
}

// Settings are the run-wide inputs of the driver.
type Settings struct {
	Registry *Registry
	Config   *config.Config
	Now      time.Time
	// Enabled lists the codes that run; nil runs every rule.
	Enabled map[string]bool
	// Severity overrides a rule's severity for all its findings.
	Severity map[string]Severity
	// Jobs is how many units are linted at once (at least 1).
	Jobs int
	// TokensOnly makes the rules read every statement from its tokens, as
	// if none had parsed. It exists for the test that the token fallback
	// and the parse tree give the same findings; a run never sets it.
	TokensOnly bool
	// CoverageByDialect splits Result.Coverage by each file's guessed
	// dialect, for --stats.
	CoverageByDialect bool
	// ModelReads makes the inventory list what each model reads (bflint
	// models); a lint run counts the models without it.
	ModelReads bool

	plans  []*plan.Plan // every readable plan of the run, for plan-set rules
	shared *sharedFacts
}

// maxJobs bounds -j: past the cores there is nothing to gain, and each
// job holds a unit's files and parse in memory.
const maxJobs = 256

func (s *Settings) enabled(r *Rule) bool { return s.Enabled == nil || s.Enabled[r.Code] }

// Run lints every unit and returns the processed findings.
func Run(fset *token.FileSet, units []*Unit, s *Settings) *Result {
	s.plans = nil
	for _, u := range units {
		if u.Plan != nil && u.Plan.Readable {
			s.plans = append(s.plans, u.Plan)
		}
	}
	units = Linted(units)
	s.shared = &sharedFacts{values: map[any]*sharedValue{}, linted: map[*plan.Plan]bool{}}
	for _, u := range units {
		if u.Plan != nil {
			s.shared.linted[u.Plan] = true
		}
	}
	res := &Result{Fset: fset, Rules: s.Registry.All(), Units: len(units), Inputs: InputsOf(units)}
	perUnit := make([]unitResult, len(units))
	jobs := min(max(s.Jobs, 1), max(len(units), 1), maxJobs)
	var wg sync.WaitGroup
	next := make(chan int)
	for range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				u := units[i]
				streamed := u.Parse != nil
				if streamed {
					u.Parse()
				}
				perUnit[i] = lintUnit(u, s)
				perUnit[i].summarise(u, s)
				if streamed {
					perUnit[i].release(u)
				}
			}
		}()
	}
	for _, i := range lintOrder(units) {
		next <- i
	}
	close(next)
	wg.Wait()
	seen := map[string]bool{}
	for _, ur := range perUnit {
		res.Findings = append(res.Findings, ur.findings...)
		res.Errors = append(res.Errors, ur.errors...)
		res.Models = append(res.Models, ur.models...)
		for _, fc := range ur.coverage {
			res.Coverage.add(fc, seen)
		}
	}
	res.Coverage.sortUnparsed()
	sortModels(res.Models)
	// Suppression already ran per unit, on raw findings, so that a
	// directive matches what the rule said; the run-wide steps follow.
	// They cannot fail.
	_ = Process(res, Processors(s)...)
	sort.SliceStable(res.Errors, func(i, j int) bool {
		if res.Errors[i].File.Name != res.Errors[j].File.Name {
			return res.Errors[i].File.Name < res.Errors[j].File.Name
		}
		return res.Errors[i].Rule.Code < res.Errors[j].Rule.Code
	})
	return res
}

// lintOrder is the order units are linted in: a streamed unit whose file
// was parsed before the run (load reads some files for definitions) goes
// first, so that its parse is not held while the others are read. The
// results keep the units' order whatever the order of linting.
func lintOrder(units []*Unit) []int {
	order := make([]int, 0, len(units))
	var later []int
	for i, u := range units {
		if u.Parse != nil && slices.ContainsFunc(u.SQL, func(sf *SQLFile) bool { return sf.Parsed != nil }) {
			order = append(order, i)
		} else {
			later = append(later, i)
		}
	}
	return append(order, later...)
}

// release lets go of what a streamed unit holds once its rules have run:
// on a repository of thousands of files, keeping them all is most of the
// memory a run holds. Its parse and facts go, and its text, but for what
// the reports show, the lines the findings are on, and for --fix the
// whole text of a file it may edit; and so do its references to its dbt
// project, whose model then goes once the project's last file is linted.
func (ur *unitResult) release(u *Unit) {
	u.Parse = nil
	u.facts = nil
	u.DBT = nil
	for _, sf := range u.SQL {
		sf.Parsed = nil
		sf.Project = nil
	}
	var keep []token.Pos
	for _, f := range ur.findings {
		if len(f.Fixes) > 0 {
			return
		}
		keep = append(keep, f.Pos, f.End)
		for _, r := range f.Related {
			keep = append(keep, r.Pos, r.End)
		}
	}
	for _, sf := range u.SQL {
		sf.Source.Release(keep...)
	}
}

type unitResult struct {
	findings []Finding
	errors   []InternalError
	coverage []fileCoverage
	models   []Model
}

func lintUnit(u *Unit, s *Settings) unitResult {
	var ur unitResult
	for _, r := range s.Registry.All() {
		if !s.enabled(r) || !r.applies(u) {
			continue
		}
		ur.runRule(r, u, s)
	}
	ur.findings = applyDirectives(u, ur.findings, s)
	return ur
}

func (r *Rule) applies(u *Unit) bool {
	if u.ReadError != nil || (u.Plan != nil && !u.Plan.Readable) {
		// A file that could not be read, or a plan that is not YAML, is
		// reported once, by the file rule of its kind; other rules would
		// only repeat that nothing is there.
		return r.Code == readErrorRule(u)
	}
	if u.Plan != nil && u.Plan.Origin != nil && !u.Plan.Origin.Rules[r.Code] {
		// A plan read from another format runs only the rules that format
		// can answer.
		return false
	}
	switch r.Scope {
	case ScopePlan:
		return u.Plan != nil
	case ScopeSQL:
		return true
	}
	return false
}

// readErrorRule names the rule that reports an unreadable file.
func readErrorRule(u *Unit) string {
	if u.Plan != nil {
		return "BF001"
	}
	return "BF003"
}

// summarise reads the unit's coverage and models under recover, as rules
// run: they read the statements too, and a crash there is a bug in bflint
// for this unit, not a dead run.
func (ur *unitResult) summarise(u *Unit, s *Settings) {
	defer func() {
		if p := recover(); p != nil {
			ur.errors = append(ur.errors, InternalError{File: u.File,
				Message: fmt.Sprintf("reading what was covered crashed: %v\n%s", p, firstFrames(debug.Stack()))})
		}
	}()
	ur.coverage = coverageOf(u, s.CoverageByDialect)
	ur.models = modelsOf(u, ur.findings, s.ModelReads)
}

// runRule runs one rule under recover, so that a crash becomes an internal
// error for this unit while every other rule and unit still runs.
func (ur *unitResult) runRule(r *Rule, u *Unit, s *Settings) {
	defer func() {
		if p := recover(); p != nil {
			ur.errors = append(ur.errors, InternalError{Rule: r, File: u.File,
				Message: fmt.Sprintf("rule %s (%s) crashed: %v\n%s", r.Code, r.Name, p, firstFrames(debug.Stack()))})
		}
	}()
	pass := &Pass{Rule: r, Unit: u, Plan: u.Plan, Now: s.Now, Config: s.Config, Plans: s.plans, tokensOnly: s.TokensOnly, shared: s.shared}
	pass.report = func(d Diagnostic) {
		sev := d.Severity
		if sev == SeverityDefault {
			sev = r.Severity
		}
		// A finding placed at the plan's start for want of the section it
		// is about would show the version line under it, which says
		// nothing: it shows no line, as ReportAbsentf's do.
		if u.Plan != nil && d.Pos == pass.PlanStart() && d.Pos == u.Plan.Version.Key {
			d.Absent = true
		}
		pos, file := d.Pos, u.fileOf(d.Pos)
		if file == nil {
			// A position outside the unit is a bug in the rule; the finding
			// is still shown, at the top of the unit's file.
			pos, file = u.File.Pos(0), u.File
		}
		end := d.End
		if !file.Contains(end) || end < pos {
			end = token.NoPos
		}
		var related []Related
		for _, ri := range d.Related {
			// A place outside the unit is a bug in the rule: it is left out
			// rather than shown somewhere it is not.
			if rf := u.fileOf(ri.Pos); rf != nil {
				rend := ri.End
				if !rf.Contains(rend) || rend < ri.Pos {
					rend = token.NoPos
				}
				related = append(related, Related{File: rf, Pos: ri.Pos, End: rend, Message: ri.Message})
			}
		}
		msg, help := SplitHelp(d.Message)
		var plans []*plan.Plan
		if u.Plan != nil {
			plans = []*plan.Plan{u.Plan}
		}
		ur.findings = append(ur.findings, Finding{Rule: r, Severity: sev, File: file, Pos: pos, End: end, Message: msg, Help: help, Fixes: d.SuggestedFixes, FromTokens: d.FromTokens, Related: related, Plans: plans, Inventory: d.Inventory, Absent: d.Absent})
	}
	if err := r.Run(pass); err != nil {
		ur.errors = append(ur.errors, InternalError{Rule: r, File: u.File, Message: fmt.Sprintf("rule %s (%s) failed: %v", r.Code, r.Name, err)})
	}
}

// firstFrames keeps the part of a stack trace that names the crashing code.
func firstFrames(stack []byte) string {
	lines := strings.Split(string(stack), "\n")
	if len(lines) > 16 {
		lines = lines[:16]
	}
	return strings.Join(lines, "\n")
}

// applyDirectives marks suppressed findings and reports directives that are
// malformed or match nothing (BF004).
func applyDirectives(u *Unit, findings []Finding, s *Settings) []Finding {
	for i := range findings {
		for _, d := range u.Directives {
			if d.suppresses(findings[i].Rule, findings[i].Pos) {
				findings[i].Suppressed = &Suppression{Justification: d.Reason}
			}
		}
	}
	bf004 := s.Registry.Lookup("BF004")
	if bf004 == nil || !s.enabled(bf004) {
		return findings
	}
	for _, d := range u.Directives {
		for _, msg := range directiveProblems(d, s) {
			findings = append(findings, Finding{Rule: bf004, Severity: bf004.Severity, File: d.File, Pos: d.Pos, Message: msg})
		}
	}
	return findings
}

func directiveProblems(d *Directive, s *Settings) []string {
	var out []string
	if len(d.Names) == 0 {
		return []string{"bflint:ignore names no rule: write the code to suppress and a reason, e.g. \"bflint:ignore BF601 rollback is the table format's time travel\""}
	}
	for _, n := range d.Names {
		r := s.Registry.Lookup(n)
		switch {
		case r == nil:
			out = append(out, fmt.Sprintf("bflint:ignore: %s", s.Registry.UnknownError(n)))
		case !d.From.IsValid():
			out = append(out, fmt.Sprintf("bflint:ignore %s is not followed by anything it could apply to", n))
		case !d.matched[r.Code] && s.enabled(r):
			out = append(out, fmt.Sprintf("bflint:ignore %s suppresses nothing: there is no %s finding on the line it governs; remove the directive", n, r.Code))
		}
	}
	if d.Reason == "" {
		out = append(out, fmt.Sprintf("bflint:ignore %s has no reason: say why the finding does not apply, so the next reader can judge it", strings.Join(d.Names, ",")))
	}
	return out
}
