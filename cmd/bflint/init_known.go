package main

import (
	"strings"

	"github.com/bflint/bflint/internal/runsql"
	"github.com/bflint/bflint/parser/manifest"
	"github.com/bflint/bflint/parser/plan"
)

// skeleton is what the template fills in.
type skeleton struct {
	SchemaURL, ID, Target, Name, Manifest string
	Start, End, Grain, GrainNote          string
	// Timezone is range.timezone with its comment.
	Timezone string
	// RunCommand is the dbt command that recomputes a microbatch model
	// for the range, "" for other models.
	RunCommand string
	// Staging is staging.relation, with the comment StagingNote.
	Staging, StagingNote string
	Known                known
	// Source says where the config and lineage were read: "the
	// manifest", or "the dbt project" when it has none.
	Source string
	// ValuesFrom, when set, is where the values marked "from" were read,
	// when that is not Source; BuildNote says what the written build
	// runs, when that is not the model's query.
	ValuesFrom, BuildNote      string
	Rebuild, Notify, Snapshots []string
	// Skip are derived nodes init knows need no rebuild, with the reason.
	Skip []skipped
	// SQL names the files init wrote for the run, by the plan key that
	// names each (publish.sql, rollback.capture, ...), as the plan writes
	// them; empty when it wrote none. Dialect is their warehouse, and
	// Rollback the relation the capture writes.
	SQL map[string]string
	// ControlStart and ControlEnd are the control period of the control
	// check init wrote, when it wrote one.
	ControlStart, ControlEnd string
	Dialect                  string
	Rollback                 string
}

// skipped is an item of downstream.skip.
type skipped struct{ Node, Reason string }

// known is what the manifest answers of the plan, each value with the
// comment the skeleton writes beside it, so that a reader sees which
// lines bflint filled and from what.
type known struct {
	// PartitionColumn, Write and Key are complete YAML values with their
	// comment: "order_date  # from the manifest: ...", or a TODO; Key is
	// empty when the write needs no row key.
	PartitionColumn, Write, Key string
	// Materialized is the node's materialization, said in the header.
	Materialized string
	grain        plan.Grain
	grainNote    string
	// column is the partition column alone, "" when unknown.
	column string
}

// fromManifest reads the rerun, partition and publish answers a dbt node's
// config gives. A value is written only where the config decides it; the
// rest stays TODO. source names where the config was read ("the
// manifest", "the dbt project"), for the comments that mark each value.
func fromManifest(n *manifest.Node, source string) known {
	k := known{
		PartitionColumn: "TODO",
		Write:           "TODO  # merge | replace_partition | overwrite: how the recompute writes its rows",
		Key:             "[TODO]",
		grain:           plan.Day,
	}
	if n == nil {
		return k
	}
	c := n.Config
	k.Materialized = c.Materialized
	switch {
	case c.PartitionBy.Field != "":
		k.PartitionColumn = c.PartitionBy.Field + "  # from " + source + ": partition_by.field"
	case c.EventTime != "":
		k.PartitionColumn = c.EventTime + "  # TODO check: the event_time of " + source + ", which is the partition column only if the target is partitioned on it"
	}
	switch g := plan.Grain(strings.ToLower(c.PartitionBy.Granularity)); {
	case c.PartitionBy.Field == "":
	case g == plan.Hour || g == plan.Day || g == plan.Month:
		k.grain, k.grainNote = g, "from "+source+": partition_by.granularity"
	case g == "" && strings.EqualFold(c.PartitionBy.DataType, "date"):
		// BigQuery partitions a DATE column by day unless told otherwise.
		k.grainNote = "from " + source + ": a date partition_by, daily unless granularity says otherwise"
	}
	key := strings.Join(c.UniqueKey, ", ")
	keyFromManifest := "[" + key + "]  # from " + source + ": unique_key"
	switch strategy := strings.ToLower(c.IncrementalStrategy); {
	case c.Materialized == "table":
		k.Write = "overwrite  # from " + source + ": materialized table, rebuilt whole by every run"
	case c.Materialized != "incremental":
	case strategy == "merge" && key != "":
		k.Write, k.Key = "merge  # from "+source+": incremental_strategy merge", keyFromManifest
	case strategy == "delete+insert" && key != "":
		k.Write, k.Key = "merge  # from "+source+": delete+insert on unique_key replaces each key's rows, which converges as a merge does", keyFromManifest
	case strategy == "" && key != "":
		k.Write, k.Key = "merge  # TODO check: no incremental_strategy, so the adapter's default (merge on most warehouses) on unique_key", keyFromManifest
	case strategy == "insert_overwrite":
		k.Write = "replace_partition  # from " + source + ": incremental_strategy insert_overwrite"
	case strategy == "microbatch":
		k.Write = "replace_partition  # from " + source + ": microbatch replaces each batch of event_time"
	case strategy == "append" || key == "":
		how := "incremental_strategy " + strategy + " with no unique_key"
		switch strategy {
		case "append":
			how = "incremental_strategy append"
		case "":
			how = "the adapter's default strategy with no unique_key"
		}
		k.Write = "append  # TODO from " + source + ": " + how + " adds a partition's rows again on a re-run (BF201); recompute with merge on a key or replace_partition"
	}
	if strings.HasPrefix(k.Write, "replace_partition") || strings.HasPrefix(k.Write, "overwrite") {
		// A partition or table replaced whole needs no row key.
		k.Key = ""
	}
	return k
}

// ControlPass is the pass criterion of the written control check.
func (sk skeleton) ControlPass() string { return runsql.ControlPass }

// ReconciliationPass is the pass criterion of the written reconciliation.
func (sk skeleton) ReconciliationPass() string { return runsql.ReconciliationPass }

// PublishMechanism is publish.mechanism of the written publish.
func (sk skeleton) PublishMechanism() string {
	return runsql.PublishMechanism(runsql.Dialect(sk.Dialect))
}

// PublishMode is publish.mode of the written publish.
func (sk skeleton) PublishMode() string { return runsql.PublishMode }
