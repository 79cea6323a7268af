// Package rules is bflint's rule framework: rules, the pass a rule runs in,
// the registry, the driver that runs every rule over every unit, and the
// processors that turn raw diagnostics into the findings a user sees.
package rules

import (
	"fmt"
	"regexp"
	"strings"
)

// Severity orders findings; the zero value means "the rule's default".
type Severity int

const (
	SeverityDefault Severity = iota
	SeverityInfo
	SeverityWarning
	SeverityError
)

func (s Severity) String() string {
	switch s {
	case SeverityInfo:
		return "info"
	case SeverityWarning:
		return "warning"
	case SeverityError:
		return "error"
	}
	return "default"
}

// ParseSeverity reads "error", "warning" or "info".
func ParseSeverity(s string) (Severity, error) {
	switch strings.ToLower(s) {
	case "error":
		return SeverityError, nil
	case "warning", "warn":
		return SeverityWarning, nil
	case "info", "note":
		return SeverityInfo, nil
	}
	return SeverityDefault, fmt.Errorf("unknown severity %q: use error, warning or info", s)
}

// Scope says what a rule reads.
type Scope int

const (
	// ScopePlan rules run once per plan, with the files it references.
	ScopePlan Scope = iota + 1
	// ScopeSQL rules also run on standalone SQL files, which no plan
	// references; inside a plan unit they see the plan too.
	ScopeSQL
)

// Example is a snippet shown in a rule's documentation.
type Example struct {
	Lang string // "yaml" or "sql"
	Text string
}

// Doc is a rule's documentation; `bflint explain`, SARIF rule help and the
// pages under docs/rules are all rendered from it.
type Doc struct {
	Title string  // one line, shown in `bflint rules`
	Why   string  // what goes wrong in a backfill when this is ignored
	Bad   Example // a plan or SQL the rule reports
	Good  Example // the same, fixed
}

// Rule is one check, declared as a package-level value beside its
// documentation.
type Rule struct {
	Code     string // BFnnn, stable
	Name     string // kebab-case, stable
	Severity Severity
	// StandaloneSeverity, when set, is the severity of its findings in SQL
	// files no plan names, where nothing rests on them yet.
	StandaloneSeverity Severity
	Scope              Scope
	Doc                Doc
	// ReadsTokens is set for a rule that also checks statements read from
	// their tokens because they did not parse (Pass.Tokens, Pass.Writes,
	// Pass.Joined); BF002 names these rules.
	ReadsTokens bool
	// Run inspects one unit and reports findings through the pass. An error
	// means the rule itself is broken, never that the input is bad.
	Run func(*Pass) error
}

var (
	codePattern = regexp.MustCompile(`^BF\d{3}$`)
	namePattern = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
)

// ProjectURL is bflint's home, named in reports that link back to it.
const ProjectURL = "https://github.com/bflint/bflint"

// Severities says the rule's default severity in words: "error", or
// "error (warning standalone)" when SQL files no plan names get another.
func (r *Rule) Severities() string {
	if r.StandaloneSeverity == SeverityDefault || r.StandaloneSeverity == r.Severity {
		return r.Severity.String()
	}
	return fmt.Sprintf("%s (%s standalone)", r.Severity, r.StandaloneSeverity)
}

// URL is the page of the rule's documentation, docs/rules/<CODE>.md.
func (r *Rule) URL() string {
	return ProjectURL + "/blob/main/docs/rules/" + r.Code + ".md"
}

// validate checks the declaration of a rule, so a malformed rule fails the
// registry at start-up rather than in a user's report.
func (r *Rule) validate() error {
	switch {
	case !codePattern.MatchString(r.Code):
		return fmt.Errorf("rule code %q is not BFnnn", r.Code)
	case !namePattern.MatchString(r.Name):
		return fmt.Errorf("rule %s: name %q is not kebab-case", r.Code, r.Name)
	case r.Severity == SeverityDefault:
		return fmt.Errorf("rule %s: no default severity", r.Code)
	case r.Scope == 0:
		return fmt.Errorf("rule %s: no scope", r.Code)
	case r.Run == nil:
		return fmt.Errorf("rule %s: no Run function", r.Code)
	case r.Doc.Title == "" || r.Doc.Why == "" || r.Doc.Bad.Text == "" || r.Doc.Good.Text == "":
		return fmt.Errorf("rule %s: documentation needs a title, why, bad and good example", r.Code)
	}
	return nil
}
