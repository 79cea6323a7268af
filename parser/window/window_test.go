package window

import (
	"testing"
	"time"
)

func day(s string) time.Time {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		panic(err)
	}
	return t
}

func TestAffected(t *testing.T) {
	tests := []struct {
		name     string
		w        Window
		from, to string
	}{
		{"same", Same, "2026-01-14", "2026-06-30"},
		{"28 days back", Days(-27, 0), "2026-01-14", "2026-07-27"},
		{"30 days back", Days(-30, 0), "2026-01-14", "2026-07-30"},
		{"yesterday", Days(-1, -1), "2026-01-15", "2026-07-01"},
		{"month to date", Window{Lo: Bound{Trunc: MonthStart}, Hi: Bound{}}, "2026-01-14", "2026-06-30"},
		{"whole month", Window{Lo: Bound{Trunc: MonthStart}, Hi: Bound{Trunc: MonthEnd}}, "2026-01-01", "2026-06-30"},
		{"previous month", Window{Lo: Bound{Months: -1, Trunc: MonthStart}, Hi: Bound{Months: -1, Trunc: MonthEnd}}, "2026-02-01", "2026-07-31"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			from, to := tt.w.Affected(day("2026-01-14"), day("2026-06-30"))
			if got := from.Format(time.DateOnly) + ".." + to.Format(time.DateOnly); got != tt.from+".."+tt.to {
				t.Errorf("Affected = %s, want %s..%s", got, tt.from, tt.to)
			}
		})
	}
}

func TestThen(t *testing.T) {
	if got := Days(-27, 0).Then(Same).Then(Days(-1, 0)); got != Days(-28, 0) {
		t.Errorf("windows along a path = %v, want days -28..0", got)
	}
	if got := Same.Then(Window{Lo: Bound{Trunc: MonthStart}}); got.String() != "month" {
		t.Errorf("a view then a month-to-date read = %v, want month", got)
	}
	if got := Days(-27, 0).String(); got != "days -27..0" {
		t.Errorf("String = %q", got)
	}
	if got := Days(-27, 0).Rebuild(); got != "S..E+27" {
		t.Errorf("Rebuild = %q, want S..E+27", got)
	}
}
