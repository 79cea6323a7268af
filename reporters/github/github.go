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
	bw := bufio.NewWriter(w)
	for _, f := range res.Findings {
		if f.Suppressed != nil {
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
		fmt.Fprintf(bw, "::%s %s::%s\n", command(reporters.EffectiveSeverity(f)), strings.Join(props, ","), EscapeData(f.Message))
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
		fmt.Fprintf(bw, "::error %s::%s\n", strings.Join(props, ","), EscapeData(e.Message))
	}
	return bw.Flush()
}

func command(s rules.Severity) string {
	switch s {
	case rules.SeverityError:
		return "error"
	case rules.SeverityWarning:
		return "warning"
	}
	return "notice"
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
