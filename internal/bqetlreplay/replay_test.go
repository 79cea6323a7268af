package bqetlreplay

import (
	"slices"
	"strings"
	"testing"
)

const file = `# header comment
2026-05-25:
  start_date: 2024-04-10
  end_date: 2026-05-22
  status: Complete

2026-04-10:
  start_date: 2024-04-10
  end_date: 2026-04-10
  status: Complete
`

func TestEntries(t *testing.T) {
	got := Entries(file)
	want := []Entry{{"2026-05-25", 2, 6}, {"2026-04-10", 7, 10}}
	if !slices.Equal(got, want) {
		t.Errorf("Entries = %v, want %v", got, want)
	}
}

func TestReviewDropsLaterEntriesAndInitiates(t *testing.T) {
	r, ok := Review(file, "2026-04-10")
	if !ok {
		t.Fatal("no entry 2026-04-10")
	}
	want := "# header comment\n2026-04-10:\n  start_date: 2024-04-10\n  end_date: 2026-04-10\n  status: Initiate\n"
	if r.Text != want {
		t.Errorf("Text =\n%s\nwant\n%s", r.Text, want)
	}
	if r.First != 2 || r.Last != 5 {
		t.Errorf("entry at lines %d..%d, want 2..5", r.First, r.Last)
	}
	if r.Lines[1] != 7 || r.Lines[4] != 10 {
		t.Errorf("Lines = %v: line 2 should be line 7 of the file, line 5 line 10", r.Lines)
	}
}

func TestReviewKeepsEarlierEntries(t *testing.T) {
	r, ok := Review(file, "2026-05-25")
	if !ok {
		t.Fatal("no entry 2026-05-25")
	}
	if r.First != 2 || r.Last != 6 || r.Lines[9] != 10 {
		t.Errorf("First %d Last %d Lines %v", r.First, r.Last, r.Lines)
	}
	want := strings.Replace(file, "status: Complete", "status: Initiate", 1)
	if r.Text != want {
		t.Errorf("Text =\n%s\nwant\n%s", r.Text, want)
	}
	if _, ok := Review(file, "2026-01-01"); ok {
		t.Error("Review found an entry that is not there")
	}
}
