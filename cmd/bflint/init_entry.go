package main

import (
	"bytes"
	"flag"
	"fmt"
	"github.com/bflint/bflint/internal/outfile"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/template"
	"time"

	"github.com/bflint/bflint/lineage"
	"github.com/bflint/bflint/parser/bqetl"
	"github.com/bflint/bflint/parser/manifest"
	"github.com/bflint/bflint/parser/plan"
	"github.com/bflint/bflint/parser/source"
	"github.com/bflint/bflint/parser/window"
	"github.com/bflint/bflint/parser/yamlx"
)

// entrySkeleton is what entryTemplate fills in: one bqetl backfill entry,
// and the comments above it that say what bflint read and what is left.
type entrySkeleton struct {
	Table, Partitioning string
	Date, Start, End    string
	Watchers            []string
	WatchersFromOwners  bool
	Notes               []string
	// Backfill and ThroughUnion are the backfill.yaml files of the
	// incremental tables downstream, in rebuild order.
	Backfill, ThroughUnion []string
	// BackfillNote introduces Backfill; More counts the tables not
	// listed, past maxListed.
	BackfillNote string
	More         int
}

// maxListed bounds the tables the comments list: the entry's file keeps
// them until someone deletes them.
const maxListed = 20

// entryTemplate writes the keys "bqetl backfill create" writes, in its
// order, so that the entry reads like every other in the file. Each TODO
// is a value BF001 reports until a person replaces it.
var entryTemplate = template.Must(template.New("entry").Parse(`# Written by bflint init for {{.Table}}{{if .Partitioning}},
# {{.Partitioning}}{{end}}.
# A TODO marks what only you can answer; bflint reports the entry until it
# is answered. Delete these comments then.
{{- range .Notes}}
{{.}}
{{- end}}
{{- if .Backfill}}
{{.BackfillNote}}
{{- range .Backfill}}
#   {{.}}
{{- end}}
{{- if .More}}
#   and {{.More}} more: bflint lineage {{.Table}} lists them all
{{- end}}
{{- end}}
{{- if .ThroughUnion}}
# These read it only through a view that unions it with other tables;
# check whether their queries select its rows:
{{- range .ThroughUnion}}
#   {{.}}
{{- end}}
{{- end}}
{{.Date}}:
  start_date: {{.Start}}
  end_date: {{.End}}
  reason: TODO what was wrong, since when, which change caused it, and a link to the bug
  watchers:
{{- range .Watchers}}
  - {{.}}{{if $.WatchersFromOwners}}  # from metadata.yaml owners{{end}}
{{- else}}
  - TODO  # the people to tell how the backfill went
{{- end}}
  status: Initiate
`))

// initEntry writes a backfill entry for a table of the bigquery-etl tree
// at tree: to stdout, or with -o to the top of the table's backfill.yaml
// (bqetl keeps the newest entry first), or to a new file.
func initEntry(fs *flag.FlagSet, tree string, stdout io.Writer) error {
	target, output := flagValue(fs, "target"), flagValue(fs, "o")
	if isPlanFile(output) {
		return initBqetlPlan(fs, tree, stdout)
	}
	for _, name := range []string{"manifest", "id", "grain", "dialect", "partition-column"} {
		if flagValue(fs, name) != "" {
			return commandUsageErrorf("init", "init --%s is for a plan; a bqetl entry has none (name a NAME.backfill.yaml with -o for a plan)", name)
		}
	}
	entryDate, err := initNow(flagValue(fs, "now"))
	if err != nil {
		return err
	}
	start, err := entryDay("--start", flagValue(fs, "start"))
	if err != nil {
		return err
	}
	end, err := entryDay("--end", flagValue(fs, "end"))
	if err != nil {
		return err
	}
	switch {
	case start.After(end):
		return commandUsageErrorf("init", "init: --start %s is after --end %s", start.Format(time.DateOnly), end.Format(time.DateOnly))
	case end.After(entryDate):
		return commandUsageErrorf("init", "init: --end %s is after the entry date %s: bqetl refuses a range that ends after the day the entry starts", end.Format(time.DateOnly), entryDate.Format(time.DateOnly))
	}
	bt, err := readBqetlTable(tree, target)
	if err != nil {
		return err
	}
	lin, g, id, dirs, obj, table := bt.lin, bt.graph, bt.id, bt.dirs, bt.obj, bt.table
	sk := entrySkeleton{
		Table: id, Date: entryDate.Format(time.DateOnly),
		Start: start.Format(time.DateOnly), End: end.Format(time.DateOnly),
		Watchers: table.Owners, WatchersFromOwners: len(table.Owners) > 0,
		Notes: entryNotes(table, start, end, entryDate),
	}
	if p := table.Partitioning.V; p != "" {
		sk.Partitioning = "partitioned by " + p
		if table.Field.V != "" {
			sk.Partitioning += " on " + table.Field.V
		}
	}
	widened := bt.widened(tree)
	reached := map[string]bool{}
	for _, r := range g.RebuildAvoiding(id, bqetl.UnionViews(lin.Manifest)) {
		reached[r] = true
	}
	for _, r := range g.Rebuild(id) {
		if g.Materialization(r) != "incremental" {
			continue
		}
		d := filepath.ToSlash(filepath.Join(dirs[r].Dir, bqetl.FileName))
		if reached[r] {
			if w, ok := widened(r); ok {
				from, to := w.Affected(start, end)
				d += fmt.Sprintf(" over %s..%s (it reads this table over %s, BF809)", from.Format(time.DateOnly), to.Format(time.DateOnly), w)
			}
			sk.Backfill = append(sk.Backfill, d)
		} else {
			sk.ThroughUnion = append(sk.ThroughUnion, d)
		}
	}
	note := fmt.Sprintf("Once this entry is Complete, the %d incremental tables built from it keep the partitions computed from its uncorrected rows, and each needs an entry of its own over the same dates (BF801), or the wider range noted for a table that reads a window of it (BF809), in this order:", len(sk.Backfill))
	if len(sk.Backfill) == 1 {
		note = "Once this entry is Complete, the incremental table built from it keeps the partitions computed from its uncorrected rows, and needs an entry of its own over the same dates (BF801), or the wider range noted when it reads a window of it (BF809):"
	}
	sk.BackfillNote = strings.TrimSuffix(wrap(note, "# ", 76), "\n")
	if len(sk.Backfill) > maxListed {
		sk.More = len(sk.Backfill) - maxListed
		sk.Backfill = sk.Backfill[:maxListed]
	}
	var b bytes.Buffer
	if err := entryTemplate.Execute(&b, sk); err != nil {
		return internalErrorf("init: %v", err)
	}
	if output == "" {
		_, err := stdout.Write(b.Bytes())
		return err
	}
	if err := writeEntry(output, filepath.Join(obj.Dir, bqetl.FileName), id, sk.Date, b.Bytes()); err != nil {
		return err
	}
	return reportWritten(stdout, fmt.Sprintf("added the entry of %s to the top of %s", sk.Date, output), b.Bytes(), output)
}

// bqetlTable is a table of a bigquery-etl tree that init writes for, with
// the tree's lineage.
type bqetlTable struct {
	lin   *bqetl.Lineage
	graph *lineage.Graph
	id    string
	dirs  map[string]bqetl.Object
	obj   bqetl.Object
	table *bqetl.Table
}

// readBqetlTable reads the tree at tree and the table target names in it,
// refusing a view or a table the tree reads but does not define.
func readBqetlTable(tree, target string) (*bqetlTable, error) {
	lin, err := bqetl.ReadLineageCached(tree, true, manifest.CacheDir())
	if err != nil {
		return nil, inputErrorf("init: %v", err)
	}
	g := lineage.New(lin.Manifest)
	id, err := g.Resolve(target)
	if err != nil {
		return nil, inputErrorf("init: target %v (the tree at %s)", err, tree)
	}
	dirs := make(map[string]bqetl.Object, len(lin.Objects))
	for _, o := range lin.Objects {
		dirs[o.Name] = o
	}
	obj, defined := dirs[id]
	switch {
	case !defined:
		return nil, inputErrorf("init: %s is read by the tree's queries but defined outside it, so it has no backfill.yaml here", id)
	case obj.View:
		return nil, inputErrorf("init: %s is a view: it keeps no rows of its own, and a backfill of the tables it reads corrects what it shows", id)
	}
	meta, err := source.ReadRegular(filepath.Join(obj.Dir, bqetl.MetadataName), source.MaxFileSize)
	if err != nil && !os.IsNotExist(err) {
		return nil, inputErrorf("init: %v", err)
	}
	table := bqetl.ReadTable(source.Add(token.NewFileSet(), filepath.Join(obj.Dir, bqetl.MetadataName), meta))
	return &bqetlTable{lin: lin, graph: g, id: id, dirs: dirs, obj: obj, table: table}, nil
}

// widened returns, for a table built from bt's, the window of bt's
// partitions it reads per partition of its own, along the lineage, when
// that is wider than the partition (BF809): correcting a range changes
// more of its partitions.
func (bt *bqetlTable) widened(tree string) func(id string) (window.Window, bool) {
	windows := lineage.NewWindows(func(node string) map[string]window.Window { return bqetl.ReadWindows(tree, bt.lin.Manifest, node) })
	return func(id string) (window.Window, bool) {
		w, ok := windows.Along(bt.graph.Path(bt.id, id))
		return w, ok && !w.IsSame()
	}
}

// entryNotes says, for the table's metadata, what bqetl will do with the
// range that its author may not expect, each with the rule that reports
// it and the override bqetl offers.
func entryNotes(t *bqetl.Table, start, end, entryDate time.Time) []string {
	var notes []string
	day := func(d time.Time) string { return d.Format(time.DateOnly) }
	if t.Offset.V != 0 && t.Partitioning.V == "day" {
		distance, side := fmt.Sprintf("%d days", abs(t.Offset.V)), "after"
		if abs(t.Offset.V) == 1 {
			distance = "1 day"
		}
		if t.Offset.V < 0 {
			side = "before"
		}
		notes = append(notes, fmt.Sprintf("date_partition_offset %d: bqetl runs the query for each date and writes the partition %s %s it, %s to %s, unless the entry sets ignore_date_partition_offset: true.",
			t.Offset.V, distance, side, day(start.AddDate(0, 0, t.Offset.V)), day(end.AddDate(0, 0, t.Offset.V))))
	}
	if t.Offset.V != 0 && t.Partitioning.V == "month" {
		notes = append(notes, "A month-partitioned table with a date_partition_offset: bqetl stops unless the entry sets ignore_date_partition_offset: true (BF107).")
	}
	if t.ExpirationDays.Limited && t.ExpirationDays.Days > 0 {
		oldest := entryDate.AddDate(0, 0, -t.ExpirationDays.Days)
		if start.Before(oldest) {
			notes = append(notes, fmt.Sprintf("The table keeps %s days of partitions: the first it still has is about %s, so the range starts before its data does (BF108).", t.ExpirationDays.Raw, day(oldest)))
		}
	}
	switch {
	case t.DependsOnPast.V && end.Before(entryDate):
		notes = append(notes, fmt.Sprintf("depends_on_past: bqetl refuses an end_date before the entry date, %s, unless override_depends_on_past_end_date: true; then every partition after end_date keeps values built on the uncorrected ones (BF109).", day(entryDate)))
	case !t.DependsOnPast.V && !end.Before(entryDate):
		notes = append(notes, fmt.Sprintf("end_date is the entry date: bqetl starts the entry once it is merged, before the day's upstream runs, so %s would be computed from partial data (BF102). End a day earlier.", day(end)))
	}
	for i, n := range notes {
		notes[i] = strings.TrimSuffix(wrap(n, "# ", 76), "\n")
	}
	return notes
}

// writeEntry puts the entry at the top of the table's own backfill.yaml,
// above its newest entry, or writes a new file. Any other file that
// exists is refused, as the dbt init refuses it: another table's
// metadata.yaml, a link to a file elsewhere, a file bqetl does not read.
func writeEntry(path, tableFile, table, date string, entry []byte) error {
	info, err := os.Lstat(path)
	if os.IsNotExist(err) {
		if err := outfile.Create(path, entry, 0o644); err != nil {
			return inputErrorf("init -o %s: %v", path, err)
		}
		return nil
	}
	if err != nil {
		return inputErrorf("init -o %s: %v", path, err)
	}
	own, ownErr := os.Lstat(tableFile)
	switch {
	case info.IsDir():
		return inputErrorf("init -o %s: a folder; name the table's backfill.yaml, %s, or a new file", path, tableFile)
	case ownErr != nil || !os.SameFile(info, own):
		return inputErrorf("init -o %s: the file exists and is not the backfill.yaml of %s; bflint init adds an entry only to %s, or writes a new file", path, table, tableFile)
	case !info.Mode().IsRegular():
		return inputErrorf("init -o %s: not a regular file (a link, a device or a pipe); bflint init writes entries only into the file itself", path)
	}
	content, err := source.ReadRegular(path, source.MaxFileSize)
	if err != nil {
		return inputErrorf("init -o %s: %v", path, err)
	}
	file := source.Add(token.NewFileSet(), path, content)
	if root, problems := yamlx.Parse(file); root == nil && len(bytes.TrimSpace(content)) > 0 {
		line := 1 + bytes.Count(content[:file.Offset(problems[0].Pos)], []byte("\n"))
		return inputErrorf("init -o %s: line %d: %s; fix the file first, so that bqetl's one entry a day can be checked", path, line, problems[0].Message)
	}
	for _, e := range bqetl.ReadFile(file).Entries {
		if e.Date.Raw == date {
			return inputErrorf("init -o %s: the file has an entry of %s already, and bqetl allows one entry a day; edit that one", path, date)
		}
	}
	if err := outfile.Write(path, append(entry, content...), 0o644); err != nil {
		return inputErrorf("init -o %s: %v", path, err)
	}
	return nil
}

// entryDay reads a range flag of an entry: bqetl's dates are days.
func entryDay(flagName, text string) (time.Time, error) {
	t, prec, err := plan.ParseDate(text)
	if err != nil || prec != plan.PrecisionDay {
		return time.Time{}, commandUsageErrorf("init", "init %s %q: a bqetl entry's dates are days, such as 2026-03-01", flagName, text)
	}
	return t, nil
}

// initNow is the entry date: the day the entry is merged and starts, as
// bqetl dates it; --now sets it, for a plan written ahead or a test.
func initNow(text string) (time.Time, error) {
	if text == "" {
		y, m, d := time.Now().UTC().Date()
		return time.Date(y, m, d, 0, 0, 0, 0, time.UTC), nil
	}
	t, err := parseNow(text)
	if err != nil {
		return time.Time{}, commandUsageErrorf("init", "init --now %q is not a date such as 2026-11-30", text)
	}
	y, m, d := t.UTC().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC), nil
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
