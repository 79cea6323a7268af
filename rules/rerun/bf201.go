package rerun

import (
	"fmt"
	"path"
	"strings"

	"github.com/bflint/bflint/parser/manifest"
	"github.com/bflint/bflint/parser/sqlname"
	"github.com/bflint/bflint/parser/sqlparse"
	"github.com/bflint/bflint/parser/sqlparse/fact"
	"github.com/bflint/bflint/parser/sqlparse/jinja"
	"github.com/bflint/bflint/rules"
	"golang.org/x/tools/go/analysis"
)

// AppendWrite reports a write that adds rows on every run.
var AppendWrite = &rules.Rule{
	Code:        "BF201",
	Name:        "append-write",
	Severity:    rules.SeverityError,
	Scope:       rules.ScopeSQL,
	ReadsTokens: true,
	Doc: rules.Doc{
		Title: "The backfill appends: re-running a partition duplicates its rows",
		Why: "Re-run safety is a property of the write, not of the transformation. A pure transformation followed by an append " +
			"adds the partition again every time it runs, and a backfill always runs some partitions twice: a retry after a timeout, " +
			"a restart after a failure halfway, a second pass after a fix. Against an empty range that goes unnoticed; " +
			"against the populated target it doubles revenue for exactly the days that were meant to be corrected. " +
			"The append shows in the plan (rerun.write: append); in the SQL (INSERT INTO or COPY INTO a relation that is not staging, " +
			"unless the same file deletes, truncates or recreates it first); in a plan's build that inserts into staging with nothing " +
			"in the file emptying or recreating the staged relation first (a re-run doubles staging, and the publish copies it); " +
			"in a bigquery-etl query whose metadata.yaml passes --append_table; and in dbt models that are incremental with the append " +
			"strategy, or with merge, delete+insert or the adapter default but no unique_key. A model is judged by its config as dbt " +
			"resolves it: config() in the file, then properties files, then dbt_project.yml folder config, read from the manifest or, " +
			"without one, from the project's own files; the plan's target is such a model when the lineage says so. " +
			"Write with a merge on a unique key or by replacing whole partitions (INSERT OVERWRITE, insert_overwrite, microbatch), " +
			"so a second run converges on the first. " +
			"Not reported: an append that leaves out the rows already present, in plain SQL, in the model's is_incremental() branch " +
			"or in a project macro's (read as SQL with the call's arguments bound), with NOT IN or NOT EXISTS over the written relation " +
			"({{ this }}), an anti-join against it, or a strict high-watermark (> (SELECT MAX(col) FROM {{ this }}), through COALESCE, " +
			"or > a column of a WITH query of that maximum joined with an inner join), a WITH query selecting from {{ this }} standing " +
			"for it; a watermark with >=, or in the ON of an outer join, keeps rows already present and is reported. " +
			"Nor an INSERT ... VALUES of bind parameters or procedure variables (:name, @name), a log row written as called. " +
			"A statement the parser rejects is read the same way from its conditions and WITH queries that parse on their own, and its joins. " +
			"A model whose incremental filter is in a project macro bflint cannot read as SQL (it builds its SQL from a query it runs, " +
			"or writes more than bflint expands) is not judged, and --stats counts it.",
		Bad: rules.Example{Lang: "sql", Text: `-- publish: every retry adds the range again
INSERT INTO analytics.fct_orders
SELECT * FROM backfill_staging.fct_orders__bf20260826_a;
`},
		Good: rules.Example{Lang: "sql", Text: `MERGE INTO analytics.fct_orders AS t
USING backfill_staging.fct_orders__bf20260826_a AS s
  ON t.order_id = s.order_id
WHEN MATCHED THEN UPDATE SET amount_minor = s.amount_minor
WHEN NOT MATCHED THEN INSERT (order_id, order_date, amount_minor)
  VALUES (s.order_id, s.order_date, s.amount_minor);
`},
	},
	Run: func(pass *rules.Pass) error {
		if pass.Plan != nil {
			if r := pass.Plan.Rerun; r != nil && r.Write.Set && r.Write.V == "append" {
				pass.Reportf(r.Write.Key, "rerun.write is append: re-running any partition of %q adds its rows again, doubling them\nhelp: use merge on a unique key or replace_partition", pass.Plan.Target.V)
			}
			reportTargetAppend(pass)
		}
		for _, f := range pass.SQLFiles("staging.build", "publish.sql") {
			reportAppends(pass, f)
			reportIncrementalAppend(pass, f)
			reportQueryAppend(pass, f)
		}
		return nil
	},
}

// reportAppends reports INSERT and COPY into relations that are not
// staging, and, in a plan's build, into staging too: a re-run of the
// build doubles the staged rows, which the publish then copies into the
// target. A relation emptied or created afresh earlier in the file is
// replaced, not appended to: whether the two steps are atomic is BF204's
// question.
func reportAppends(pass *rules.Pass, f *rules.SQLFile) {
	type emptied struct {
		rel sqlname.Relation
		st  *sqlparse.Statement
	}
	var cleared []emptied
	replaced := func(rel sqlname.Relation, st *sqlparse.Statement) bool {
		for _, c := range cleared {
			if c.st.Start < st.Start && sameRun(c.st, st) && c.rel.Matches(rel) {
				return true
			}
		}
		return false
	}
	for _, i := range inOrder(f.Parsed) {
		st := f.Parsed.Statements[i]
		ws, fromTokens := pass.Writes(st)
		report := pass.ReporterFor(fromTokens)
		for _, w := range ws {
			switch w.Kind {
			case fact.WriteDelete, fact.WriteTruncate, fact.WriteDrop, fact.WriteCreateOrReplace:
				cleared = append(cleared, emptied{w.Target, st})
			case fact.WriteCreateTable, fact.WriteCreateTableAs:
				// A staging relation created in the build is created
				// anew by each run of it (a second run fails rather than
				// appends).
				if w.Temporary || pass.IsStaging(w.Target) {
					cleared = append(cleared, emptied{w.Target, st})
				}
			case fact.WriteInsert, fact.WriteCopy:
				staging := pass.IsStaging(w.Target)
				if staging && !f.Has("staging.build") || replaced(w.Target, st) || st.ExcludesExisting(w.Target) || st.InsertsParameters() {
					continue
				}
				verb := "INSERT into"
				if w.Kind == fact.WriteCopy {
					verb = "COPY into"
				}
				if staging {
					report(f.Pos(w.Target.Offset), "%s staging %q appends, and nothing in the build empties it first: re-running the build doubles the staged rows, and the publish copies them into the target\nhelp: create the staging relation anew (CREATE OR REPLACE TABLE ... AS) or DELETE the range from it before the INSERT, in the same file", verb, w.Target.Name())
					continue
				}
				report(f.Pos(w.Target.Offset), "%s %q appends: re-running the backfill adds the same rows again and duplicates them\nhelp: write it as a MERGE on a unique key or INSERT OVERWRITE of the partitions, or DELETE the range before it in the same transaction", verb, w.Target.Name())
			}
		}
	}
}

// incrementalAppend says why a dbt model configured so inserts its rows
// again on every run, naming it as subject; "" when its runs converge.
func incrementalAppend(subject string, c manifest.Config, adapter string) string {
	if !c.AppendsUnlessFiltered() {
		return ""
	}
	strategy := strings.ToLower(strings.TrimSpace(c.IncrementalStrategy))
	if strategy == "append" {
		return fmt.Sprintf("%s is incremental with incremental_strategy append: every run inserts its rows again, so re-running a partition duplicates them\nhelp: use merge with a unique_key%s", subject, partitionStrategies(adapter))
	}
	how := "incremental_strategy " + strategy
	if strategy == "" {
		how = "the adapter's default incremental strategy"
	}
	return fmt.Sprintf("%s is incremental with %s and no unique_key: with no key to match on, every run inserts its rows again, so re-running a partition duplicates them\nhelp: set unique_key%s", subject, how, partitionStrategies(adapter))
}

// partitionStrategies names, for a help line, the strategies besides a
// key that make a re-run replace what it wrote, as the adapter has them:
// dbt's insert_overwrite replaces the partitions a run writes on BigQuery,
// Spark and Databricks, the whole table on Snowflake, and other adapters
// have none; microbatch replaces its batches on all of them.
func partitionStrategies(adapter string) string {
	switch strings.ToLower(adapter) {
	case "bigquery", "spark", "databricks":
		return ", or use insert_overwrite or microbatch"
	case "snowflake":
		return ", or use microbatch (on Snowflake insert_overwrite replaces the whole table, every partition)"
	case "":
		return ", or use microbatch, or insert_overwrite where it replaces only the partitions written (BigQuery, Spark, Databricks; on Snowflake it replaces the whole table)"
	}
	return ", or use microbatch"
}

// adapterOf is the dbt adapter of the unit's manifest ("" when unknown:
// a project read from its own files does not say).
func adapterOf(pass *rules.Pass) string {
	if m := pass.Unit.Manifest(); m != nil {
		return m.AdapterType
	}
	return ""
}

// reportIncrementalAppend judges a dbt model by its config as dbt resolves
// it (config() in the file, then properties files, then dbt_project.yml
// folder config), from the manifest or the project's own files; a model
// file outside any dbt project by its own config().
func reportIncrementalAppend(pass *rules.Pass, f *rules.SQLFile) {
	name := strings.TrimSuffix(path.Base(f.Source.Name), path.Ext(f.Source.Name))
	if f.GuardsIncrement() || f.Parsed.IncrementalMacro != "" {
		return
	}
	own := f.Parsed.Model
	switch n := f.Model; {
	case n != nil && (own == nil || !ownConfigDecides(own, n.Config)):
		if pass.Plan != nil {
			return
		}
		at := firstStatement(f.Parsed)
		if own != nil {
			at = own.Offset
		}
		where := "as the manifest records it"
		if pass.Unit.DBT.Project != nil {
			where = "in dbt_project.yml or a properties file"
		}
		subject := fmt.Sprintf("dbt model %q (configured outside the file, %s)", n.UniqueID, where)
		if msg := incrementalAppend(subject, n.Config, adapterOf(pass)); msg != "" {
			pass.Reportf(f.Pos(at), "%s", msg)
		}
	case own != nil:
		c := manifest.Config{Materialized: own.Materialized, IncrementalStrategy: own.IncrementalStrategy, UniqueKey: own.UniqueKey}
		if n != nil {
			c = n.Config
		}
		if msg := incrementalAppend(fmt.Sprintf("dbt model %q", name), c, adapterOf(pass)); msg != "" {
			pass.Reportf(f.Pos(own.Offset), "%s", msg)
		}
	}
}

// ownConfigDecides reports whether the file's config() sets every key of
// the resolved config that makes it append: the finding is then the
// file's own, with no other place to look.
func ownConfigDecides(own *jinja.Model, c manifest.Config) bool {
	switch {
	case !strings.EqualFold(own.Materialized, c.Materialized):
		return false
	case !strings.EqualFold(own.IncrementalStrategy, c.IncrementalStrategy) && c.IncrementalStrategy != "":
		return false
	}
	return len(own.UniqueKey) == len(c.UniqueKey)
}

// reportQueryAppend reports a bigquery-etl query whose rows bqetl appends
// to its table (--append_table) with nothing in the query leaving out the
// rows the table holds: each run of a date adds them again.
func reportQueryAppend(pass *rules.Pass, f *rules.SQLFile) {
	a := f.Bqetl
	if a == nil || !a.Appends.IsValid() || pass.Plan != nil {
		return
	}
	for _, st := range f.Parsed.Statements {
		if st.ExcludesExisting(a.Table) {
			return
		}
	}
	d := rules.Diagnostic{}
	d.Pos = f.Pos(firstStatement(f.Parsed))
	d.Message = fmt.Sprintf("the query of %q is appended to the table (--append_table in its metadata.yaml) and leaves out none of the rows the table holds: every run adds its rows again, so re-running a date duplicates them\nhelp: leave out what the table holds (NOT EXISTS over it, or a strict high-watermark > (SELECT MAX(...) FROM it)), or drop --append_table so that bqetl replaces the partition it writes", a.Table.Name())
	d.Related = []analysis.RelatedInformation{{Pos: a.Appends, Message: "--append_table makes bqetl append the query's rows"}}
	pass.Report(d)
}

// reportTargetAppend reports a plan whose target the manifest records as
// an appending incremental model: whatever the plan's own SQL does, dbt
// appends when it runs the model.
func reportTargetAppend(pass *rules.Pass) {
	g, m := pass.Unit.Lineage(), pass.Unit.Manifest()
	if g == nil || !pass.Plan.Target.Set {
		return
	}
	id, err := g.Resolve(pass.Plan.Target.V)
	if err != nil {
		return
	}
	n := m.Node(id)
	if n == nil || n.ResourceType != manifest.Model {
		return
	}
	if msg := incrementalAppend(fmt.Sprintf("the target, dbt model %q,", id), n.Config, adapterOf(pass)); msg != "" {
		pass.Reportf(pass.Plan.Target.At(), "%s", msg)
	}
}

// firstStatement is the offset of the file's first statement, 0 when it
// has none.
func firstStatement(f *sqlparse.File) int {
	if order := inOrder(f); len(order) > 0 {
		return f.Statements[order[0]].Start
	}
	return 0
}
