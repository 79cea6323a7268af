package reporters

import (
	"testing"

	"github.com/bflint/bflint/rules"
)

func TestSummary(t *testing.T) {
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
		if got := (Counts{tt.errs, tt.warns, tt.infos, tt.suppressed, tt.internal}).String(); got != tt.want {
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
