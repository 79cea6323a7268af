package reporters

import (
	"fmt"

	"github.com/bflint/bflint/rules"
)

// Counts are a run's findings by severity as they are shown (suppressed
// findings counted apart), and its internal errors.
type Counts struct {
	Errors, Warnings, Infos, Suppressed, Internal int
}

// Count tallies the findings and internal errors of res.
func Count(res *rules.Result) Counts {
	c := Counts{Internal: len(res.Errors)}
	for _, f := range res.Findings {
		if f.Suppressed != nil {
			c.Suppressed++
			continue
		}
		switch EffectiveSeverity(f) {
		case rules.SeverityError:
			c.Errors++
		case rules.SeverityWarning:
			c.Warnings++
		default:
			c.Infos++
		}
	}
	return c
}

// String is the summary a report closes or opens with: the counts a user
// acts on, with suppressed findings and internal errors only when there
// are some.
func (c Counts) String() string {
	var s string
	if c.Errors+c.Warnings+c.Infos == 0 {
		s = "no findings"
	} else {
		s = Plural(c.Errors, "error") + ", " + Plural(c.Warnings, "warning")
		if c.Infos > 0 {
			s += ", " + Plural(c.Infos, "info")
		}
	}
	if c.Suppressed > 0 {
		s += fmt.Sprintf(" (%d suppressed)", c.Suppressed)
	}
	if c.Internal > 0 {
		s += "; " + Plural(c.Internal, "internal error")
	}
	return s
}

// Plural is "1 word" or "n words".
func Plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// CoverageLine says how the run's SQL statements were read, for the text
// and Markdown reports: "2,136 SQL files, 9,812 statements: 96.1% parsed,
// 3.7% read from tokens, 0.2% not read". It is "" when the run read no SQL
// statement.
func CoverageLine(c rules.Coverage) string {
	n := c.Total()
	if n == 0 {
		return ""
	}
	files := thousands(c.Files) + " SQL files"
	if c.Files == 1 {
		files = "1 SQL file"
	}
	statements := thousands(n) + " statements"
	if n == 1 {
		statements = "1 statement"
	}
	return fmt.Sprintf("%s, %s: %s parsed, %s read from tokens, %s not read", files, statements,
		percent(c.Parsed(), n), percent(c.FromTokens(), n), percent(c.NotRead(), n))
}

func percent(n, whole int) string { return fmt.Sprintf("%.1f%%", 100*float64(n)/float64(whole)) }

// thousands writes n with a comma between groups of three digits.
func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
