package reporters

import (
	"strings"
	"testing"

	"github.com/bflint/bflint/rules"
)

func TestCounts(t *testing.T) {
	tests := []struct {
		errs, warns, infos, suppressed, internal int
		want                                     string
	}{
		{0, 0, 0, 0, 0, "no findings"},
		{0, 0, 0, 2, 0, "no findings (2 suppressed)"},
		{1, 1, 0, 0, 0, "1 error, 1 warning"},
		{3, 0, 0, 1, 0, "3 errors, 0 warnings (1 suppressed)"},
		{0, 2, 1, 0, 0, "0 errors, 2 warnings, 1 info"},
		{0, 0, 0, 0, 2, "no findings; 2 internal errors"},
	}
	for _, tt := range tests {
		if got := (Counts{Errors: tt.errs, Warnings: tt.warns, Infos: tt.infos, Suppressed: tt.suppressed, Internal: tt.internal}).String(); got != tt.want {
			t.Errorf("Counts{%d, %d, %d, %d, %d} = %q, want %q", tt.errs, tt.warns, tt.infos, tt.suppressed, tt.internal, got, tt.want)
		}
	}
}

func TestCoverageLine(t *testing.T) {
	var none rules.Coverage
	if got := CoverageLine(none); got != "" {
		t.Errorf("no statements: %q, want empty", got)
	}
	c := rules.Coverage{Tally: rules.Tally{Files: 2136, Statements: [3]int{9429, 363, 20}}}
	if got, want := CoverageLine(c), "2,136 SQL files, 9,812 statements: 96.1% parsed, 3.7% read from tokens, 0.2% not read"; got != want {
		t.Errorf("CoverageLine = %q, want %q", got, want)
	}
	one := rules.Coverage{Tally: rules.Tally{Files: 1, Statements: [3]int{1, 0, 0}}}
	if got, want := CoverageLine(one), "1 SQL file, 1 statement: 100.0% parsed, 0.0% read from tokens, 0.0% not read"; got != want {
		t.Errorf("CoverageLine = %q, want %q", got, want)
	}
}

func TestSummaryNamesInputs(t *testing.T) {
	tests := []struct {
		inputs rules.Inputs
		files  int
		want   string
	}{
		{rules.Inputs{}, 0, "no findings"},
		{rules.Inputs{Plans: 1}, 0, "no findings in 1 plan"},
		{rules.Inputs{Plans: 2, DBTManifests: 1}, 14, "no findings in 2 plans, 14 SQL files and 1 dbt manifest"},
		{rules.Inputs{Entries: 336, BqetlTrees: 1}, 4634, "no findings in 336 bigquery-etl entries, 4,634 SQL files and 1 bigquery-etl tree"},
		{rules.Inputs{Entries: 1}, 1, "no findings in 1 bigquery-etl entry and 1 SQL file"},
	}
	for _, tt := range tests {
		res := &rules.Result{Inputs: tt.inputs, Coverage: rules.Coverage{Tally: rules.Tally{Files: tt.files}}}
		if got := Summary(res); got != tt.want {
			t.Errorf("Summary(%+v, %d SQL files) = %q, want %q", tt.inputs, tt.files, got, tt.want)
		}
	}
	res := &rules.Result{Inputs: rules.Inputs{Plans: 1}, Errors: []rules.InternalError{{}}}
	if got, want := Summary(res), "no findings in 1 plan; 1 internal error"; got != want {
		t.Errorf("Summary = %q, want %q", got, want)
	}
}

// A run over models with no plan among its files is told how to start one.
func TestPlanHint(t *testing.T) {
	models := []rules.Model{{}}
	for _, tt := range []struct {
		res  *rules.Result
		want bool
	}{
		{&rules.Result{Models: models}, true},
		{&rules.Result{Models: models, Inputs: rules.Inputs{Plans: 1}}, false},
		{&rules.Result{Models: models, Inputs: rules.Inputs{Entries: 2}}, false},
		{&rules.Result{}, false},
	} {
		if got := PlanHint(tt.res); (got != "") != tt.want || tt.want && !strings.Contains(got, "bflint init --target MODEL") {
			t.Errorf("PlanHint(%+v) = %q", tt.res.Inputs, got)
		}
	}
}
