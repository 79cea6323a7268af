// Package reporters holds what the output formats share: turning a finding's
// token.Pos into the line and column units each format wants, and the
// fingerprint that lets code-scanning services follow a finding across
// commits. Each format lives in its own subpackage (text, json, sarif,
// github, rdjsonl); positions stay token.Pos everywhere else in bflint and become
// lines and columns only here.
package reporters

import (
	"bytes"
	"encoding/json"
	"go/token"
	"io"
	"unicode/utf8"

	"github.com/bflint/bflint/parser/source"
	"github.com/bflint/bflint/rules"
)

// Position is a point in a file in the units the formats need. Every field
// is 1-based.
type Position struct {
	Line int
	// Column counts bytes, as go/token and most editors' "file:line:col"
	// jumps do.
	Column int
	// UTF16Column counts UTF-16 code units, SARIF's default column unit
	// and the one JavaScript front ends (GitHub's among them) use.
	UTF16Column int
}

// Locate converts pos, which must lie in f, to a Position; ok is false when
// it does not, so a caller can fall back or drop an end it cannot trust.
func Locate(fset *token.FileSet, f *source.File, pos token.Pos) (p Position, ok bool) {
	if fset == nil || f == nil || !f.Contains(pos) {
		return Position{}, false
	}
	tp := fset.Position(pos)
	if tp.Line < 1 {
		// An empty file has no line table, so go/token answers 0:0; the
		// formats all need a real line.
		tp.Line, tp.Column = 1, 1
	}
	return Position{Line: tp.Line, Column: tp.Column, UTF16Column: utf16Column(f.Line(tp.Line), tp.Column)}, true
}

// Span gives where a finding starts and, when its End is usable (in the same
// file and not before Pos), where it ends. A start outside the finding's file
// falls back to the top of the file, as the driver does for rules that
// report a stray position.
func Span(fset *token.FileSet, f rules.Finding) (start, end Position, hasEnd bool) {
	start, ok := Locate(fset, f.File, f.Pos)
	if !ok {
		start = Position{Line: 1, Column: 1, UTF16Column: 1}
		return start, Position{}, false
	}
	if !f.End.IsValid() || f.End < f.Pos {
		return start, Position{}, false
	}
	end, hasEnd = Locate(fset, f.File, f.End)
	return start, end, hasEnd
}

// RelatedSpan is Span for a place a finding names as related.
func RelatedSpan(fset *token.FileSet, r rules.Related) (start, end Position, hasEnd bool) {
	return Span(fset, rules.Finding{File: r.File, Pos: r.Pos, End: r.End})
}

// utf16Column converts a 1-based byte column on line to UTF-16 code units.
// A column past the text (an end at the line break, or at a '\r' that
// source.File.Line strips) counts the extra bytes one unit each, since they
// are ASCII line-ending bytes.
func utf16Column(line string, byteCol int) int {
	n := byteCol - 1
	if n < 0 {
		return 1
	}
	extra := 0
	if n > len(line) {
		extra = n - len(line)
		n = len(line)
	}
	units := 0
	for i := 0; i < n; {
		r, size := utf8.DecodeRuneInString(line[i:])
		if i+size > n {
			// The column splits a character; count the part before it as
			// the whole character so the column lands on it.
			size = n - i
		}
		if r >= 0x10000 {
			units += 2
		} else {
			units++
		}
		i += size
	}
	return units + extra + 1
}

// EffectiveSeverity is the severity a finding is shown with; the driver
// always sets one, but a finding built by hand may leave the zero value,
// which means the rule's default.
func EffectiveSeverity(f rules.Finding) rules.Severity {
	if f.Severity != rules.SeverityDefault || f.Rule == nil {
		return f.Severity
	}
	return f.Rule.Severity
}

// RuleCode and FileName let reporters name the rule and file of a finding or
// internal error that was built without one (a CLI-level failure, a test)
// instead of crashing while reporting.
func RuleCode(r *rules.Rule) string {
	if r == nil {
		return ""
	}
	return r.Code
}

// RuleName: see RuleCode.
func RuleName(r *rules.Rule) string {
	if r == nil {
		return ""
	}
	return r.Name
}

// FileName: see RuleCode.
func FileName(f *source.File) string {
	if f == nil {
		return ""
	}
	return f.Name
}

// WriteJSON encodes v indented into memory first, so a failure never leaves
// half a document on w. HTML escaping is off: messages quote SQL, where "<",
// ">" and "&" are common, and the output is never embedded in HTML.
func WriteJSON(w io.Writer, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(buf.Bytes())
	return err
}
