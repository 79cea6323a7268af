package runcmd

import (
	"fmt"
	"regexp"
	"strconv"
	"time"
)

var timeForm = regexp.MustCompile(`^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?(Z|z|[+-]\d{2}(?::?\d{2})?)?$`)

// ParseTime reads the dates and timestamps dbt and Airflow take on their
// command lines: YYYY-MM-DD, or YYYY-MM-DD[T ]HH:MM[:SS[.fraction]],
// optionally followed by Z or an offset. The result is in UTC: the instant
// named when a zone is given (zoned), else the wall-clock reading.
func ParseTime(s string) (t time.Time, zoned bool, err error) {
	m := timeForm.FindStringSubmatch(s)
	if m == nil {
		return time.Time{}, false, fmt.Errorf("%q is not a date or timestamp: write YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS", s)
	}
	num := func(i int) int {
		n, _ := strconv.Atoi(m[i])
		return n
	}
	year, month, day := num(1), num(2), num(3)
	hour, minute, second, nano := 0, 0, 0, 0
	if m[4] != "" {
		hour, minute, second = num(4), num(5), num(6)
		if m[7] != "" {
			frac := m[7] + "000000000"[len(m[7]):]
			nano, _ = strconv.Atoi(frac)
		}
	}
	if month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59 {
		return time.Time{}, false, fmt.Errorf("%q is not a real date or time", s)
	}
	offset := 0
	if z := m[8]; len(z) > 1 {
		h, _ := strconv.Atoi(z[1:3])
		mins := 0
		if rest := z[3:]; rest != "" {
			if rest[0] == ':' {
				rest = rest[1:]
			}
			mins, _ = strconv.Atoi(rest)
		}
		if h > 23 || mins > 59 {
			return time.Time{}, false, fmt.Errorf("%q has an impossible UTC offset", s)
		}
		offset = (h*60 + mins) * 60
		if z[0] == '-' {
			offset = -offset
		}
	}
	t = time.Date(year, time.Month(month), day, hour, minute, second, nano, time.UTC)
	if t.Day() != day {
		return time.Time{}, false, fmt.Errorf("%q is not a real date: %s %d has %d days", s, time.Month(month), year, time.Date(year, time.Month(month)+1, 0, 0, 0, 0, 0, time.UTC).Day())
	}
	return t.Add(-time.Duration(offset) * time.Second), m[8] != "", nil
}
