package main

import (
	"errors"
	"flag"
	"io"
	"strings"
	"time"

	"github.com/bflint/bflint/load"
	"github.com/bflint/bflint/reporters/models"
)

const modelsAbout = `Lists the dbt models and bigquery-etl tables under the paths (default .),
one row each: how it is
built (materialization and incremental strategy), its unique_key and
partition, what a re-run does (safe, append, non_atomic, whole, unknown,
with the reason), and how a run chooses the partitions it computes, with
the file:line that decides it:
  parameter  the run is given its range (microbatch event times, var()
             values a command sets): a past range can be backfilled
  whole      every run recomputes everything (a table, a view, no
             incremental filter)
  clock      the incremental filter follows the time of the run
             (current_date, run_started_at, a macro's default): a run for
             a past range recomputes the days before today instead
  watermark  the filter starts from the rows the model holds: a run for
             a past range it holds writes nothing
  unknown    the filter is decided by something else, or is in a macro
             bflint cannot read
Read it before planning a backfill: only parameter and whole models can
be backfilled by range with dbt. The project is read as dbt reads it: its
manifest when there is one, else dbt_project.yml, properties files and
macros. A bigquery-etl table is run for the date bqetl binds to its date
parameter, unless its query compares a column with the clock where that
date belongs (BF112); its reads carry the window of partitions read for
one partition (same, days -27..0, month, all). It exits 0; 2 when nothing
under the paths is a model.`

func modelsFlags(fs *flag.FlagSet) {
	fs.String("format", "text", "output `FORMAT`: text, markdown or json")
	fs.String("manifest", "", "dbt manifest.json `FILE` (default: target/manifest.json of the project, else its files)")
	fs.String("config", "", "configuration `FILE` (default: .bflint.yaml found walking up to the project root)")
	fs.Func("where", "keep the models whose `FIELD=VALUE[,VALUE]` matches (name, kind, materialized, strategy, rerun, range); repeat to narrow", func(string) error { return nil })
}

func modelsCommand(args []string, stdout io.Writer) error {
	command := lookupSubcommand("models")
	flags := flag.NewFlagSet("bflint models", flag.ContinueOnError)
	flags.SetOutput(io.Discard)
	command.flags(flags)
	var where []models.Filter
	flags.Lookup("where").Value = filterFlag{&where}
	paths, err := parseInterleaved(flags, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			writeCommandHelp(stdout, command)
			return &exitError{code: exitClean}
		}
		return commandUsageErrorf("models", "models: %v", err)
	}
	format := flagValue(flags, "format")
	if format != "text" && format != "markdown" && format != "json" {
		return commandUsageErrorf("models", "models --format %q: use text, markdown or json", format)
	}
	o := &lintOptions{now: time.Now(), paths: paths}
	if len(o.paths) == 0 {
		o.paths = []string{"."}
	}
	o.configPath, o.manifest = flagValue(flags, "config"), flagValue(flags, "manifest")
	root, err := load.ProjectRoot(o.paths[0])
	if err != nil {
		return inputErrorf("%v", err)
	}
	ls, err := openLint(o, root)
	if err != nil {
		return err
	}
	ls.settings.ModelReads = true
	_, res := ls.lint()
	if len(res.Models) == 0 {
		return inputErrorf("no model under %s: bflint models lists the models of a dbt project (a folder with dbt_project.yml, or a manifest) and the queries of a bigquery-etl tree (sql/<project>/<dataset>/<table>/query.sql)", strings.Join(o.paths, " "))
	}
	doc := models.Build(res, where)
	switch format {
	case "json":
		err = models.WriteJSON(stdout, doc)
	case "markdown":
		err = models.WriteMarkdown(stdout, doc)
	default:
		err = models.WriteText(stdout, doc)
	}
	if err != nil {
		return internalErrorf("writing the models: %v", err)
	}
	return nil
}

// filterFlag collects --where filters.
type filterFlag struct{ into *[]models.Filter }

func (f filterFlag) String() string { return "" }

func (f filterFlag) Set(text string) error {
	filter, err := models.ParseFilter(text)
	if err != nil {
		return err
	}
	*f.into = append(*f.into, filter)
	return nil
}
