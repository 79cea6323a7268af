package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"regexp"
	"strings"
	"text/template"

	"github.com/bflint/bflint/lineage"
	"github.com/bflint/bflint/parser/manifest"
	"github.com/bflint/bflint/parser/plan"
)

const initUsage = `Usage: bflint init --target T --start D --end D [--manifest FILE] [--id ID] [--grain G]

Prints a plan skeleton for a backfill of T on stdout: every section of the
plan format, the downstream rebuild, notify and skip lists filled from the
dbt manifest, and TODO markers where only a person can answer. bflint keeps
reporting the TODOs until they are answered (docs/authoring.md says which
rule reports which).

Flags:
`

// schemaURL is the raw file, because editors fetch the schema itself rather
// than GitHub's page about it.
const schemaURL = "https://raw.githubusercontent.com/bflint/bflint/main/parser/plan/schema.json"

var planID = regexp.MustCompile(`^[a-z0-9_]+$`)

// skeleton is what the template fills in.
type skeleton struct {
	SchemaURL, ID, Target, Name, Manifest string
	Start, End, Grain                     string
	Rebuild, Notify, Snapshots            []string
}

func initCommand(args []string, stdout io.Writer) error {
	flags := flag.NewFlagSet("bflint init", flag.ContinueOnError)
	flags.SetOutput(io.Discard)
	target := flags.String("target", "", "the dataset to correct: a unique_id, model name or relation the manifest knows")
	start := flags.String("start", "", "first partition of the range, inclusive (`DATE`)")
	end := flags.String("end", "", "last partition of the range, inclusive (`DATE`)")
	manifestPath := flags.String("manifest", "", "dbt manifest.json `FILE` (default: found as bflint lineage finds it); written into the plan as downstream.manifest, so give it relative to the plan's folder")
	id := flags.String("id", "", "plan id, [a-z0-9_]+ (default: bf, the start date as YYYYMMDD, then _a)")
	grain := flags.String("grain", "day", "partition `grain`: hour, day, week or month")
	if err := flags.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, initUsage)
			flags.SetOutput(stdout)
			flags.PrintDefaults()
			return &exitError{code: exitClean}
		}
		return usageErrorf("init: %v", err)
	}
	if flags.NArg() > 0 {
		return usageErrorf("init takes no arguments besides its flags, got %q", flags.Arg(0))
	}
	if *target == "" || *start == "" || *end == "" {
		return usageErrorf("init needs --target, --start and --end, e.g. bflint init --target fct_orders --start 2026-01-14 --end 2026-06-30")
	}
	g := plan.Grain(*grain)
	switch g {
	case plan.Hour, plan.Day, plan.Week, plan.Month:
	default:
		return usageErrorf("init --grain %q: use hour, day, week or month", *grain)
	}
	from, err := partition(g, "--start", *start)
	if err != nil {
		return err
	}
	to, err := partition(g, "--end", *end)
	if err != nil {
		return err
	}
	if from.T.After(to.T) {
		return usageErrorf("init: --start %s is after --end %s", *start, *end)
	}
	if *id == "" {
		*id = "bf" + from.T.Format("20060102") + "_a"
	}
	if !planID.MatchString(*id) {
		return usageErrorf("init --id %q: a plan id is lowercase letters, digits and underscores, as it names staging relations", *id)
	}
	path := *manifestPath
	if path == "" {
		if path, err = discoverManifest(); err != nil {
			return err
		}
	}
	m, err := manifest.Load(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) && *manifestPath == "" {
			return usageErrorf("init: %v; run dbt compile (or dbt docs generate) to write it, or pass --manifest FILE", err)
		}
		return usageErrorf("init: %v", err)
	}
	graph := lineage.New(m)
	node, err := graph.Resolve(*target)
	if err != nil {
		return usageErrorf("init: target %v (manifest %s)", err, path)
	}
	name := node[strings.LastIndex(node, ".")+1:]
	if n := m.Node(node); n != nil && n.Name != "" {
		name = n.Name
	}
	return skeletonTemplate.Execute(stdout, skeleton{
		SchemaURL: schemaURL,
		ID:        *id,
		Target:    node,
		Name:      strings.ToLower(name),
		Manifest:  *manifestPath,
		Start:     g.Format(from.T),
		End:       g.Format(to.T),
		Grain:     string(g),
		Rebuild:   graph.Rebuild(node),
		Notify:    graph.Notify(node),
		Snapshots: graph.Snapshots(node),
	})
}

// partition reads a date flag the way the plan parser reads range dates,
// and insists it names one partition at the grain, so the skeleton never
// starts with a BF105.
func partition(g plan.Grain, flagName, text string) (plan.Date, error) {
	t, prec, err := plan.ParseDate(text)
	if err != nil {
		return plan.Date{}, usageErrorf("init %s: %v", flagName, err)
	}
	d := plan.Date{Raw: text, T: t, Precision: prec}
	if err := g.Fit(d); err != nil {
		return plan.Date{}, usageErrorf("init %s: %v", flagName, err)
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
# Written by bflint init. Each TODO is a question only you can answer;
# bflint reports the plan until every one is answered.
bflint: 1
id: {{.ID}}
target: {{.Target}}
owner: TODO
reason: TODO what was wrong, since when, and which change caused it

range:
  start: {{.Start}}
  end: {{.End}}
  grain: {{.Grain}}
  timezone: UTC
  partition_column: TODO
  pipeline_owns: 1
  boundary:  # TODO candidate and confirmed: the first bad partition, from deploy history and from the data
    introduced_by: TODO
    evidence: sql/TODO_find_boundary.sql

rerun:
  write: append  # TODO merge | replace_partition | overwrite; append duplicates rows on every re-run
  key: [TODO]
  uniqueness_check: sql/TODO_assert_unique.sql
  tested:  # TODO partition: the partition run twice against a populated copy
    identical: false  # TODO true once running a partition twice gives identical results

compute:  # TODO environment (isolated | shared) and max_concurrency

staging:
  relation: backfill_staging.{{.Name}}__{{.ID}}
  build: sql/TODO_build.sql

validation:
  checks:
    - name: reconciliation
      sql: sql/TODO_validate_reconciliation.sql
      pass: "TODO"
    - name: control_period
      sql: sql/TODO_validate_control.sql
      control: {}  # TODO start and end of a period the bug did not touch
      pass: "TODO"

publish:  # TODO mode (whole_range | per_partition) and mechanism (merge | partition_swap | snapshot_swap | view_swap | insert_overwrite)
  sql: sql/TODO_publish.sql

rollback:  # TODO mechanism (restore_copy | time_travel | snapshot_restore) and retained_until
  location: TODO
  restorable_by: TODO
  restore_time: TODO
  capture: sql/TODO_capture.sql
  sql: sql/TODO_rollback.sql
  tested: false  # TODO true once the rollback has run on the trial partition

trial:  # TODO partition: one partition to run end to end first

downstream:
{{- if .Manifest}}
  manifest: {{.Manifest}}
{{- end}}
  # From the manifest, in rebuild order.
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
{{- if .Snapshots}}
  skip:
{{- range .Snapshots}}
    - node: {{.}}
      reason: TODO why its recorded history may stay as it is
{{- end}}
{{- end}}

communication:  # TODO consumers and expected_change

data:
  contains_pii: false  # TODO

approval:
  required: true  # TODO approved_by: who authorised the restatement
`))
