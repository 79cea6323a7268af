package rules

import (
	"go/token"
	"strings"

	"github.com/bflint/bflint/parser/source"
	"github.com/bflint/bflint/parser/yamlx"
)

const directivePrefix = "bflint:ignore"

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
		if !codePattern.MatchString(strings.ToUpper(p)) && !(strings.Contains(p, "-") && namePattern.MatchString(p)) {
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
	if !d.From.IsValid() || pos < d.From || pos >= d.To {
		return false
	}
	for _, n := range d.Names {
		if strings.EqualFold(n, r.Code) || n == r.Name {
			if d.matched == nil {
				d.matched = map[string]bool{}
			}
			d.matched[r.Code] = true
			return true
		}
	}
	return false
}
