package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"text/template"

	"github.com/bflint/bflint/internal/outfile"
	"github.com/bflint/bflint/lineage"
	"github.com/bflint/bflint/load"
	"github.com/bflint/bflint/parser/manifest"
	"github.com/bflint/bflint/parser/plan"
	"github.com/bflint/bflint/parser/runcmd"
	"github.com/bflint/bflint/reporters"
	"golang.org/x/mod/module"
	"golang.org/x/mod/semver"
)

const initAbout = `Writes a plan skeleton for a backfill of T: every section of the plan
format, filled with what the dbt manifest knows, or without one the dbt
project's own files (the incremental strategy and unique_key as
rerun.write and rerun.key, partition_by as the partition column and
grain, the downstream rebuild, notify and skip lists), each value taken
from there marked by a comment saying so, and TODO
markers where only a person can answer (the timezone among them: dbt does
not record it). bflint keeps reporting the TODOs until they are answered
(docs/authoring.md says which rule reports which). With -o FILE the plan
is written to FILE, which must not exist, and the manifest path in it is
relative to FILE's folder; without it, to stdout.

With -o and a known warehouse (the manifest's adapter_type, or --dialect:
bigquery, snowflake, databricks, postgres, duckdb), init also writes the
SQL of the run under sql/ID/ beside the plan, and names it in the plan:
the build (the model's own SQL with ref() and source() resolved and the
incremental branch left out, for a model with no other Jinja; else, for a
model that never tests is_incremental(), the SQL dbt compiled: the
manifest's compiled_code, or target/compiled), the key's uniqueness in
staging, a reconciliation of staging against the target per partition,
the rollback capture, a publish that replaces the range in one operation,
and the rollback that puts the capture back; with a build, also a control
check over the partitions just before the range, which the build
recomputes beside staging. Each is bounded by literal
partitions. It needs the partition column (partition_by,
or --partition-column) and never overwrites a file; the boundary
evidence stays TODO (docs/run-sql.md).

In a bigquery-etl repository (a sql/ tree and no dbt project, or --tree),
init writes a backfill entry instead, in bqetl's own format: dated today
(or --now), with the range, the table's owners as watchers, status
Initiate and a TODO reason; comments above it say what metadata.yaml
makes bqetl do with the range (a partition offset, an expiry,
depends_on_past) and list the incremental tables built from the table,
which need entries of their own once this one is complete. With -o the
entry goes on top of the table's backfill.yaml (bqetl keeps the newest
first), and the file keeps its mode; a second entry of one day is refused,
as is any other file that exists and a backfill.yaml that does not parse.
With -o NAME.backfill.yaml init writes a bflint plan for a backfill run
by hand instead, and its BigQuery SQL beside it: the build runs the
table's query once per partition with its date parameter bound
(docs/run-sql.md).`

func initFlags(fs *flag.FlagSet) {
	fs.String("target", "", "the dataset to correct (`TARGET`): a unique_id, model name or relation of the dbt project")
	fs.String("start", "", "first partition of the range, inclusive (`DATE`)")
	fs.String("end", "", "last partition of the range, inclusive (`DATE`)")
	fs.String("manifest", "", "dbt manifest.json `FILE` (default: found as bflint lineage finds it, and then not written into the plan, since lint finds it the same way)")
	fs.String("o", "", "write the plan to `FILE` (which must not exist) instead of stdout, with the manifest path relative to it; for a bqetl entry, the table's backfill.yaml, new or not")
	fs.String("id", "", "plan `ID`, [a-z0-9_]+ (default: bf, the start date as YYYYMMDD, then _a)")
	fs.String("grain", "", "partition `GRAIN`: hour, day, week or month (default: partition_by.granularity of the manifest, else day)")
	fs.String("tree", "", "the sql/ `FOLDER` of a bigquery-etl repository, to write a backfill entry for one of its tables (default: found from the working directory when there is no dbt project)")
	fs.String("partition-column", "", "the column the target is partitioned on (`COLUMN`), when the model's config names none (partition_by)")
	fs.String("dialect", "", "with -o, the warehouse whose SQL init writes beside the plan (`DIALECT`): bigquery, snowflake, databricks, postgres or duckdb (default: the manifest's adapter_type)")
	fs.String("now", "", "bigquery-etl only: the entry `DATE`, the day it is merged and starts (default: today, UTC)")
}

var planID = regexp.MustCompile(`^[a-z0-9_]+$`)

var sqlIdentifier = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_$]*$`)

func initCommand(args []string, stdout io.Writer) error {
	fs, err := parseCommandFlags(lookupSubcommand("init"), args, stdout)
	if err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return commandUsageErrorf("init", "init takes no arguments besides its flags, got %q", fs.Arg(0))
	}
	target, start, end := flagValue(fs, "target"), flagValue(fs, "start"), flagValue(fs, "end")
	manifestFlag, output := flagValue(fs, "manifest"), flagValue(fs, "o")
	if target == "" || start == "" || end == "" {
		return commandUsageErrorf("init", "init needs --target, --start and --end, e.g. bflint init --target fct_orders --start 2026-01-14 --end 2026-06-30")
	}
	if g := flagValue(fs, "grain"); g != "" && !validGrain(plan.Grain(g)) {
		return commandUsageErrorf("init", "init --grain %q: use hour, day, week or month", g)
	}
	tree := flagValue(fs, "tree")
	if tree != "" && manifestFlag != "" {
		return commandUsageErrorf("init", "init: pass --manifest or --tree, not both")
	}
	var dbt dbtLineage
	if tree == "" {
		dbt, err = readDBTLineage("init", manifestFlag, false)
		switch {
		case errors.Is(err, errNoDBTProject):
			found, ok := discoverTree()
			if !ok {
				return inputErrorf("init: no dbt_project.yml in the working directory or any folder above it, and no bigquery-etl sql/ folder; pass --manifest FILE or --tree DIR")
			}
			tree = found
		case err != nil:
			return err
		}
	}
	if tree != "" {
		return initEntry(fs, tree, stdout)
	}
	if flagValue(fs, "now") != "" {
		return commandUsageErrorf("init", "init --now is for a bqetl entry, which is dated; a dbt plan is not")
	}
	if err := refuseExistingPlan(output); err != nil {
		return err
	}
	m, path := dbt.m, dbt.path
	graph := lineage.New(m)
	nodeID, err := graph.Resolve(target)
	if err != nil {
		return inputErrorf("init: target %v (lineage of %s)", err, path)
	}
	node := m.Node(nodeID)
	known := fromManifest(node, dbt.source())
	partitionColumn, err := partitionColumnFlag(fs, &known)
	if err != nil {
		return err
	}
	if partitionColumn == "" && node != nil {
		partitionColumn = node.Config.PartitionBy.Field
	}
	g, from, to, id, err := planRange(fs, known.grain)
	if err != nil {
		return err
	}
	name := nodeID[strings.LastIndex(nodeID, ".")+1:]
	if node != nil && node.Name != "" {
		name = node.Name
	}
	manifestInPlan := manifestFlag
	if manifestFlag != "" && output != "" {
		if manifestInPlan, err = relativeTo(output, manifestFlag); err != nil {
			return inputErrorf("init: %v", err)
		}
	}
	sk := skeleton{
		SchemaURL: schemaURL(currentVersion()),
		ID:        id,
		Target:    nodeID,
		Name:      strings.ToLower(name),
		Manifest:  manifestInPlan,
		Start:     g.Format(from.T),
		End:       g.Format(to.T),
		Grain:     string(g),
		Known:     known,
		Source:    dbt.source(),
		Rebuild:   graph.Rebuild(nodeID),
		Notify:    graph.Notify(nodeID),
		Snapshots: graph.Snapshots(nodeID),
		Timezone:  "TODO  # the IANA zone the partition dates are in (UTC, Europe/Berlin, ...); dbt does not record it",
	}
	if sk.Grain == string(known.grain) && flagValue(fs, "grain") == "" && known.grainNote != "" {
		sk.GrainNote = "  # " + known.grainNote
	}
	sk.Staging = "backfill_staging." + sk.Name + "__" + id
	if node != nil && node.Config.Materialized == "incremental" && strings.EqualFold(node.Config.IncrementalStrategy, "microbatch") {
		vars := ""
		project, _ := manifest.ProjectDir(filepath.Dir(path), "/")
		switch naming := load.NamingVars(project); len(naming) {
		case 1:
			// The project names its tables through a var: the plan id
			// set there puts the run in a table of its own.
			vars = fmt.Sprintf(` --vars '{"%s": "%s"}'`, naming[0], id)
			sk.StagingNote = fmt.Sprintf("  # TODO check: the table generate_alias_name names with %s set to the plan id", naming[0])
		default:
			// dbt names the table after the model in whatever schema
			// the output writes: bflint cannot know it, and it carries
			// no plan id for two runs to stay apart.
			sk.Staging = "TODO"
			sk.StagingNote = "  # the table dbt run --target backfill writes (the output's schema, the model's alias); put the plan id in its name with a generate_alias_name macro (docs/dbt.md, step 3)"
		}
		sk.RunCommand = fmt.Sprintf("dbt run --select %s --target backfill --defer --state prod-artifacts%s --event-time-start %s --event-time-end %s",
			name, vars, runcmd.EventTimeValue(from.T), runcmd.EventTimeValue(g.Add(to.T, 1)))
	}
	if output == "" {
		if flagValue(fs, "dialect") != "" {
			return commandUsageErrorf("init", "init --dialect writes SQL files beside the plan, so it needs -o FILE")
		}
		return skeletonTemplate.Execute(stdout, sk)
	}
	manifestPath := ""
	if dbt.project == nil {
		manifestPath = path
	}
	files, why, err := runSQL(fs, &sk, m, graph, node, dbt.macros(), dbt.projectDir(), manifestPath, partitionColumn, from.T, to.T, output)
	if err != nil {
		return err
	}
	return writePlan(output, sk, files, why, stdout)
}

// writePlan writes the plan and the SQL files beside it, and says what it
// wrote; why is the reason there are no SQL files, when there are none.
func writePlan(output string, sk skeleton, files []sqlFile, why string, stdout io.Writer) error {
	var b strings.Builder
	if err := skeletonTemplate.Execute(&b, sk); err != nil {
		return internalErrorf("init: %v", err)
	}
	if err := os.MkdirAll(filepath.Dir(output), 0o755); err != nil {
		return inputErrorf("init -o: %v", err)
	}
	for _, f := range files {
		if err := os.MkdirAll(filepath.Dir(f.path), 0o755); err != nil {
			return inputErrorf("init -o: %v", err)
		}
		if err := outfile.Create(f.path, []byte(f.text), 0o644); err != nil {
			return inputErrorf("init -o: %v", err)
		}
	}
	if err := outfile.Create(output, []byte(b.String()), 0o644); err != nil {
		return inputErrorf("init -o: %v", err)
	}
	did := "wrote " + output
	if len(files) > 0 {
		did += fmt.Sprintf(" and %d %s SQL files under %s", len(files), sk.Dialect, filepath.Dir(files[0].path))
	} else if why != "" {
		did += " (no SQL: " + why + ")"
	}
	return reportWritten(stdout, did, []byte(b.String()), output)
}

// refuseExistingPlan refuses an -o that names a folder or a file that
// exists: init never overwrites a plan, which may hold answers.
func refuseExistingPlan(output string) error {
	if output == "" {
		return nil
	}
	if info, err := os.Lstat(output); err == nil && info.IsDir() {
		return inputErrorf("init -o %s: a folder; name the plan file to write, such as %s", output, filepath.Join(output, "fix.backfill.yaml"))
	} else if err == nil {
		return inputErrorf("init -o %s: the file exists; bflint init does not overwrite a plan, which may hold answers. Remove it or name another file", output)
	}
	return nil
}

// partitionColumnFlag reads --partition-column into k, returning the
// column, "" when the flag is not given.
func partitionColumnFlag(fs *flag.FlagSet, k *known) (string, error) {
	c := flagValue(fs, "partition-column")
	if c == "" {
		return "", nil
	}
	if !sqlIdentifier.MatchString(c) {
		return "", commandUsageErrorf("init", "init --partition-column %q: name one column", c)
	}
	k.PartitionColumn = c
	return c, nil
}

// planRange reads the plan's grain (--grain, else known's), its first
// and last partitions and its id (--id, else bf and the start date).
func planRange(fs *flag.FlagSet, known plan.Grain) (g plan.Grain, from, to plan.Date, id string, err error) {
	g = plan.Grain(flagValue(fs, "grain"))
	if g == "" {
		g = known
	}
	start, end := flagValue(fs, "start"), flagValue(fs, "end")
	if from, err = partition(g, "--start", start); err != nil {
		return
	}
	if to, err = partition(g, "--end", end); err != nil {
		return
	}
	if from.T.After(to.T) {
		err = commandUsageErrorf("init", "init: --start %s is after --end %s", start, end)
		return
	}
	if id = flagValue(fs, "id"); id == "" {
		id = "bf" + from.T.Format("20060102") + "_a"
	}
	if !planID.MatchString(id) {
		err = commandUsageErrorf("init", "init --id %q: a plan id is lowercase letters, digits and underscores, as it names staging relations", id)
	}
	return
}

// reportWritten says, once init has written a plan or an entry to a file,
// what it did, how many answers are still TODO, and what to run next.
func reportWritten(w io.Writer, did string, text []byte, path string) error {
	todo := 0
	for _, line := range strings.Split(string(text), "\n") {
		if value, _, _ := strings.Cut(line, "#"); !strings.HasPrefix(strings.TrimSpace(line), "#") {
			todo += strings.Count(value, "TODO")
		}
	}
	answers := fmt.Sprintf("%d answers are", todo)
	if todo == 1 {
		answers = "1 answer is"
	}
	msg := fmt.Sprintf("bflint init: %s; %s still TODO: fill them in, then run bflint %s to see what remains\n", did, answers, path)
	if todo == 0 {
		msg = fmt.Sprintf("bflint init: %s; run bflint %s to check it\n", did, path)
	}
	_, err := io.WriteString(w, reporters.Printable(msg))
	return err
}

func validGrain(g plan.Grain) bool {
	switch g {
	case plan.Hour, plan.Day, plan.Week, plan.Month:
		return true
	}
	return false
}

// relativeTo rewrites path, given relative to the working folder, as the
// plan at planPath must write it: relative to the plan's folder, where
// lint resolves it.
func relativeTo(planPath, path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	planDir, err := filepath.Abs(filepath.Dir(planPath))
	if err != nil {
		return "", err
	}
	rel, err := filepath.Rel(planDir, abs)
	if err != nil {
		return abs, nil
	}
	return filepath.ToSlash(rel), nil
}

// schemaURL pins the plan schema an editor loads to the release that wrote
// the skeleton, or its commit, so that a later change to the format on
// main does not mark an older plan wrong; a build that knows neither
// points at main.
func schemaURL(v versionInfo) string {
	ref := "main"
	switch {
	case semver.IsValid(v.Version) && !module.IsPseudoVersion(v.Version):
		ref = v.Version
	case commitPattern.MatchString(v.Commit):
		ref = v.Commit
	}
	// The raw file, because editors fetch the schema itself rather than
	// GitHub's page about it.
	return "https://raw.githubusercontent.com/bflint/bflint/" + ref + "/parser/plan/schema.json"
}

var commitPattern = regexp.MustCompile(`^[0-9a-f]{7,40}$`)

// partition reads a date flag the way the plan parser reads range dates,
// and insists it names one partition at the grain, so the skeleton never
// starts with a BF105.
func partition(g plan.Grain, flagName, text string) (plan.Date, error) {
	t, prec, err := plan.ParseDate(text)
	if err != nil {
		return plan.Date{}, commandUsageErrorf("init", "init %s: %v", flagName, err)
	}
	d := plan.Date{Raw: text, T: t, Precision: prec}
	if err := g.Fit(d); err != nil {
		return plan.Date{}, commandUsageErrorf("init", "init %s: %v", flagName, err)
	}
	return d, nil
}

// skeletonTemplate answers nothing a person must decide. Each TODO is
// written where an existing rule reports it: a missing file (BF003), a
// pass criterion that is not numeric (BF402), a key left out of its
// section (BF103, BF301, BF501, BF602, BF901, BF902, BF904), or a value a
// rule rejects (BF201, BF205, BF603, BF105). The comment carrying the TODO
// sits on the line the finding points at, so the report leads to it.
var skeletonTemplate = template.Must(template.New("plan").Parse(`# yaml-language-server: $schema={{.SchemaURL}}
# Written by bflint init{{if .Known.Materialized}} from {{.Source}}, where {{.Name}} is {{.Known.Materialized}}{{end}}.
# "from {{or .ValuesFrom .Source}}" marks a value read there; each question only you can
# answer is marked, and bflint reports the plan until every one is. Delete
# this comment once they are.
bflint: 1
id: {{.ID}}
target: {{.Target}}
owner: TODO
reason: TODO what was wrong, since when, and which change caused it

range:
  start: {{.Start}}
  end: {{.End}}
  grain: {{.Grain}}{{.GrainNote}}
  timezone: {{.Timezone}}
  partition_column: {{.Known.PartitionColumn}}
  pipeline_owns: 1
  boundary:  # TODO candidate and confirmed: the first bad partition, from deploy history and from the data
    introduced_by: TODO
    evidence: sql/TODO_find_boundary.sql

rerun:
  write: {{.Known.Write}}
{{- if .Known.Key}}
  key: {{.Known.Key}}
{{- with index .SQL "rerun.uniqueness_check"}}
  uniqueness_check: {{.}}  # written by bflint init: rows of staging that share the key
{{- else}}
  uniqueness_check: sql/TODO_assert_unique.sql
{{- end}}
{{- end}}
  tested: {}  # TODO partition: the partition run twice against a populated copy; identical: true once both runs gave the same rows

compute:  # TODO max_concurrency: how many partitions are recomputed at once
  environment: TODO  # isolated | shared (shared needs a window of off-peak hours)
{{- if .RunCommand}}

run:
  # From {{.Source}}: a microbatch model, which dbt recomputes for exactly
  # the range (--event-time-end is exclusive). TODO check that the output
  # --target names writes staging.relation, and that --state names the
  # folder of the production run's manifest.json, from which --defer
  # reads the models it does not select (docs/dbt.md, step 3).
  command: >-
    {{.RunCommand}}
{{- end}}

staging:
  relation: {{.Staging}}{{.StagingNote}}
{{- if not .RunCommand}}
{{- with index .SQL "staging.build"}}
  build: {{.}}  # written by bflint init: {{or $.BuildNote "the model's query as a full run executes it, bounded to the range"}}
{{- else}}
  build: sql/TODO_build.sql
{{- end}}
{{- end}}

validation:
  checks:
    - name: reconciliation
{{- with index .SQL "validation.checks"}}
      sql: {{.}}  # written by bflint init: rows per partition, staging against the target
      pass: "{{$.ReconciliationPass}}"  # a correction of values keeps each partition's rows; state the change one that adds or drops rows makes
{{- else}}
      sql: sql/TODO_validate_reconciliation.sql
      pass: "TODO"
{{- end}}
    - name: control_period
{{- with index .SQL "validation.checks.control"}}
      sql: {{.}}  # written by bflint init: the control period recomputed, against the target
      control: {start: {{$.ControlStart}}, end: {{$.ControlEnd}}}  # the partitions just before the range, untouched by the bug when range.start is its first bad partition; move it if not
      pass: "{{$.ControlPass}}"
{{- else}}
      sql: sql/TODO_validate_control.sql
      control: {}  # TODO start and end of a period the bug did not touch
      pass: "TODO"
{{- end}}

{{with index .SQL "publish.sql" -}}
publish:
  mechanism: {{$.PublishMechanism}}
  mode: {{$.PublishMode}}
  sql: {{.}}  # written by bflint init for {{$.Dialect}}: the staged range replaces the target's in one operation
{{- else -}}
publish:  # TODO mechanism (merge | partition_swap | snapshot_swap | view_swap | insert_overwrite)
  mode: TODO  # whole_range | per_partition
  sql: sql/TODO_publish.sql
{{- end}}

rollback:  # TODO retained_until: the day the copy may be dropped
{{- with index .SQL "rollback.capture"}}
  mechanism: restore_copy
  location: {{$.Rollback}}
{{- else}}
  mechanism: TODO  # restore_copy | time_travel | snapshot_restore
  location: TODO
{{- end}}
  restorable_by: TODO
  restore_time: TODO
{{- with index .SQL "rollback.capture"}}
  capture: {{.}}  # written by bflint init: a copy of the range before the publish
  sql: {{index $.SQL "rollback.sql"}}  # written by bflint init: the copy put back in one operation
{{- else}}
  capture: sql/TODO_capture.sql
  sql: sql/TODO_rollback.sql
{{- end}}
  tested: false  # TODO true once the rollback has run on the trial partition

trial:  # TODO partition: one partition to run end to end first

downstream:
{{- if .Manifest}}
  manifest: {{.Manifest}}
{{- end}}
  # From {{.Source}}, in rebuild order.
{{- if .Rebuild}}
  rebuild:
{{- range .Rebuild}}
    - {{.}}
{{- end}}
{{- else}}
  rebuild: []
{{- end}}
{{- if .Notify}}
  notify:
{{- range .Notify}}
    - {{.}}
{{- end}}
{{- end}}
{{- if or .Snapshots .Skip}}
  skip:
{{- range .Snapshots}}
    - node: {{.}}
      reason: TODO why its recorded history may stay as it is
{{- end}}
{{- range .Skip}}
    - node: {{.Node}}
      reason: {{.Reason}}
{{- end}}
{{- end}}

communication:  # TODO consumers and expected_change

data:
  contains_pii: TODO  # true or false: does the range hold personal data?

approval:
  required: true  # TODO approved_by: who authorised the restatement
`))
