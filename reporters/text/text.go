// Package text renders findings for people at a terminal, in the compact
// shape of golangci-lint: a "path:line:col: severity: message [CODE name]"
// line that editors and CI log viewers can jump to, the source line, and a
// caret under the column.
package text

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/bflint/bflint/parser/source"
	"github.com/bflint/bflint/reporters"
	"github.com/bflint/bflint/rules"
	"github.com/fatih/color"
)

// Options control the text output.
type Options struct {
	// Color turns ANSI colours on. The CLI decides it (NO_COLOR, --no-color,
	// whether stdout is a terminal); the reporter never guesses, so that
	// output written to a file or a test buffer is plain unless asked for.
	Color bool
	// Verdict prints the summary line alone (and internal errors, which a
	// user must not miss), each line prefixed with VerdictLabel, usually
	// the paths linted: bflint -q.
	Verdict      bool
	VerdictLabel string
	// PathOf, when set, turns a file's name (below the project root) into
	// the path printed: the CLI prints paths from the working directory,
	// so that they open from the shell and in an editor's problem matcher.
	PathOf func(name string) string
}

// path is the name printed for f.
func (o Options) path(f *source.File) string {
	name := reporters.FileName(f)
	if o.PathOf != nil && name != "" {
		return o.PathOf(name)
	}
	return name
}

// maxSourceWidth bounds the source excerpt: generated or minified SQL can put
// a whole statement on one line, and printing thousands of characters would
// bury the caret. Longer lines are cut to a window around the column.
const maxSourceWidth = 160

// Write prints every active finding of res, then its internal errors, then a
// one-line summary. Suppressed findings are only counted in the summary.
func Write(w io.Writer, res *rules.Result, opts Options) error {
	p := newPalette(opts.Color)
	bw := bufio.NewWriter(w)
	prefix := ""
	if opts.Verdict && opts.VerdictLabel != "" {
		prefix = printable(opts.VerdictLabel) + ": "
	}
	for _, f := range res.Findings {
		if !f.Listed() || opts.Verdict {
			continue
		}
		sev := reporters.EffectiveSeverity(f)
		writeFinding(bw, res, f, sev, p, opts)
	}
	for _, e := range res.Errors {
		name := opts.path(e.File)
		if name == "" {
			name = "bflint"
		}
		first, _, _ := strings.Cut(e.Message, "\n")
		fmt.Fprintf(bw, "%s%s: %s: %s\n", prefix, printable(name), p.err.Sprint("internal error"), printable(strings.TrimSuffix(first, "\r")))
	}
	fmt.Fprintln(bw, prefix+reporters.Summary(res))
	if line := reporters.ByRuleLine(res); line != "" && !opts.Verdict {
		fmt.Fprintln(bw, line)
	}
	if line := reporters.CoverageLine(res.Coverage); line != "" && !opts.Verdict {
		fmt.Fprintln(bw, line)
	}
	if line := reporters.ModelLine(res); line != "" && !opts.Verdict {
		fmt.Fprintln(bw, line)
	}
	if line := reporters.PlanHint(res); line != "" && !opts.Verdict {
		fmt.Fprintln(bw, line)
	}
	// bufio keeps the first write error and turns later writes into no-ops,
	// so checking Flush alone is enough.
	return bw.Flush()
}

func writeFinding(w io.Writer, res *rules.Result, f rules.Finding, sev rules.Severity, p palette, opts Options) {
	start, _, _ := reporters.Span(res.Fset, f)
	lines := strings.Split(f.Message, "\n")
	tag := p.code.Sprintf("[%s %s]", reporters.RuleCode(f.Rule), reporters.RuleName(f.Rule))
	fmt.Fprintf(w, "%s:%d:%d: %s: %s %s\n", printable(opts.path(f.File)), start.Line, start.Column,
		p.severity(sev).Sprint(sev.String()), printable(strings.TrimSuffix(lines[0], "\r")), tag)
	// Further message lines are indented so that tools matching
	// "path:line:col:" never mistake them for findings of their own.
	for _, l := range lines[1:] {
		fmt.Fprintf(w, "\t%s\n", printable(strings.TrimSuffix(l, "\r")))
	}
	if f.File != nil && !f.Absent {
		if text := f.File.Line(start.Line); strings.TrimSpace(text) != "" {
			src, caret := excerpt(text, start.Column)
			fmt.Fprintln(w, src)
			fmt.Fprintln(w, p.caret.Sprint(caret))
		}
	}
	// Related places follow as notes, indented like further message lines.
	for _, r := range f.Related {
		rs, _, _ := reporters.RelatedSpan(res.Fset, r)
		fmt.Fprintf(w, "\tnote: %s:%d:%d: %s\n", printable(opts.path(r.File)), rs.Line, rs.Column, printable(r.Message))
	}
	if f.Help != "" {
		fmt.Fprintf(w, "\t%s %s\n", p.help.Sprint("help:"), printable(f.Help))
	}
}

// excerpt returns the source line as it can be shown safely and the caret
// line pointing at the 1-based byte column. Each source character becomes
// one displayed character (see printableRune), so the caret is placed by
// counting runes; tabs are copied into the padding so that the terminal
// expands them the same way on both lines. Wide (East Asian) characters and
// combining marks still shift the caret: fixing that needs display widths,
// which the terminal does not promise either.
func excerpt(line string, byteCol int) (src, caret string) {
	// Only the bytes that can be shown are decoded: a generated file can
	// hold one line of many megabytes. A rune takes at most 4 bytes, so
	// the clipped line still runs past the width on each clipped side,
	// and the ellipsis below marks it.
	if reach := 4 * maxSourceWidth; len(line) > 2*reach {
		lo := max(0, min(byteCol-1, len(line))-reach)
		hi := min(len(line), max(byteCol-1, 0)+reach)
		for lo > 0 && !utf8.RuneStart(line[lo]) {
			lo++
		}
		for hi < len(line) && !utf8.RuneStart(line[hi]) {
			hi--
		}
		line, byteCol = line[lo:hi], byteCol-lo
	}
	// printable maps each character, and each invalid byte, to one rune,
	// so the caret counts the characters before its byte.
	disp := []rune(printable(line))
	caretAt := 0
	target := byteCol - 1
	for i := 0; i < len(line); {
		_, size := utf8.DecodeRuneInString(line[i:])
		if i < target {
			caretAt++
		}
		i += size
	}
	// A column past the text points at the line break itself.
	if target > len(line) {
		caretAt += target - len(line)
	}

	from, to := 0, len(disp)
	if len(disp) > maxSourceWidth {
		from = max(0, min(caretAt-maxSourceWidth/2, len(disp)-maxSourceWidth))
		to = from + maxSourceWidth
	}
	var sb, pad strings.Builder
	if from > 0 {
		sb.WriteRune('…')
		pad.WriteByte(' ')
	}
	for i := from; i < to; i++ {
		sb.WriteRune(disp[i])
		if i < caretAt {
			if disp[i] == '\t' {
				pad.WriteByte('\t')
			} else {
				pad.WriteByte(' ')
			}
		}
	}
	if to < len(disp) {
		sb.WriteRune('…')
	}
	if caretAt > len(disp) {
		pad.WriteString(strings.Repeat(" ", caretAt-len(disp)))
	}
	pad.WriteByte('^')
	return sb.String(), pad.String()
}

// printable is every value the text report shows, on a line of its own.
func printable(s string) string { return reporters.OneLine(s) }

type palette struct {
	err, warn, info, code, caret, help *color.Color
}

// newPalette sets colour on each object rather than through color.NoColor,
// a process-wide switch that would also change other writers (and other
// tests running in parallel).
func newPalette(on bool) palette {
	p := palette{
		err:   color.New(color.FgRed),
		warn:  color.New(color.FgYellow),
		info:  color.New(color.FgBlue),
		code:  color.New(color.Faint),
		caret: color.New(color.FgGreen),
		help:  color.New(color.FgCyan),
	}
	for _, c := range []*color.Color{p.err, p.warn, p.info, p.code, p.caret, p.help} {
		if on {
			c.EnableColor()
		} else {
			c.DisableColor()
		}
	}
	return p
}

func (p palette) severity(s rules.Severity) *color.Color {
	switch s {
	case rules.SeverityError:
		return p.err
	case rules.SeverityWarning:
		return p.warn
	}
	return p.info
}
