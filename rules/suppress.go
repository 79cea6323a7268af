package rules

import (
	"go/token"
	"regexp"
	"strings"

	"github.com/bflint/bflint/parser/source"
	"github.com/bflint/bflint/parser/sqlparse"
	"github.com/bflint/bflint/parser/yamlx"
)

const directivePrefix = "bflint:ignore"

// codeLike accepts anything shaped like a code, typos included, so that
// "BF20" is reported as an unknown rule rather than read as the reason.
var codeLike = regexp.MustCompile(`(?i)^BF\d+$`)

// Directive is one "bflint:ignore CODE[,CODE] reason" comment and the span
// of text it governs.
type Directive struct {
	File     *source.File
	Pos      token.Pos // the comment
	From, To token.Pos // the governed line (or, in SQL, statement)
	Names    []string  // rule codes or names as written
	Reason   string
	matched  map[string]bool // codes that suppressed a finding
}

// ParseDirective splits the text after a comment marker into rule names and
// a reason; ok is false when the comment is not a directive.
func ParseDirective(text string) (names []string, reason string, ok bool) {
	rest, found := strings.CutPrefix(strings.TrimSpace(text), directivePrefix)
	if !found || (rest != "" && rest[0] != ' ' && rest[0] != '\t') {
		return nil, "", false
	}
	fields := strings.Fields(rest)
	i := 0
	// Codes come first, separated by commas and/or spaces; the first word
	// that is not code-shaped starts the reason.
	for ; i < len(fields); i++ {
		word := fields[i]
		parts := strings.Split(strings.Trim(word, ","), ",")
		if !allCodeShaped(parts) {
			break
		}
		for _, p := range parts {
			if p != "" {
				names = append(names, p)
			}
		}
	}
	return names, strings.Join(fields[i:], " "), true
}

func allCodeShaped(parts []string) bool {
	for _, p := range parts {
		if p == "" {
			continue
		}
		if !codeLike.MatchString(p) && !(strings.Contains(p, "-") && namePattern.MatchString(p)) {
			return false
		}
	}
	return true
}

// YAMLDirectives finds the directives of a YAML file. A directive on its
// own line governs the next line holding a key; a trailing one governs its
// own line.
func YAMLDirectives(f *source.File) []*Directive {
	var out []*Directive
	for _, c := range yamlx.Comments(f) {
		names, reason, ok := ParseDirective(c.Text)
		if !ok {
			continue
		}
		d := &Directive{File: f, Pos: f.LineCol(c.Line, c.Col), Names: names, Reason: reason}
		if c.Target > 0 {
			d.From, d.To = f.LineStart(c.Target), f.LineStart(c.Target+1)
			if c.Target+1 > lineCount(f) {
				d.To = f.Pos(len(f.Content))
			}
		}
		out = append(out, d)
	}
	return out
}

func lineCount(f *source.File) int { return strings.Count(string(f.Content), "\n") + 1 }

// suppresses reports whether the directive covers a finding of rule r at
// pos, and remembers the match.
func (d *Directive) suppresses(r *Rule, pos token.Pos) bool {
	if !d.governs(r, pos) {
		return false
	}
	if d.matched == nil {
		d.matched = map[string]bool{}
	}
	d.matched[r.Code] = true
	return true
}

// governs says whether the directive names r and governs pos.
func (d *Directive) governs(r *Rule, pos token.Pos) bool {
	if !d.From.IsValid() || pos < d.From || pos >= d.To {
		return false
	}
	for _, n := range d.Names {
		if strings.EqualFold(n, r.Code) || n == r.Name {
			return true
		}
	}
	return false
}

// Governed says whether a bflint:ignore directive naming the pass's rule
// governs pos. A rule that folds several places into one finding reports
// a governed place on its own instead, so that the directive suppresses
// that place alone and is not reported as suppressing nothing.
func (p *Pass) Governed(pos token.Pos) bool {
	for _, d := range p.Unit.Directives {
		if d.governs(p.Rule, pos) {
			return true
		}
	}
	return false
}

// SQLDirectives finds the directives of a SQL file. A directive governs a
// whole statement: the one its line trails, else the next one.
func SQLDirectives(sf *SQLFile) []*Directive {
	var out []*Directive
	for _, c := range sf.Parsed.Comments {
		names, reason, ok := ParseDirective(c.Text)
		if !ok {
			continue
		}
		d := &Directive{File: sf.Source, Pos: sf.Pos(c.Start), Names: names, Reason: reason}
		if st := governed(sf.Parsed.Statements, c); st != nil {
			d.From, d.To = sf.Pos(st.Start), sf.Pos(st.End)
		}
		out = append(out, d)
	}
	return out
}

// governed is the statement a directive comment applies to: for a trailing
// comment the last statement starting before it, else the first statement
// after it.
func governed(stmts []*sqlparse.Statement, c sqlparse.Comment) *sqlparse.Statement {
	var found *sqlparse.Statement
	for _, st := range stmts {
		switch {
		case c.Trailing && st.Start < c.Start:
			if found == nil || st.Start > found.Start {
				found = st
			}
		case !c.Trailing && st.Start > c.Start:
			if found == nil || st.Start < found.Start {
				found = st
			}
		}
	}
	return found
}
