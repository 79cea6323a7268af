package rules

import (
	"errors"
	"fmt"
	"go/token"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bflint/bflint/parser/config"
	"github.com/bflint/bflint/parser/plan"
	"github.com/bflint/bflint/parser/source"
)

func testRule(code, name string, run func(*Pass) error) *Rule {
	return &Rule{
		Code: code, Name: name, Severity: SeverityWarning, Scope: ScopePlan,
		Doc: Doc{Title: "t", Why: "w", Bad: Example{"yaml", "b"}, Good: Example{"yaml", "g"}},
		Run: run,
	}
}

func planUnit(fset *token.FileSet, name, text string) *Unit {
	f := source.Add(fset, name, []byte(text))
	return &Unit{File: f, Plan: plan.Parse(f), Directives: YAMLDirectives(f)}
}

func settings(rs ...*Rule) *Settings {
	return &Settings{Registry: NewRegistry(rs...), Config: &config.Config{}, Now: time.Unix(0, 0), Jobs: 2}
}

// A rule that panics or fails becomes an internal error for that unit;
// the other rules and units still report.
func TestCrashingRuleDoesNotStopTheRun(t *testing.T) {
	fset := token.NewFileSet()
	units := []*Unit{planUnit(fset, "a.backfill.yaml", "bflint: 1\n"), planUnit(fset, "b.backfill.yaml", "bflint: 1\n")}
	crash := testRule("BF990", "crashes", func(p *Pass) error {
		if p.Unit.File.Name == "a.backfill.yaml" {
			var m map[string]int
			m["x"] = 1 // nil map write: a real crash, not a simulated error
		}
		return nil
	})
	broken := testRule("BF991", "errs", func(*Pass) error { return errors.New("cannot decide") })
	fine := testRule("BF992", "reports", func(p *Pass) error {
		p.Reportf(p.PlanStart(), "finding in %s", p.Unit.File.Name)
		return nil
	})
	res := Run(fset, units, settings(crash, broken, fine))
	if len(res.Findings) != 2 {
		t.Fatalf("want 2 findings from the healthy rule, got %d", len(res.Findings))
	}
	var msgs []string
	for _, e := range res.Errors {
		msgs = append(msgs, e.File.Name+" "+e.Rule.Code+" "+strings.SplitN(e.Message, "\n", 2)[0])
	}
	want := []string{
		"a.backfill.yaml BF990 rule BF990 (crashes) crashed: assignment to entry in nil map",
		"a.backfill.yaml BF991 rule BF991 (errs) failed: cannot decide",
		"b.backfill.yaml BF991 rule BF991 (errs) failed: cannot decide",
	}
	if strings.Join(msgs, "\n") != strings.Join(want, "\n") {
		t.Errorf("internal errors:\n%s\nwant:\n%s", strings.Join(msgs, "\n"), strings.Join(want, "\n"))
	}
}

func TestProcessors(t *testing.T) {
	twice := testRule("BF993", "twice", func(p *Pass) error {
		p.Reportf(p.PlanStart(), "same")
		p.Reportf(p.PlanStart(), "same")
		return nil
	})
	late := testRule("BF994", "late", func(p *Pass) error {
		p.Reportf(p.Plan.ID.Key, "on id")
		p.ReportSeverityf(SeverityError, p.PlanStart(), "escalated")
		return nil
	})
	cases := []struct {
		name     string
		text     string
		severity map[string]Severity
		enabled  map[string]bool
		want     []string // code:line:severity:message, suppressed marked with !
	}{
		{
			name: "dedupe and sort by position then code",
			text: "bflint: 1\nid: x\n",
			want: []string{"BF993:1:warning:same", "BF994:1:error:escalated", "BF994:2:warning:on id"},
		},
		{
			name:     "severity override applies to every finding of the rule",
			text:     "bflint: 1\nid: x\n",
			severity: map[string]Severity{"BF994": SeverityInfo},
			want:     []string{"BF993:1:warning:same", "BF994:1:info:escalated", "BF994:2:info:on id"},
		},
		{
			name:    "disabled rules do not run",
			text:    "bflint: 1\nid: x\n",
			enabled: map[string]bool{"BF994": true},
			want:    []string{"BF994:1:error:escalated", "BF994:2:warning:on id"},
		},
		{
			name: "a trailing directive suppresses its own line only",
			text: "bflint: 1\nid: x  # bflint:ignore BF994 generated id\n",
			want: []string{"BF993:1:warning:same", "BF994:1:error:escalated", "!BF994:2:warning:on id"},
		},
		{
			name: "a directive above governs the next key line, and unmatched codes are reported",
			text: "# bflint:ignore BF993,BF601 checked by hand\nbflint: 1\nid: x\n",
			want: []string{"BF004:1:warning:bflint:ignore: \"BF601\" is not a bflint rule; did you mean \"BF004\"?", "!BF993:2:warning:same", "BF994:2:error:escalated", "BF994:3:warning:on id"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fset := token.NewFileSet()
			bf004 := &Rule{Code: "BF004", Name: "suppression-unjustified", Severity: SeverityWarning, Scope: ScopePlan,
				Doc: Doc{Title: "t", Why: "w", Bad: Example{"yaml", "b"}, Good: Example{"yaml", "g"}}, Run: func(*Pass) error { return nil }}
			s := settings(twice, late, bf004)
			s.Severity, s.Enabled = c.severity, c.enabled
			res := Run(fset, []*Unit{planUnit(fset, "p.backfill.yaml", c.text)}, s)
			var got []string
			for _, f := range res.Findings {
				mark := ""
				if f.Suppressed != nil {
					mark = "!"
				}
				got = append(got, mark+f.Rule.Code+":"+itoa(fset.Position(f.Pos).Line)+":"+f.Severity.String()+":"+f.Message)
			}
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
		})
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

func TestRegistryRejectsDuplicates(t *testing.T) {
	a := testRule("BF995", "one", func(*Pass) error { return nil })
	for name, rs := range map[string][]*Rule{
		"code":           {a, testRule("BF995", "two", a.Run)},
		"name":           {a, testRule("BF996", "one", a.Run)},
		"malformed code": {testRule("B995", "x", a.Run)},
	} {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Error("NewRegistry accepted it")
				}
			}()
			NewRegistry(rs...)
		})
	}
}

func TestParseDirective(t *testing.T) {
	cases := []struct {
		text, names, reason string
		ok                  bool
	}{
		{"bflint:ignore BF601 snapshots kept 400 days", "BF601", "snapshots kept 400 days", true},
		{"bflint:ignore BF601,BF602 one reason", "BF601,BF602", "one reason", true},
		{"bflint:ignore BF601, BF602 spaced", "BF601,BF602", "spaced", true},
		{"bflint:ignore rollback-missing by name", "rollback-missing", "by name", true},
		{"bflint:ignore BF20 typo", "BF20", "typo", true},
		{"bflint:ignore", "", "", true},
		{"bflint:ignored BF601", "", "", false},
		{"see bflint:ignore BF601", "", "", false},
	}
	for _, c := range cases {
		names, reason, ok := ParseDirective(c.text)
		if strings.Join(names, ",") != c.names || reason != c.reason || ok != c.ok {
			t.Errorf("ParseDirective(%q) = %v %q %v; want %s %q %v", c.text, names, reason, ok, c.names, c.reason, c.ok)
		}
	}
}

// A finding placed at the plan's version line for want of its section
// shows no line under it; one at another key, or at a plan that starts
// with another key, still does.
func TestFindingAtVersionLineIsAbsent(t *testing.T) {
	at := testRule("BF995", "at", func(p *Pass) error {
		p.Reportf(p.SectionOr(p.Plan.After.Field), "no after")
		p.Reportf(p.Plan.ID.Key, "on id")
		return nil
	})
	fset := token.NewFileSet()
	units := []*Unit{
		planUnit(fset, "a.backfill.yaml", "bflint: 1\nid: a\n"),
		planUnit(fset, "b.backfill.yaml", "id: b\nbflint: 1\n"),
	}
	var got []string
	for _, f := range Run(fset, units, settings(at)).Findings {
		got = append(got, fmt.Sprintf("%s %s absent=%v", f.File.Name, f.Message, f.Absent))
	}
	slices.Sort(got)
	want := []string{
		"a.backfill.yaml no after absent=true",
		"a.backfill.yaml on id absent=false",
		"b.backfill.yaml no after absent=false",
		"b.backfill.yaml on id absent=false",
	}
	if !slices.Equal(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
