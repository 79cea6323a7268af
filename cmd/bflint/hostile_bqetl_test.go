package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// manyEntries writes n entries correcting rows, newest first, one a day
// back from 2026-01-01, each over its own two days of 1990.
func manyEntries(n int) string {
	var b strings.Builder
	day := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range n {
		fmt.Fprintf(&b, "%s:\n  start_date: 1990-01-01\n  end_date: 1990-01-02\n  reason: Fix the duplicated rows.\n  watchers:\n  - a@example.com\n  status: Complete\n",
			day.AddDate(0, 0, -i).Format(time.DateOnly))
	}
	return b.String()
}

// TestManyEntries lints one backfill.yaml of 10,000 entries, each
// correcting rows that an incremental table downstream keeps: every entry
// is read and gets its BF801 finding, within the bound. BF801 once
// compared each entry with every other (28.7 s), and the file was cut off
// near 9,000 entries.
func TestManyEntries(t *testing.T) {
	if testing.Short() {
		t.Skip("lints 10,000 entries")
	}
	dir := bqetlTree(t)
	file := filepath.Join(dir, "sql/shop-prod/orders_derived/orders_v1/backfill.yaml")
	if err := os.WriteFile(file, []byte(manyEntries(10_000)), 0o644); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	var stdout, stderr bytes.Buffer
	code := run([]string{"--now", "2026-02-01", "--format", "text", "-q", "."}, &stdout, &stderr)
	elapsed := time.Since(start)
	if want := "10,000 errors, 0 warnings in 10,000 bigquery-etl entries"; code != exitFindings || !strings.Contains(stdout.String(), want) {
		t.Fatalf("exit %d, want 1 and %q:\n%s%s", code, want, clip(stdout.String()), clip(stderr.String()))
	}
	if elapsed > 5*time.Second {
		t.Errorf("took %v, more than 5 s", elapsed.Round(time.Millisecond))
	}
}
