package validation

import (
	"strings"
	"testing"
)

func TestParsePass(t *testing.T) {
	ok := []struct {
		in   string
		want criterion
	}{
		{"max_abs_delta_pct <= 0.5", criterion{"max_abs_delta_pct", "<=", "0.5"}},
		{"changed_rows = 0", criterion{"changed_rows", "=", "0"}},
		{"changed_rows == 0", criterion{"changed_rows", "==", "0"}},
		{"duplicates != 0", criterion{"duplicates", "!=", "0"}},
		{"rows < 10", criterion{"rows", "<", "10"}},
		{"rows > 10", criterion{"rows", ">", "10"}},
		{"ratio >= 0.99", criterion{"ratio", ">=", "0.99"}},
		{"delta >= -0.5", criterion{"delta", ">=", "-0.5"}},
		{"delta>=-2", criterion{"delta", ">=", "-2"}},
		{"share < .5", criterion{"share", "<", ".5"}},
		{"share < 5.", criterion{"share", "<", "5."}},
		{"drift <= 1e-3", criterion{"drift", "<=", "1e-3"}},
		{"drift <= +2E+2", criterion{"drift", "<=", "+2E+2"}},
		{"  padded   =   1  ", criterion{"padded", "=", "1"}},
		{"abs(new - old) / old <= 0.01", criterion{"abs(new - old) / old", "<=", "0.01"}},
		{"count_if(delta > 0) = 0", criterion{"count_if(delta > 0)", "=", "0"}},
		{"max(coalesce(x, 0)) < 3", criterion{"max(coalesce(x, 0))", "<", "3"}},
		{"count_if(status = 'a<b') = 0", criterion{"count_if(status = 'a<b')", "=", "0"}},
		{`"rows >= new" > 5`, criterion{`"rows >= new"`, ">", "5"}},
		{"`a=b` = 1", criterion{"`a=b`", "=", "1"}},
		{"count_if(name = 'it''s') = 0", criterion{"count_if(name = 'it''s')", "=", "0"}},
	}
	for _, tc := range ok {
		got, err := parsePass(tc.in)
		if err != nil {
			t.Errorf("parsePass(%q): unexpected error %v", tc.in, err)
			continue
		}
		if got != tc.want {
			t.Errorf("parsePass(%q) = %+v, want %+v", tc.in, got, tc.want)
		}
	}

	bad := []struct {
		in, why string
	}{
		{"", "compares nothing"},
		{"looks right", "compares nothing"},
		{"0", "compares nothing"},
		{"count_if(delta > 0)", "compares nothing"},
		{"x = 'a", "never closed"},
		{"max(x < 1", "never closed"},
		{"x) < 1", "never opened"},
		{"0 <= x <= 1", "2 comparisons"},
		{"x = y = 1", "2 comparisons"},
		{"x <> 0", `"<>" is not a comparison`},
		{"x => 0", `"=>" is not a comparison`},
		{"x === 0", `"===" is not a comparison`},
		{"!x", `"!" is not a comparison`},
		{"<= 0.5", "nothing on the left"},
		{"x <=", "no number on the right"},
		{"x <= 0.5%", `"0.5%" on the right`},
		{"0.5 >= x", `"x" on the right`},
		{"x <= y", `"y" on the right`},
		{"x = 1 and y = 2", "2 comparisons"},
		{"x = -", `"-" on the right`},
		{"x = .", `"." on the right`},
		{"x = 1e", `"1e" on the right`},
		{"x = 1.2.3", `"1.2.3" on the right`},
		{"x = 1 000", `"1 000" on the right`},
		{"x = inf", `"inf" on the right`},
		{"x = NaN", `"NaN" on the right`},
		{"x = 0x10", `"0x10" on the right`},
	}
	for _, tc := range bad {
		_, err := parsePass(tc.in)
		switch {
		case err == nil:
			t.Errorf("parsePass(%q): no error, want one saying %q", tc.in, tc.why)
		case !strings.Contains(err.Error(), tc.why):
			t.Errorf("parsePass(%q): error %q does not say %q", tc.in, err, tc.why)
		}
	}
}
