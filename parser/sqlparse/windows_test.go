package sqlparse

import (
	"strings"
	"testing"
)

func TestReadWindows(t *testing.T) {
	tests := []struct {
		name, sql, want string
	}{
		{"same day", "SELECT * FROM `p.d.t` WHERE submission_date = @submission_date", "days"},
		{"28 days", "SELECT * FROM `p.d.t` AS x WHERE x.submission_date BETWEEN DATE_SUB(@submission_date, INTERVAL 27 DAY) AND @submission_date", "days -27..0"},
		{"exclusive upper", "SELECT * FROM p.t WHERE d >= @submission_date - 6 AND d < DATE_ADD(@submission_date, INTERVAL 1 DAY)", "days -6..0"},
		{"snowflake dateadd", "SELECT * FROM p.t WHERE d >= DATEADD(day, -7, @ds) AND d <= @ds", "days -7..0"},
		{"month to date", "SELECT * FROM p.t WHERE d BETWEEN DATE_TRUNC(@submission_date, MONTH) AND @submission_date", "month"},
		{"previous month", "SELECT * FROM p.t WHERE d BETWEEN DATE_TRUNC(DATE_SUB(@submission_date, INTERVAL 1 MONTH), MONTH) AND LAST_DAY(DATE_SUB(@submission_date, INTERVAL 1 MONTH), MONTH)", "previous month"},
		{"join condition", "SELECT * FROM p.a JOIN p.b ON b.id = a.id AND b.d BETWEEN @submission_date - 2 AND @submission_date WHERE a.d = @submission_date", "same|days -2..0"},
		{"unbounded below", "SELECT * FROM p.t WHERE d <= @submission_date", "unbounded"},
		{"unfiltered", "SELECT * FROM p.t", "unbounded"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := Parse(tt.sql, Options{})
			if len(f.Statements) != 1 || f.Statements[0].Node == nil {
				t.Fatalf("did not parse")
			}
			var got string
			for i, w := range f.Statements[0].ReadWindows(paramOf(tt.sql)) {
				if i > 0 {
					got += "|"
				}
				if !w.Bounded {
					got += "unbounded"
					continue
				}
				got += w.Window.String()
			}
			if tt.want == "days" {
				tt.want = "same"
			}
			if got != tt.want {
				t.Errorf("windows = %q, want %q", got, tt.want)
			}
		})
	}
}

func paramOf(sql string) string {
	if strings.Contains(sql, "@ds") {
		return "@ds"
	}
	return "@submission_date"
}

func TestBitsDays(t *testing.T) {
	f := Parse("SELECT `p.udf.combine_adjacent_days_28_bits`(a.x, b.x) AS x, udf.shift_365_bits_one_day(y) AS y FROM p.t AS a JOIN p.u AS b USING (id)", Options{})
	if got := f.Statements[0].BitsDays(); got != 365 {
		t.Errorf("BitsDays = %d, want 365", got)
	}
}
