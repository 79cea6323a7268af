package sqlparse

import (
	"strings"
	"testing"
)

func TestClockDecisions(t *testing.T) {
	tests := []struct {
		name, sql, want string
	}{
		{"filter", "SELECT * FROM d.t AS a WHERE a.day <= CURRENT_DATE", "a.day"},
		{"condition in the select list", "SELECT IF(trial_end > TIMESTAMP(CURRENT_DATE), 1, 0) AS x FROM d.t WHERE day = @submission_date", "trial_end"},
		{"between", "SELECT * FROM d.t WHERE day BETWEEN '2020-01-01' AND CURRENT_DATE", "day"},
		{"offset", "SELECT * FROM d.t WHERE day >= DATE_SUB(CURRENT_DATE, INTERVAL 7 DAY)", "day"},
		{"audit column", "SELECT *, CURRENT_TIMESTAMP() AS loaded_at FROM d.t WHERE day = @submission_date", ""},
		{"fallback for the parameter", "SELECT * FROM d.t WHERE day = COALESCE(@submission_date, CURRENT_DATE)", ""},
		{"if the parameter is missing", "SELECT * FROM d.t WHERE IF(@date IS NULL, day < CURRENT_DATE - 8, day = @date)", ""},
		{"or with the parameter", "SELECT * FROM d.t WHERE (@date IS NULL AND day < CURRENT_DATE) OR day = @date", ""},
		{"error guard", "SELECT * FROM d.t WHERE day = @submission_date AND IF(DATE_DIFF(CURRENT_DATE(), @submission_date, DAY) > 30, ERROR('too old'), NULL) IS NULL", ""},
		{"constants only", "SELECT * FROM d.t WHERE CURRENT_DATE > '2020-01-01'", ""},
		{"live table", "SELECT * FROM d_live.t WHERE day >= CURRENT_DATE - 1 UNION ALL SELECT * FROM d_stable.t WHERE day < CURRENT_DATE - 1", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := Parse(tt.sql, Options{})
			if len(f.Statements) != 1 || f.Statements[0].Node == nil {
				t.Fatalf("did not parse: %+v", f.Statements)
			}
			var got []string
			for _, c := range f.Statements[0].ClockDecisions() {
				got = append(got, c.Column)
				if !strings.HasPrefix(strings.ToLower(tt.sql[c.Offset:]), "current_") {
					t.Errorf("offset %d does not point at the clock: %q", c.Offset, tt.sql[c.Offset:])
				}
			}
			if strings.Join(got, ",") != tt.want {
				t.Errorf("ClockDecisions columns = %q, want %q", got, tt.want)
			}
		})
	}
}
