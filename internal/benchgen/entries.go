package benchgen

import (
	"fmt"
	"strings"
	"time"
)

// Entries writes n well-formed bigquery-etl backfill.yaml entries, newest
// first, one a day back from 2026-01-01, each correcting rows over its own
// two days of 1990: a file as large as a test of scale wants, with no
// alias in it.
func Entries(n int) string {
	var b strings.Builder
	day := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range n {
		fmt.Fprintf(&b, "%s:\n  start_date: 1990-01-01\n  end_date: 1990-01-02\n  reason: Fix the duplicated rows.\n  watchers:\n  - a@example.com\n  status: Complete\n",
			day.AddDate(0, 0, -i).Format(time.DateOnly))
	}
	return b.String()
}
