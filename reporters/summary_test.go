package reporters

import "testing"

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
