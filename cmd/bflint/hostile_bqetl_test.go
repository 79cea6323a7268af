package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bflint/bflint/internal/benchgen"
)

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
	if err := os.WriteFile(file, []byte(benchgen.Entries(10_000)), 0o644); err != nil {
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

// terminalText holds what a hostile repository writes to take over a
// terminal: clear the screen, set the window title (OSC, ended by BEL),
// and a carriage return that overwrites the line.
const terminalText = "\x1b[2J\x1b]0;owned\x07\rover"

// TestControlCharactersInEveryFormat puts escape sequences in a plan
// string and in a table folder's name, with a line break: every
// human-readable output (brief, markdown, github, models, the lineage
// tree) shows them replaced, and the folder's name stays on one line.
func TestControlCharactersInEveryFormat(t *testing.T) {
	dir := bqetlTree(t)
	table := filepath.Join(dir, "sql/shop-prod/orders_derived/orders_v1")
	evil := filepath.Join(dir, "sql/shop-prod/orders_derived", "evil"+terminalText+"\nsecond_line_v1")
	if err := os.CopyFS(evil, os.DirFS(filepath.Join(dir, "sql/shop-prod/orders_derived/daily_totals_v1"))); err != nil {
		t.Skipf("cannot name a folder with control characters here: %v", err)
	}
	entry := "2026-06-01:\n  start_date: 2026-05-01\n  end_date: 2026-05-30\n  reason: \"Fix the duplicated rows " + strings.ReplaceAll(strings.ReplaceAll(terminalText, "\x1b", `\e`), "\x07", `\a`) + "\"\n  watchers:\n  - a@example.com\n  status: Initiate\n"
	if err := os.WriteFile(filepath.Join(table, "backfill.yaml"), []byte(entry), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"brief", "--now", "2026-06-02", "."},
		{"--now", "2026-06-02", "--format", "markdown", "."},
		{"--now", "2026-06-02", "--format", "github", "."},
		{"models", "--format", "markdown", "."},
		{"models", "."},
		{"lineage", "--tree", "sql", "shop-prod.orders_derived.orders_v1"},
	} {
		var stdout, stderr bytes.Buffer
		code := run(args, &stdout, &stderr)
		if code > exitFindings {
			t.Errorf("bflint %s: exit %d: %s", strings.Join(args, " "), code, stderr.String())
			continue
		}
		if stdout.Len() == 0 {
			t.Errorf("bflint %s wrote nothing", strings.Join(args, " "))
		}
		checkText(t, stdout.Bytes())
		checkText(t, stderr.Bytes())
		for _, line := range strings.Split(stdout.String(), "\n") {
			if strings.HasPrefix(strings.TrimLeft(line, " │├└─"), "second_line_v1") {
				t.Errorf("bflint %s printed a folder's name on two lines: %q", strings.Join(args, " "), line)
			}
		}
	}
}
