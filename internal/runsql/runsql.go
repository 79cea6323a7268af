// Package runsql writes the SQL a backfill plan names for the steps that
// depend only on where the rows live: the key's uniqueness in staging,
// the reconciliation of staging against the target, the rollback capture,
// the publish and the rollback, in the dialect of the target's warehouse.
// Each statement is bounded by literal partition values, the range's
// first partition inclusive and the one after its last exclusive, so the
// set reads as the plan does (BF104) whatever the grain.
package runsql

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/bflint/bflint/parser/plan"
)

// Dialect is a warehouse whose SQL Generate writes.
type Dialect string

const (
	BigQuery   Dialect = "bigquery"
	Snowflake  Dialect = "snowflake"
	Databricks Dialect = "databricks"
	Postgres   Dialect = "postgres"
	DuckDB     Dialect = "duckdb"
)

// Dialects are the dialects Generate writes, in the order help lists them.
var Dialects = []Dialect{BigQuery, Snowflake, Databricks, Postgres, DuckDB}

// ForAdapter is the dialect of a dbt adapter (the manifest's
// adapter_type), and false for one Generate does not write.
func ForAdapter(adapter string) (Dialect, bool) {
	switch a := strings.ToLower(adapter); a {
	case "spark":
		return Databricks, true
	default:
		d := Dialect(a)
		return d, slices.Contains(Dialects, d)
	}
}

// Spec is what the SQL is written from: the plan's answers.
type Spec struct {
	Dialect Dialect
	// Target, Staging and Rollback are relations as the SQL names them:
	// the live table, staging.relation and rollback.location.
	Target, Staging, Rollback string
	PartitionColumn           string
	Grain                     plan.Grain
	// Start and End are the range's first and last partitions.
	Start, End time.Time
	// Key is rerun.key, empty when the write has none.
	Key []string
	// Build are the queries the build runs into staging, each kept to the
	// partitions it computes: one over the range (a model's query as a
	// full run executes it), or one per partition (a bigquery-etl query
	// with its date parameter bound). None leaves the build to the author.
	Build []Query
	// BuildFrom names where the build's query was read when dbt compiled
	// it, "" when bflint resolved the model's own SQL.
	BuildFrom string
	// Control is the control period the control check compares, nil for
	// none.
	Control *Control
}

// Query is a query and the partitions first..last its rows are kept to.
type Query struct {
	First, Last time.Time
	SQL         string
}

// Control is a period the bug did not touch, outside the range, that the
// build recomputes beside staging, with its own queries, for the control
// check to compare.
type Control struct {
	Start, End time.Time
	Build      []Query
}

// File is one SQL file of the set: its name in the plan's sql folder, the
// plan key that names it, and its text.
type File struct {
	Name, Key, Text string
}

// Publish mechanism and mode the generated publish implements, for the
// plan's publish section.
const (
	PublishMode = "whole_range"
)

// PublishMechanism is publish.mechanism for the dialect's publish.
func PublishMechanism(d Dialect) string {
	if d == Databricks {
		return "insert_overwrite"
	}
	return "merge"
}

// Generate writes the set. It never reads a clock: the range is the plan's.
func Generate(s Spec) []File {
	w := writer{s}
	var out []File
	if len(s.Build) > 0 {
		out = append(out, File{"build.sql", "staging.build", w.build()})
	}
	if len(s.Key) > 0 {
		out = append(out, File{"assert_unique.sql", "rerun.uniqueness_check", w.assertUnique()})
	}
	out = append(out, File{"validate_reconciliation.sql", "validation.checks", w.reconciliation()})
	if c := s.Control; c != nil && len(c.Build) > 0 && len(s.Build) > 0 {
		out = append(out, File{"validate_control.sql", ControlKey, w.controlCheck()})
	}
	return append(out,
		File{"capture.sql", "rollback.capture", w.capture()},
		File{"publish.sql", "publish.sql", w.publish()},
		File{"rollback.sql", "rollback.sql", w.rollback()},
	)
}

// ControlBefore is the control period init proposes: the partitions just
// before the range, as many as the range has up to a week of days (seven
// at any grain). They are untouched by the bug when range.start is its
// first bad partition, which range.boundary records.
func ControlBefore(g plan.Grain, start, end time.Time) (first, last time.Time) {
	n := 0
	for p := start; !p.After(end) && n < 7; p = g.Add(p, 1) {
		n++
	}
	return g.Add(start, -n), g.Add(start, -1)
}

// ControlKey is the File.Key of the control check.
const ControlKey = "validation.checks.control"

// ControlPass is the pass criterion of the control check.
const ControlPass = "changed_rows = 0"

// ReconciliationPass is the pass criterion of the reconciliation check:
// the row count of no partition changes by more than one percent, which a
// correction of values keeps; a correction that adds or drops rows
// states its own bound.
const ReconciliationPass = "max_row_delta_pct <= 1"

type writer struct{ s Spec }

// literal is a partition value as the dialect writes it.
func (w writer) literal(t time.Time) string {
	if w.s.Grain == plan.Hour {
		return "TIMESTAMP '" + t.Format("2006-01-02 15:04:05") + "'"
	}
	return "DATE '" + t.Format("2006-01-02") + "'"
}

// inRange is the predicate on the partition column for the range, with
// the column qualified by alias when one is given.
func (w writer) inRange(alias string) string {
	return w.between(alias, w.s.Start, w.s.End)
}

// between is the predicate on the partition column for the partitions
// first..last.
func (w writer) between(alias string, first, last time.Time) string {
	col := w.s.PartitionColumn
	if alias != "" {
		col = alias + "." + col
	}
	next := w.s.Grain.Add(last, 1)
	return fmt.Sprintf("%s >= %s AND %s < %s", col, w.literal(first), col, w.literal(next))
}

func (w writer) header(what string) string {
	s := w.s
	return fmt.Sprintf("-- Written by bflint init for %s (%s).\n-- %s.\n-- The range is %s..%s (%s), bounded by literal partitions, the one\n-- after its last exclusive.\n",
		s.Target, s.Dialect, what, s.Grain.Format(s.Start), s.Grain.Format(s.End), s.Grain)
}

// createTable starts the statement that recreates relation from a
// query, so that a re-run of the build replaces what the last one built.
func (w writer) createTable(relation string) string {
	if w.s.Dialect == Postgres {
		// PostgreSQL has no CREATE OR REPLACE TABLE: a re-run drops
		// what the last one built.
		return "DROP TABLE IF EXISTS " + relation + ";\n\nCREATE TABLE " + relation + " AS"
	}
	return "CREATE OR REPLACE TABLE " + relation + " AS"
}

// ControlSuffix ends the name of the relation the build recomputes the
// control period into, beside staging in its schema.
const ControlSuffix = "_control"

func (w writer) control() string { return w.s.Staging + ControlSuffix }

// build runs the build's queries into staging, the first recreating it
// and each other adding its rows, then the control period's the same way
// into a relation of its own.
func (w writer) build() string {
	s := w.s
	what := "The model's query, as a full run executes it, recomputed for the\n-- range into staging; check it against the compiled model"
	switch {
	case s.BuildFrom != "":
		what = "The model's query as dbt compiled it, " + s.BuildFrom + ",\n-- recomputed for the range into staging; compile it again if the model\n-- changed since"
	case len(s.Build) > 1:
		what = "The table's query once per partition, its date parameter bound as\n-- bqetl binds it, into staging; the first statement recreates staging,\n-- so a re-run replaces what the last one built"
	}
	var b strings.Builder
	b.WriteString(w.header(what))
	w.queriesInto(&b, s.Staging, s.Build)
	if c := s.Control; c != nil && len(c.Build) > 0 {
		fmt.Fprintf(&b, "\n-- The control period, %s..%s, recomputed the same way for the\n-- control check to compare with the target.\n", s.Grain.Format(c.Start), s.Grain.Format(c.End))
		w.queriesInto(&b, w.control(), c.Build)
	}
	return b.String()
}

// queriesInto writes each query into relation, kept to its partitions:
// the first recreates relation, so a re-run replaces what the last one
// built, and the others insert.
func (w writer) queriesInto(b *strings.Builder, relation string, queries []Query) {
	for i, q := range queries {
		into := w.createTable(relation)
		if i > 0 {
			into = "\nINSERT INTO " + relation
		}
		fmt.Fprintf(b, `%s
SELECT *
FROM (
%s
) AS query
WHERE %s;
`, into, indent(q.SQL), w.between("query", q.First, q.Last))
	}
}

// controlCheck counts the rows that differ between the control period
// recomputed and the target's, both ways: the bug did not touch the
// period, so none may. BigQuery compares each row's JSON image, since its
// EXCEPT DISTINCT refuses arrays and structs.
func (w writer) controlCheck() string {
	s := w.s
	c := s.Control
	period := w.between("", c.Start, c.End)
	head := w.header(fmt.Sprintf("Rows of the control period, %s..%s, that the recompute changes,\n-- counted both ways: the bug did not touch the period, so none may", s.Grain.Format(c.Start), s.Grain.Format(c.End)))
	image, except := "*", "EXCEPT"
	if s.Dialect == BigQuery {
		image, except = "TO_JSON_STRING(r) AS row_image", "EXCEPT DISTINCT"
	}
	return head + fmt.Sprintf(`WITH recomputed AS (
    SELECT %[1]s
    FROM %[2]s AS r
    WHERE %[3]s
),
live AS (
    SELECT %[1]s
    FROM %[4]s AS r
    WHERE %[3]s
)
SELECT COUNT(*) AS changed_rows
FROM (
    (SELECT * FROM recomputed %[5]s SELECT * FROM live)
    UNION ALL
    (SELECT * FROM live %[5]s SELECT * FROM recomputed)
) AS changed;
`, image, w.control(), period, s.Target, except)
}

func indent(text string) string {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = "    " + l
		}
	}
	return strings.Join(lines, "\n")
}

func (w writer) assertUnique() string {
	s := w.s
	keys := strings.Join(s.Key, ", ")
	return w.header("Rows that share a key in staging: none may come back before the\n-- publish") + fmt.Sprintf(`SELECT %s, COUNT(*) AS copies
FROM %s
WHERE %s
GROUP BY %s
HAVING COUNT(*) > 1;
`, keys, s.Staging, w.inRange(""), keys)
}

func (w writer) reconciliation() string {
	s := w.s
	col := s.PartitionColumn
	return w.header("Rows per partition in staging against the target; a partition\n-- missing on either side counts as 100%") + fmt.Sprintf(`WITH staged AS (
    SELECT %[1]s AS partition_value, COUNT(*) AS row_count
    FROM %[2]s
    WHERE %[3]s
    GROUP BY %[1]s
),
live AS (
    SELECT %[1]s AS partition_value, COUNT(*) AS row_count
    FROM %[4]s
    WHERE %[3]s
    GROUP BY %[1]s
)
SELECT
    COALESCE(MAX(
        CASE
            WHEN s.partition_value IS NULL OR l.partition_value IS NULL THEN 100.0
            ELSE 100.0 * ABS(s.row_count - l.row_count) / l.row_count
        END
    ), 0) AS max_row_delta_pct,
    COUNT(*) AS partitions_compared
FROM staged AS s
FULL OUTER JOIN live AS l
    ON l.partition_value = s.partition_value;
`, col, s.Staging, w.inRange(""), s.Target)
}

func (w writer) capture() string {
	s := w.s
	return w.header("A copy of the range as it stands, taken before the publish; the\n-- rollback restores from it") + fmt.Sprintf(`CREATE TABLE %s AS
SELECT *
FROM %s
WHERE %s;
`, s.Rollback, s.Target, w.inRange(""))
}

func (w writer) publish() string {
	return w.header("The staged range replaces the target's in one operation, so\n-- readers see the old range or the new one, never a mix") + w.replace(w.s.Staging)
}

func (w writer) rollback() string {
	return w.header("The captured range replaces the published one in one operation") + w.replace(w.s.Rollback)
}

// replace writes the range of from over the target's in one operation.
func (w writer) replace(from string) string {
	s := w.s
	switch s.Dialect {
	case BigQuery:
		// ON FALSE matches nothing: every target row of the range is
		// deleted, every source row inserted, in one atomic MERGE.
		return fmt.Sprintf(`MERGE %s AS t
USING (
    SELECT *
    FROM %s
    WHERE %s
) AS s
ON FALSE
WHEN NOT MATCHED BY SOURCE AND %s THEN DELETE
WHEN NOT MATCHED THEN INSERT ROW;
`, s.Target, from, w.inRange(""), w.inRange("t"))
	case Databricks:
		return fmt.Sprintf(`INSERT INTO %s
REPLACE WHERE %s
SELECT *
FROM %s
WHERE %s;
`, s.Target, w.inRange(""), from, w.inRange(""))
	}
	begin, commit := "BEGIN;", "COMMIT;"
	if s.Dialect == Snowflake {
		begin, commit = "BEGIN TRANSACTION;", "COMMIT;"
	}
	return fmt.Sprintf(`%s

DELETE FROM %s
WHERE %s;

INSERT INTO %s
SELECT *
FROM %s
WHERE %s;

%s
`, begin, s.Target, w.inRange(""), s.Target, from, w.inRange(""), commit)
}
