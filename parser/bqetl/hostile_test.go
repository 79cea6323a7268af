package bqetl

import (
	"go/token"
	"strings"
	"testing"

	"github.com/bflint/bflint/internal/benchgen"
	"github.com/bflint/bflint/parser/source"
)

// A file of 10,000 entries without a single alias is read whole: the
// alias bound once counted every value and cut it off near 9,000 entries,
// with false "lacks" problems for the entry it stopped in.
func TestManyEntriesAreReadWhole(t *testing.T) {
	f := ReadFile(source.Add(token.NewFileSet(), "backfill.yaml", []byte(benchgen.Entries(10_000))))
	if len(f.Problems) != 0 || len(f.Entries) != 10_000 {
		t.Fatalf("read %d entries of 10000, problems %v", len(f.Entries), f.Problems[:min(len(f.Problems), 5)])
	}
}

// An entry whose aliases expand past the bound stops the reading there:
// one problem says so, and neither it nor the entries after it are judged
// for values the decode never reached.
func TestAliasExpansionStopsQuietly(t *testing.T) {
	text := "2026-01-02:\n  start_date: 2026-01-01\n  end_date: 2026-01-01\n  reason: &r Fix.\n  watchers: [" +
		strings.Repeat("*r, ", 100_001) + "*r]\n  status: Initiate\n" + benchgen.Entries(3)
	f := ReadFile(source.Add(token.NewFileSet(), "backfill.yaml", []byte(text)))
	if len(f.Problems) != 1 || !strings.Contains(f.Problems[0].Message, "YAML aliases expand to more than 100000 values") {
		t.Errorf("want one problem naming the alias expansion, got %v", f.Problems[:min(len(f.Problems), 5)])
	}
	if len(f.Entries) != 0 {
		t.Errorf("%d entries read past the alias bound", len(f.Entries))
	}
}

// A key that is a mapping or a list is one problem naming what it is, not
// problems about an entry with an empty name.
func TestComplexKey(t *testing.T) {
	src := "? [2026-01-01, 2026-01-02]\n: start_date: 2025-12-01\n  end_date: 2025-12-02\n  reason: Fix rows.\n  watchers:\n  - a@example.com\n  status: Initiate\n" + benchgen.Entries(1)
	f := ReadFile(source.Add(token.NewFileSet(), "backfill.yaml", []byte(src)))
	if len(f.Entries) != 1 || len(f.Problems) != 1 || !strings.Contains(f.Problems[0].Message, "not a list") {
		t.Fatalf("read %d entries, problems %v; want the one well-formed entry and one problem about the list key", len(f.Entries), f.Problems)
	}
}
