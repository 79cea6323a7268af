package plan

import (
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/bflint/bflint/parser/yamlx"
	"go.yaml.in/yaml/v3"
)

// Precision is how finely a written date names a moment.
type Precision int

const (
	PrecisionMonth Precision = iota + 1
	PrecisionDay
	PrecisionHour
	PrecisionMinute
)

// Date is a partition value or calendar date as written in the plan. T holds
// the wall-clock value in UTC; the plan's timezone gives it meaning.
type Date struct {
	Field
	Raw       string
	T         time.Time
	Precision Precision
}

// Valid reports whether the date was present and parsed.
func (d Date) Valid() bool { return d.Set && !d.T.IsZero() }

var dateForm = regexp.MustCompile(`^(\d{4})-(\d{2})(?:-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?(?:Z|[+-]00:?00)?)?)?$`)

// UnmarshalYAMLX parses the scalar; an impossible calendar date is a problem
// of the file, while a date that does not fit the grain is left to rules.
func (d *Date) UnmarshalYAMLX(dec *yamlx.Decoder, path string, n *yaml.Node) {
	if n.Kind != yaml.ScalarNode {
		dec.Errorf(n, "%s must be a date such as 2026-01-14, not a %s", path, kindWord(n))
		d.Set = false
		return
	}
	d.Raw = n.Value
	t, prec, err := ParseDate(n.Value)
	if err != nil {
		dec.Errorf(n, "%s: %v", path, err)
		d.Set = false
		return
	}
	d.T, d.Precision = t, prec
}

func kindWord(n *yaml.Node) string {
	if n.Kind == yaml.SequenceNode {
		return "list"
	}
	return "mapping"
}

// ParseDate reads YYYY-MM, YYYY-MM-DD or YYYY-MM-DDTHH:MM[:SS] and rejects
// dates that do not exist, such as 2026-02-30.
func ParseDate(s string) (time.Time, Precision, error) {
	m := dateForm.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return time.Time{}, 0, fmt.Errorf("%q is not a date: write YYYY-MM-DD, YYYY-MM or YYYY-MM-DDTHH:MM", s)
	}
	num := func(i int) int {
		v := 0
		for _, c := range m[i] {
			v = v*10 + int(c-'0')
		}
		return v
	}
	year, month := num(1), num(2)
	day, hour, minute, second := 1, 0, 0, 0
	prec := PrecisionMonth
	if m[3] != "" {
		day, prec = num(3), PrecisionDay
	}
	if m[4] != "" {
		hour, minute, prec = num(4), num(5), PrecisionHour
		if m[6] != "" {
			second = num(6)
		}
		if minute != 0 || second != 0 {
			prec = PrecisionMinute
		}
	}
	if month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59 {
		return time.Time{}, 0, fmt.Errorf("%q is not a real date or time", s)
	}
	t := time.Date(year, time.Month(month), day, hour, minute, second, 0, time.UTC)
	if t.Day() != day {
		return time.Time{}, 0, fmt.Errorf("%q is not a real date: %s %d has %d days", s, time.Month(month), year, daysIn(year, time.Month(month)))
	}
	return t, prec, nil
}

func daysIn(year int, m time.Month) int {
	return time.Date(year, m+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

// Grain is the size of one partition.
type Grain string

const (
	Hour  Grain = "hour"
	Day   Grain = "day"
	Week  Grain = "week"
	Month Grain = "month"
)

// Truncate returns the start of the partition that holds wall-clock t.
func (g Grain) Truncate(t time.Time) time.Time {
	y, m, d := t.Date()
	switch g {
	case Hour:
		return time.Date(y, m, d, t.Hour(), 0, 0, 0, t.Location())
	case Week:
		day := time.Date(y, m, d, 0, 0, 0, 0, t.Location())
		back := (int(day.Weekday()) + 6) % 7 // days since Monday
		return day.AddDate(0, 0, -back)
	case Month:
		return time.Date(y, m, 1, 0, 0, 0, 0, t.Location())
	}
	return time.Date(y, m, d, 0, 0, 0, 0, t.Location())
}

// Add moves t by n partitions.
func (g Grain) Add(t time.Time, n int) time.Time {
	switch g {
	case Hour:
		return t.Add(time.Duration(n) * time.Hour)
	case Week:
		return t.AddDate(0, 0, 7*n)
	case Month:
		return t.AddDate(0, n, 0)
	}
	return t.AddDate(0, 0, n)
}

// Format writes a partition value the way a plan would.
func (g Grain) Format(t time.Time) string {
	switch g {
	case Hour:
		return t.Format("2006-01-02T15:04")
	case Month:
		return t.Format("2006-01")
	}
	return t.Format("2006-01-02")
}

// Fit checks that d names a partition at this grain and says how it fails.
func (g Grain) Fit(d Date) error {
	switch g {
	case Hour:
		if d.Precision < PrecisionHour {
			return fmt.Errorf("%q is not an hour partition: write it as %sT00:00", d.Raw, d.T.Format("2006-01-02"))
		}
		if d.Precision == PrecisionMinute {
			return fmt.Errorf("%q is not the start of an hour partition", d.Raw)
		}
	case Month:
		if d.Precision > PrecisionDay || d.T.Day() != 1 {
			return fmt.Errorf("%q is not a month partition: write %s", d.Raw, d.T.Format("2006-01"))
		}
	case Week:
		if d.Precision != PrecisionDay {
			return fmt.Errorf("%q is not a week partition: write the Monday that starts the week, as YYYY-MM-DD", d.Raw)
		}
		if d.T.Weekday() != time.Monday {
			return fmt.Errorf("%q is a %s: week partitions start on Monday (%s)", d.Raw, d.T.Weekday(), Week.Truncate(d.T).Format("2006-01-02"))
		}
	default:
		if d.Precision != PrecisionDay {
			return fmt.Errorf("%q is not a day partition: write YYYY-MM-DD", d.Raw)
		}
	}
	return nil
}
