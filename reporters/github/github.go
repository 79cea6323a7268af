// Package github renders findings as GitHub Actions workflow commands
// ("::error file=...::message"), which the runner turns into annotations on
// the pull request diff without any upload step.
package github

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/bflint/bflint/reporters"
	"github.com/bflint/bflint/rules"
)

// Options is empty for now; it exists so every reporter is called the same
// way and options can be added without changing callers.
type Options struct{}

// Write prints one workflow command per active finding (suppressed findings
// are left out: an annotation cannot be marked suppressed), then one error
// command per internal error.
//
// Columns are 1-based UTF-16 code units, the unit of GitHub's JavaScript
// front end and of its SARIF import; they differ from the byte columns of
// the text format only on lines with non-ASCII text.
func Write(w io.Writer, res *rules.Result, opts Options) error {
	return reporters.WritePrintable(w, func(w io.Writer) error { return write(w, res, opts) })
}

// write writes what its exported form passes through reporters.WritePrintable.
func write(w io.Writer, res *rules.Result, opts Options) error {
	bw := bufio.NewWriter(w)
	for _, a := range annotations(res) {
		bw.WriteString(a.line)
	}
	return bw.Flush()
}

// StepLimit is how many annotations of each kind GitHub shows for one step
// of a job: its documented limits are 10 errors, 10 warnings and 10 notices
// per step (and 50 in all per job, which one step can neither see nor
// control). Past them, annotations are dropped without a word.
const StepLimit = 10

// WriteAnnotations prints what Write prints, most severe first (errors,
// then warnings, then notices, each in the result's order), at most limit
// of each kind, and when some are left out a last notice saying how many.
// Ordering by severity makes the annotations GitHub keeps the ones that
// matter. The closing notice counts against the notice limit itself, so
// when it is needed one notice slot is kept free for it. limit must not be
// negative.
func WriteAnnotations(w io.Writer, res *rules.Result, limit int) error {
	return reporters.WritePrintable(w, func(w io.Writer) error { return writeAnnotations(w, res, limit) })
}

// writeAnnotations writes what its exported form passes through reporters.WritePrintable.
func writeAnnotations(w io.Writer, res *rules.Result, limit int) error {
	var byKind [3][]annotation
	for _, a := range annotations(res) {
		byKind[a.kind] = append(byKind[a.kind], a)
	}
	shown := [3]int{}
	hidden := 0
	for k := range byKind {
		shown[k] = min(len(byKind[k]), limit)
		hidden += len(byKind[k]) - shown[k]
	}
	if hidden > 0 && limit > 0 && shown[noticeKind] == limit {
		shown[noticeKind]--
		hidden++
	}
	bw := bufio.NewWriter(w)
	for k := range byKind {
		for _, a := range byKind[k][:shown[k]] {
			bw.WriteString(a.line)
		}
	}
	if hidden > 0 {
		fmt.Fprintf(bw, "::notice::%s\n", EscapeData(fmt.Sprintf(
			"bflint: %d more finding(s) not annotated: GitHub shows at most %d errors, %d warnings and %d notices per step. The step log lists every finding.",
			hidden, limit, limit, limit)))
	}
	return bw.Flush()
}

// Kinds of annotation, most severe first.
const (
	errorKind = iota
	warningKind
	noticeKind
)

type annotation struct {
	kind int
	line string // the whole command, with its newline
}

// annotations renders every command in the result's order: findings, then
// internal errors.
func annotations(res *rules.Result) []annotation {
	var out []annotation
	for _, f := range res.Findings {
		if !f.Listed() {
			continue
		}
		start, end, hasEnd := reporters.Span(res.Fset, f)
		props := []string{
			"file=" + EscapeProperty(reporters.FileName(f.File)),
			"line=" + strconv.Itoa(start.Line),
			"col=" + strconv.Itoa(start.UTF16Column),
		}
		if hasEnd {
			props = append(props, "endLine="+strconv.Itoa(end.Line))
			// GitHub keeps end columns only for single-line annotations.
			if end.Line == start.Line {
				props = append(props, "endColumn="+strconv.Itoa(end.UTF16Column))
			}
		}
		props = append(props, "title="+EscapeProperty(reporters.RuleCode(f.Rule)+" "+reporters.RuleName(f.Rule)))
		kind := kindOf(reporters.EffectiveSeverity(f))
		out = append(out, annotation{kind: kind, line: fmt.Sprintf("::%s %s::%s\n", commands[kind], strings.Join(props, ","), EscapeData(reporters.MessageWithHelp(f)))})
	}
	for _, e := range res.Errors {
		var props []string
		if name := reporters.FileName(e.File); name != "" {
			props = append(props, "file="+EscapeProperty(name))
		}
		title := "bflint internal error"
		if code := reporters.RuleCode(e.Rule); code != "" {
			title += " in " + code
		}
		props = append(props, "title="+EscapeProperty(title))
		out = append(out, annotation{kind: errorKind, line: fmt.Sprintf("::error %s::%s\n", strings.Join(props, ","), EscapeData(e.Message))})
	}
	return out
}

var commands = [3]string{errorKind: "error", warningKind: "warning", noticeKind: "notice"}

func kindOf(s rules.Severity) int {
	switch s {
	case rules.SeverityError:
		return errorKind
	case rules.SeverityWarning:
		return warningKind
	}
	return noticeKind
}

// The runner splits a command at the first "::" after the properties, the
// properties at ',' and each property at the first '='. Escaping follows the
// runner's own table (actions/toolkit, command.ts): without it, a newline in
// a message would end the command and let the next line of the message be
// read as a command of its own.
var (
	dataEscaper     = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	propertyEscaper = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
)

// EscapeData escapes a command's message.
func EscapeData(s string) string { return dataEscaper.Replace(s) }

// EscapeProperty escapes a property value such as a file name or title.
func EscapeProperty(s string) string { return propertyEscaper.Replace(s) }
