package bqetl

import (
	"cmp"
	"go/token"
	"os"
	"path/filepath"
	"testing"

	"github.com/bflint/bflint/parser/plan"
	"github.com/bflint/bflint/parser/source"
)

// seedTables adds the backfill.yaml and metadata.yaml pairs of the test
// trees to a fuzz corpus, with hostile variants.
func seedTables(f *testing.F) {
	dirs, _ := filepath.Glob("../../testdata/init/bqetl/sql/*/*/*")
	more, _ := filepath.Glob("../../testdata/rules/*/sql/*/*/*")
	for _, dir := range append(dirs, more...) {
		entries, _ := os.ReadFile(filepath.Join(dir, FileName))
		meta, _ := os.ReadFile(filepath.Join(dir, MetadataName))
		if entries != nil || meta != nil {
			f.Add(entries, meta)
		}
	}
	for _, c := range [][2]string{
		{"2026-01-02:\n  start_date: 2026-01-01\n  end_date: 2026-01-01\n  reason: Fix.\n  watchers: [a]\n  status: Initiate\n",
			"bigquery:\n  time_partitioning:\n    type: day\n    expiration_days: 1e308\nscheduling:\n  date_partition_offset: -9223372036854775808\n"},
		{"? [a]\n: x\n", "bigquery: {time_partitioning: {expiration_days: -5}}\n"},
		{"2026-01-02: &e {start_date: 2026-01-01}\n2026-01-03: *e\n", "scheduling: {date_partition_offset: 9223372036854775807}\n"},
		{"2026-01-02:\n  excluded_dates: [2026-13-01, x]\n  watchers: &w [*w]\n", "bigquery: {time_partitioning: {expiration_days: .nan}}\n"},
	} {
		f.Add([]byte(c[0]), []byte(c[1]))
	}
}

// FuzzEntries reads arbitrary bytes as a backfill.yaml and its table's
// metadata.yaml, and makes plans of the entries: it must never panic,
// every problem must point into the backfill.yaml, and the partition
// offset must move the range's dates the way its sign says.
func FuzzEntries(f *testing.F) {
	seedTables(f)
	f.Fuzz(func(t *testing.T, entries, metadata []byte) {
		fset := token.NewFileSet()
		file := source.Add(fset, "sql/p/d/t_v1/backfill.yaml", entries)
		table := ReadTable(source.Add(fset, "sql/p/d/t_v1/metadata.yaml", metadata))
		read := ReadFile(file)
		for _, p := range read.Problems {
			if !file.Contains(p.Pos) {
				t.Fatalf("problem %q at a position outside the file", p.Message)
			}
		}
		plans := Plans(read, table, "sql/p/d/t_v1")
		for _, p := range plans {
			pl := Of(p)
			if pl == nil || p.Range == nil {
				continue
			}
			// The offset moves each date its own way, never wrapping round.
			for _, d := range []struct{ moved, written plan.Date }{{p.Range.Start, pl.Entry.StartDate}, {p.Range.End, pl.Entry.EndDate}} {
				if d.moved.Valid() && d.written.Valid() && d.moved.T.Compare(d.written.T) != cmp.Compare(pl.OffsetDays(), 0) {
					t.Fatalf("date_partition_offset %d moved %s to %s", pl.OffsetDays(), d.written.Raw, d.moved.Raw)
				}
			}
			pl.Entry.Corrects()
			pl.Entry.Settled()
			for _, q := range plans {
				if other := Of(q); other != nil {
					other.Follows(pl)
				}
			}
		}
	})
}
