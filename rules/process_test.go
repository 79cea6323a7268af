package rules

import (
	"errors"
	"fmt"
	"go/token"
	"strings"
	"testing"

	"github.com/bflint/bflint/parser/plan"
	"github.com/bflint/bflint/parser/source"
)

func processFixture() (*source.File, *source.File, *Rule, *Rule) {
	fset := token.NewFileSet()
	a := source.Add(fset, "a.sql", []byte("INSERT INTO t SELECT 1;\nINSERT INTO t SELECT 2;\n"))
	b := source.Add(fset, "b.sql", []byte("SELECT 1;\n"))
	return a, b, &Rule{Code: "BF201", Severity: SeverityError}, &Rule{Code: "BF204", Severity: SeverityWarning}
}

func TestSeverityOverrides(t *testing.T) {
	a, _, r201, r204 := processFixture()
	fs := []Finding{{Rule: r201, Severity: SeverityError, File: a}, {Rule: r204, Severity: SeverityWarning, File: a}}
	out, err := SeverityOverrides(map[string]Severity{"BF201": SeverityInfo}).Run(fs)
	if err != nil || out[0].Severity != SeverityInfo || out[1].Severity != SeverityWarning {
		t.Errorf("got %v %v, %v; want BF201 info and BF204 unchanged", out[0].Severity, out[1].Severity, err)
	}
}

func TestDedupe(t *testing.T) {
	a, _, r201, r204 := processFixture()
	first, second := &plan.Plan{}, &plan.Plan{}
	fs := []Finding{
		{Rule: r201, File: a, Pos: a.Pos(0), Message: "m", Plans: []*plan.Plan{first}},
		{Rule: r201, File: a, Pos: a.Pos(0), Message: "m", Plans: []*plan.Plan{second}}, // the same finding again, from a second plan
		{Rule: r201, File: a, Pos: a.Pos(0), Message: "other"},
		{Rule: r204, File: a, Pos: a.Pos(0), Message: "m"},
		{Rule: r201, File: a, Pos: a.Pos(24), Message: "m"},
	}
	out, _ := Dedupe.Run(fs)
	var got []string
	for _, f := range out {
		got = append(got, fmt.Sprintf("%s@%d:%s", f.Rule.Code, a.Offset(f.Pos), f.Message))
	}
	// Only the exact repeat goes; a finding differing in message, rule or
	// place stays, in its order.
	if want := "BF201@0:m BF201@0:other BF204@0:m BF201@24:m"; strings.Join(got, " ") != want {
		t.Errorf("kept %s, want %s", strings.Join(got, " "), want)
	}
	// The finding kept belongs to both plans, so a brief of either lists it.
	if ps := out[0].Plans; len(ps) != 2 || ps[0] != first || ps[1] != second {
		t.Errorf("the kept finding names plans %v, want both", ps)
	}
}

func TestSort(t *testing.T) {
	a, b, r201, r204 := processFixture()
	fs := []Finding{
		{Rule: r201, File: b, Pos: b.Pos(0), Message: "z"},
		{Rule: r204, File: a, Pos: a.Pos(24), Message: "m"},
		{Rule: r204, File: a, Pos: a.Pos(0), Message: "m"},
		{Rule: r201, File: a, Pos: a.Pos(0), Message: "n"},
		{Rule: r201, File: a, Pos: a.Pos(0), Message: "m"},
	}
	out, _ := Sort.Run(fs)
	var got []string
	for _, f := range out {
		got = append(got, f.File.Name+":"+f.Rule.Code+":"+f.Message)
	}
	want := "a.sql:BF201:m a.sql:BF201:n a.sql:BF204:m a.sql:BF204:m b.sql:BF201:z"
	if s := strings.Join(got, " "); s != want {
		t.Errorf("order %s, want %s", s, want)
	}
	if out[2].Pos > out[3].Pos {
		t.Error("findings of one rule in one file must follow their positions")
	}
}

func TestProcessStopsAtTheFirstError(t *testing.T) {
	a, _, r201, _ := processFixture()
	res := &Result{Findings: []Finding{{Rule: r201, File: a}}}
	ran := false
	failing := Processor{Name: "fails", Run: func(fs []Finding) ([]Finding, error) { return nil, errors.New("disk full") }}
	after := Processor{Name: "after", Run: func(fs []Finding) ([]Finding, error) { ran = true; return fs, nil }}
	if err := Process(res, failing, after); err == nil || err.Error() != "disk full" {
		t.Errorf("err = %v, want the failing step's", err)
	}
	if ran || len(res.Findings) != 1 {
		t.Errorf("the chain went on after a failure (ran %v) or lost the findings (%d)", ran, len(res.Findings))
	}
}
