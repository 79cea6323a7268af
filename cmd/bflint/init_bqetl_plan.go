package main

import (
	"flag"
	"fmt"
	"go/token"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/bflint/bflint/internal/runsql"
	"github.com/bflint/bflint/parser/bqetl"
	"github.com/bflint/bflint/parser/plan"
	"github.com/bflint/bflint/parser/source"
)

// isPlanFile reports whether init -o names a bflint plan (*.backfill.yaml),
// which in a bigquery-etl tree asks for a plan with its SQL instead of a
// bqetl entry (backfill.yaml).
func isPlanFile(output string) bool {
	base := filepath.Base(output)
	return strings.HasSuffix(base, ".backfill.yaml") || strings.HasSuffix(base, ".backfill.yml")
}

// initBqetlPlan writes a bflint plan for a table of the bigquery-etl tree
// at tree, for a backfill run by hand rather than by bqetl's managed
// backfill, and the BigQuery SQL of its run beside it: the table's query
// bound to each partition's date into staging, the checks, the capture,
// the publish and the rollback.
func initBqetlPlan(fs *flag.FlagSet, tree string, stdout io.Writer) error {
	output := flagValue(fs, "o")
	for _, name := range []string{"manifest", "now"} {
		if flagValue(fs, name) != "" {
			return commandUsageErrorf("init", "init --%s: a plan for a bigquery-etl table reads the tree, and is not dated as an entry is", name)
		}
	}
	if d := flagValue(fs, "dialect"); d != "" && d != string(runsql.BigQuery) {
		return commandUsageErrorf("init", "init --dialect %q: a bigquery-etl table lives in BigQuery", d)
	}
	if err := refuseExistingPlan(output); err != nil {
		return err
	}
	bt, err := readBqetlTable(tree, flagValue(fs, "target"))
	if err != nil {
		return err
	}
	known := bqetlKnown(bt.table)
	if c, err := partitionColumnFlag(fs, &known); err != nil {
		return err
	} else if c != "" {
		known.column = c
	}
	g, from, to, id, err := planRange(fs, known.grain)
	if err != nil {
		return err
	}
	name := strings.ToLower(bt.id[strings.LastIndex(bt.id, ".")+1:])
	sk := skeleton{
		SchemaURL:  schemaURL(currentVersion()),
		ID:         id,
		Target:     bt.id,
		Name:       name,
		Start:      g.Format(from.T),
		End:        g.Format(to.T),
		Grain:      string(g),
		Known:      known,
		Source:     "the bigquery-etl tree",
		ValuesFrom: "metadata.yaml",
		BuildNote:  "the table's query with its date parameter bound to each partition",
		Staging:    "backfill_staging." + name + "__" + id,
		// bqetl's date parameter is the DAG's logical date, a UTC day.
		Timezone: "UTC  # bigquery-etl binds the date parameter to the scheduler's logical date, a UTC day",
	}
	sk.Rebuild, sk.Skip = bqetlDownstream(tree, bt, from.T, to.T)
	if known.grainNote != "" && flagValue(fs, "grain") == "" {
		sk.GrainNote = "  # " + known.grainNote
	}
	files, why, err := bqetlRunSQL(&sk, bt, known.column, from.T, to.T, output)
	if err != nil {
		return err
	}
	return writePlan(output, sk, files, why, stdout)
}

// bqetlKnown reads the plan's answers from the table's metadata.yaml.
func bqetlKnown(t *bqetl.Table) known {
	k := known{
		PartitionColumn: "TODO  # metadata.yaml names no time_partitioning field",
		Write:           "TODO  # merge | replace_partition | overwrite: how the recompute writes its rows",
		grain:           plan.Day,
		Materialized:    "a table",
	}
	if f := t.Field.V; f != "" {
		k.PartitionColumn, k.column = f+"  # from metadata.yaml: bigquery.time_partitioning.field", f
	}
	if g := plan.Grain(strings.ToLower(t.Partitioning.V)); g == plan.Hour || g == plan.Day || g == plan.Month {
		k.grain, k.grainNote = g, "from metadata.yaml: bigquery.time_partitioning.type"
	}
	switch {
	case t.Appends.Set:
		k.Write, k.Key = "append  # TODO from metadata.yaml: --append_table adds a run's rows again on a re-run (BF201); recompute with replace_partition", "[TODO]"
	case t.Null:
		k.Write, k.Materialized = "overwrite  # from metadata.yaml: date_partition_parameter null, so every run writes the whole table", "written whole by every run"
	case t.Partitioning.V != "":
		k.Write, k.Materialized = "replace_partition  # from metadata.yaml: each run replaces the partition of its date", "written a partition per run"
	}
	return k
}

// bqetlDownstream lists the incremental tables built from the table, in
// rebuild order, each with the range it needs when it reads a window of
// the table wider than the partition (BF809), and the tables every
// scheduled run writes whole, which the next run recomputes.
func bqetlDownstream(tree string, bt *bqetlTable, start, end time.Time) (rebuild []string, skip []skipped) {
	widened := bt.widened(tree)
	for _, r := range bt.graph.Rebuild(bt.id) {
		if reason, ok := notRebuilt(bt, r); ok {
			skip = append(skip, skipped{r, reason})
			continue
		}
		item := r
		if w, ok := widened(r); ok {
			from, to := w.Affected(start, end)
			item = fmt.Sprintf("{node: %s, range: {start: %s, end: %s}}  # it reads this table over %s (BF809)", r, from.Format(time.DateOnly), to.Format(time.DateOnly), w)
		}
		rebuild = append(rebuild, item)
	}
	return rebuild, skip
}

// unscheduledReason is the skip reason of a table no DAG of the tree
// runs: a person knows whether its rows need the correction.
const unscheduledReason = "TODO why it may keep rows computed from the uncorrected ones, as no DAG of the tree runs it"

// notRebuilt is why a table built from the target needs no rebuild of
// the plan's own, when it is not an incremental table: a table every
// scheduled run writes whole is recomputed by its next run; a deprecated
// one is no longer maintained. A table no DAG of the tree runs, and one
// whose metadata cannot be read, is left for a person to decide (a TODO
// reason, which BF001 reports until it is answered).
func notRebuilt(bt *bqetlTable, id string) (string, bool) {
	switch bt.graph.Materialization(id) {
	case "incremental":
		return "", false
	case bqetl.Deprecated:
		return "deprecated in its metadata.yaml, so no longer maintained", true
	case bqetl.Unscheduled:
		return unscheduledReason, true
	}
	meta, err := source.ReadRegular(filepath.Join(bt.dirs[id].Dir, bqetl.MetadataName), source.MaxFileSize)
	if err != nil || !bqetl.ReadTable(source.Add(token.NewFileSet(), bqetl.MetadataName, meta)).Scheduled {
		return unscheduledReason, true
	}
	return "every scheduled run writes it whole, so its next run recomputes it from the corrected rows", true
}

// bqetlRunSQL writes the BigQuery SQL of the plan's run. The build binds
// the table's query to each partition's date, as bqetl does; it is left
// to the author, with the reason, when the query cannot be bound alone.
func bqetlRunSQL(sk *skeleton, bt *bqetlTable, column string, start, end time.Time, output string) ([]sqlFile, string, error) {
	if column == "" {
		return nil, "metadata.yaml names no partition column; pass --partition-column", nil
	}
	spec := runsql.Spec{
		Dialect: runsql.BigQuery, Target: "`" + bt.id + "`", Staging: sk.Staging,
		Rollback:        "backfill_rollback." + sk.Name + "__pre_" + sk.ID,
		PartitionColumn: column, Grain: plan.Grain(sk.Grain), Start: start, End: end,
	}
	build, buildWhy := bqetlPartitionQueries(bt, spec.Grain, start, end)
	if buildWhy == "" {
		// The control days bind as the range's do.
		cs, ce := runsql.ControlBefore(spec.Grain, start, end)
		control, _ := bqetlPartitionQueries(bt, spec.Grain, cs, ce)
		spec.Build, spec.Control = build, &runsql.Control{Start: cs, End: ce, Build: control}
	}
	files, err := writeRunSQL(sk, spec, output)
	if buildWhy != "" {
		sk.StagingNote = "  # no build written: " + buildWhy
	}
	return files, "", err
}

// bqetlPartitionQueries binds the table's query to the date of each
// partition of the range, moved back by date_partition_offset (the run
// for date D writes partition D plus the offset). The reason is set when
// there is no query to bind.
func bqetlPartitionQueries(bt *bqetlTable, g plan.Grain, start, end time.Time) ([]runsql.Query, string) {
	t := bt.table
	switch {
	case g != plan.Day:
		return nil, "bflint binds the date of daily partitions only"
	case t.Null:
		return nil, "the query writes the whole table (date_partition_parameter null)"
	case t.Appends.Set:
		return nil, "the query appends (--append_table)"
	case t.DependsOnPast.V:
		return nil, "the table depends on its past: each partition reads the one before it, which a build into staging would read uncorrected from the target"
	case t.Parameters:
		return nil, "the query takes scheduling.parameters, which bflint does not bind"
	}
	content, err := source.ReadRegular(filepath.Join(bt.obj.Dir, "query.sql"), source.MaxFileSize)
	if err != nil {
		return nil, "the table has no query.sql bflint can read (a query.py or a script)"
	}
	param := t.DateParameter.V
	if param == "" {
		param = "submission_date"
	}
	var out []runsql.Query
	for p := start; !p.After(end); p = p.AddDate(0, 0, 1) {
		q, err := bqetl.BindDate(string(content), param, p.AddDate(0, 0, -t.Offset.V))
		if err != nil {
			return nil, err.Error()
		}
		out = append(out, runsql.Query{First: p, Last: p, SQL: q})
	}
	return out, ""
}
