// Package rdjsonl renders findings in reviewdog's Diagnostic format, one
// JSON object per line (reviewdog -f=rdjsonl), so reviewdog can post them
// as pull-request review comments on any of the code hosts it supports.
package rdjsonl

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"

	"github.com/bflint/bflint/reporters"
	"github.com/bflint/bflint/rules"
	"golang.org/x/tools/go/analysis"
)

// Options is empty for now; it exists so every reporter is called the same
// way and options can be added without changing callers.
type Options struct{}

// The structs follow reviewdog's proto/rdf/reviewdog.proto, field for
// field in its JSON names, for the subset bflint fills.

// Diagnostic is one line of the output.
type Diagnostic struct {
	Message     string       `json:"message"`
	Location    Location     `json:"location"`
	Severity    string       `json:"severity"`
	Source      Source       `json:"source"`
	Code        Code         `json:"code"`
	Suggestions []Suggestion `json:"suggestions,omitempty"`
	// RelatedLocations are other places the finding is about.
	RelatedLocations []RelatedLocation `json:"related_locations,omitempty"`
}

// RelatedLocation is a place a finding names besides its own.
type RelatedLocation struct {
	Message  string   `json:"message"`
	Location Location `json:"location"`
}

// Location is a file and the range of the finding in it.
type Location struct {
	Path  string `json:"path"`
	Range Range  `json:"range"`
}

// Range's End is exclusive; without one, reviewdog treats the range as the
// start point.
type Range struct {
	Start Position  `json:"start"`
	End   *Position `json:"end,omitempty"`
}

// Position is 1-based; Column counts UTF-8 bytes, reviewdog's unit.
type Position struct {
	Line   int `json:"line"`
	Column int `json:"column"`
}

// Source names the tool that produced the diagnostic.
type Source struct {
	Name string `json:"name"`
	URL  string `json:"url"`
}

// Code is the rule code and its documentation page.
type Code struct {
	Value string `json:"value"`
	URL   string `json:"url"`
}

// Suggestion replaces Range with Text.
type Suggestion struct {
	Range Range  `json:"range"`
	Text  string `json:"text"`
}

// Write prints one diagnostic per active finding. Suppressed findings are
// left out, since reviewdog has no way to show them as suppressed, and so
// are internal errors: they have no position to comment on, and the exit
// code and stderr already report them.
func Write(w io.Writer, res *rules.Result, _ Options) error {
	bw := bufio.NewWriter(w)
	var line bytes.Buffer
	enc := json.NewEncoder(&line)
	// Messages quote SQL, where "<", ">" and "&" are common.
	enc.SetEscapeHTML(false)
	for _, f := range res.Findings {
		if !f.Listed() {
			continue
		}
		line.Reset()
		if err := enc.Encode(diagnostic(res, f)); err != nil {
			return err
		}
		bw.Write(line.Bytes())
	}
	return bw.Flush()
}

func diagnostic(res *rules.Result, f rules.Finding) Diagnostic {
	start, end, hasEnd := reporters.Span(res.Fset, f)
	rng := Range{Start: Position{Line: start.Line, Column: start.Column}}
	if hasEnd {
		rng.End = &Position{Line: end.Line, Column: end.Column}
	}
	code := reporters.RuleCode(f.Rule)
	d := Diagnostic{
		Message:  reporters.MessageWithHelp(f),
		Location: Location{Path: reporters.FileName(f.File), Range: rng},
		Severity: severity(reporters.EffectiveSeverity(f)),
		Source:   Source{Name: "bflint", URL: rules.ProjectURL},
		Code:     Code{Value: code},
	}
	if f.Rule != nil {
		d.Code.URL = f.Rule.URL()
	}
	for _, r := range f.Related {
		rs, re, hasEnd := reporters.RelatedSpan(res.Fset, r)
		rr := Range{Start: Position{Line: rs.Line, Column: rs.Column}}
		if hasEnd {
			rr.End = &Position{Line: re.Line, Column: re.Column}
		}
		d.RelatedLocations = append(d.RelatedLocations, RelatedLocation{Message: r.Message, Location: Location{Path: reporters.FileName(r.File), Range: rr}})
	}
	for _, fix := range f.Fixes {
		if s, ok := suggestions(res, f, fix); ok {
			d.Suggestions = append(d.Suggestions, s...)
		}
	}
	return d
}

// suggestions converts a fix's edits; ok is false when an edit leaves the
// finding's file, because reviewdog applies suggestions to the diagnostic's
// own file and half a fix would break it.
func suggestions(res *rules.Result, f rules.Finding, fix analysis.SuggestedFix) ([]Suggestion, bool) {
	var out []Suggestion
	for _, e := range fix.TextEdits {
		end := e.End
		if !end.IsValid() {
			end = e.Pos // an insertion
		}
		s, ok1 := reporters.Locate(res.Fset, f.File, e.Pos)
		en, ok2 := reporters.Locate(res.Fset, f.File, end)
		if !ok1 || !ok2 || end < e.Pos {
			return nil, false
		}
		out = append(out, Suggestion{
			Range: Range{Start: Position{Line: s.Line, Column: s.Column}, End: &Position{Line: en.Line, Column: en.Column}},
			Text:  string(e.NewText),
		})
	}
	return out, true
}

func severity(s rules.Severity) string {
	switch s {
	case rules.SeverityError:
		return "ERROR"
	case rules.SeverityWarning:
		return "WARNING"
	}
	return "INFO"
}
