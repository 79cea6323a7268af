package github

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/bflint/bflint/reporters/internal/reportertest"
	"github.com/bflint/bflint/rules"
)

// many returns a result with the given numbers of error, warning and info
// findings, interleaved so that the output order has to come from sorting
// by severity; each message says its severity and its index within it.
func many(errors, warnings, infos int) *rules.Result {
	res := reportertest.Result()
	res.Errors = nil
	proto := res.Findings[2]
	res.Findings = nil
	left := map[rules.Severity]int{rules.SeverityError: errors, rules.SeverityWarning: warnings, rules.SeverityInfo: infos}
	next := map[rules.Severity]int{}
	for left[rules.SeverityError]+left[rules.SeverityWarning]+left[rules.SeverityInfo] > 0 {
		for _, sev := range []rules.Severity{rules.SeverityInfo, rules.SeverityWarning, rules.SeverityError} {
			if left[sev] == 0 {
				continue
			}
			f := proto
			f.Severity = sev
			f.Message = fmt.Sprintf("%s %d", sev, next[sev])
			res.Findings = append(res.Findings, f)
			next[sev]++
			left[sev]--
		}
	}
	return res
}

func annotate(t *testing.T, res *rules.Result, limit int) []string {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteAnnotations(&buf, res, limit); err != nil {
		t.Fatal(err)
	}
	if buf.Len() == 0 {
		return nil
	}
	return strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
}

// messages keeps what follows the last "::" of each command.
func messages(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = l[strings.LastIndex(l, "::")+2:]
	}
	return out
}

func seq(sev string, n int) []string {
	var out []string
	for i := range n {
		out = append(out, fmt.Sprintf("%s %d", sev, i))
	}
	return out
}

func TestAnnotationsMostSevereFirst(t *testing.T) {
	got := messages(annotate(t, many(2, 3, 2), StepLimit))
	want := append(append(seq("error", 2), seq("warning", 3)...), seq("info", 2)...)
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("order:\n got  %q\n want %q", got, want)
	}
}

func TestAnnotationsWithinLimitsAreAllShown(t *testing.T) {
	lines := annotate(t, many(10, 10, 10), StepLimit)
	if len(lines) != 30 {
		t.Fatalf("%d lines, want 30 and no closing notice", len(lines))
	}
	for _, l := range lines {
		if strings.HasPrefix(l, "::notice::") {
			t.Errorf("closing notice without anything left out: %s", l)
		}
	}
}

func TestAnnotationsPastTheLimit(t *testing.T) {
	tests := []struct {
		name                    string
		errors, warnings, infos int
		wantE, wantW, wantN     int
		hidden                  int
	}{
		// The closing notice needs a notice slot, so with ten notices
		// already one of them gives way and is counted as left out.
		{"every kind over", 12, 11, 14, 10, 10, 9, 2 + 1 + 5},
		{"errors over, notices full", 11, 0, 10, 10, 0, 9, 1 + 1},
		{"errors over, room for the notice", 13, 2, 3, 10, 2, 3, 3},
		{"only notices over", 0, 0, 11, 0, 0, 9, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lines := annotate(t, many(tt.errors, tt.warnings, tt.infos), StepLimit)
			body, last := lines[:len(lines)-1], lines[len(lines)-1]
			got := messages(body)
			want := append(append(seq("error", tt.wantE), seq("warning", tt.wantW)...), seq("info", tt.wantN)...)
			if strings.Join(got, "|") != strings.Join(want, "|") {
				t.Errorf("annotations:\n got  %q\n want %q", got, want)
			}
			wantLast := fmt.Sprintf("::notice::bflint: %d more finding(s) not annotated: GitHub shows at most 10 errors, 10 warnings and 10 notices per step. The step log lists every finding.", tt.hidden)
			if last != wantLast {
				t.Errorf("closing line:\n got  %s\n want %s", last, wantLast)
			}
			notices := 0
			for _, l := range lines {
				if strings.HasPrefix(l, "::notice") {
					notices++
				}
			}
			if notices > StepLimit {
				t.Errorf("%d notices, more than GitHub shows", notices)
			}
		})
	}
}

// Internal errors are errors for the limit too, after the findings' errors.
func TestAnnotationsKeepInternalErrorsWithErrors(t *testing.T) {
	lines := annotate(t, reportertest.Result(), StepLimit)
	var kinds []string
	for _, l := range lines {
		cmd := l[2:]
		kinds = append(kinds, cmd[:strings.IndexAny(cmd, " :")])
	}
	want := "error error error error warning warning notice"
	if strings.Join(kinds, " ") != want {
		t.Errorf("kinds = %q, want %q", strings.Join(kinds, " "), want)
	}
	if !strings.Contains(lines[3], "title=bflint internal error in BF207") {
		t.Errorf("internal error should close the errors: %s", lines[3])
	}
}
