package main

import (
	"bufio"
	"errors"
	"flag"
	"io"
	"strings"
	"time"

	"github.com/bflint/bflint/internal/outfile"
	"github.com/bflint/bflint/load"
	"github.com/bflint/bflint/parser/source"
	"github.com/bflint/bflint/reporters"
	"github.com/bflint/bflint/reporters/brief"
)

const briefAbout = `Writes, for each backfill plan under the paths (bflint's own plans and
bigquery-etl backfill.yaml entries), the document its readers need: one
sentence saying what is corrected over which range and what consumers will
see change; the range and the evidence for its boundary; what moves
downstream and in which order, with a Mermaid diagram; how the run is made
safe (re-run test, staging, validation checks, trial partition); how it is
undone; who approved it and how personal data is handled; and what bflint
still reports on the plan, as open risks with a link to each rule.

A plan with findings still gets its brief, with the findings listed; a plan
that cannot be read gets a one-line brief saying why. The brief is a
document, not a check: it exits 0 whatever the findings, 2 when nothing
can be briefed. docs/brief.md shows the output, the JSON schema, and how
to post the brief on a pull request and keep it with the run.`

func briefFlags(fs *flag.FlagSet) {
	fs.String("format", "markdown", "output `FORMAT`: markdown or json")
	fs.String("output", "", "write the brief to `FILE` instead of stdout")
	fs.String("now", "", "the clock for the findings (`TIME`), as RFC 3339, or a date alone for noon UTC that day (default: the current time)")
	fs.String("config", "", "configuration `FILE` (default: .bflint.yaml found walking up to the project root)")
	fs.String("manifest", "", "dbt manifest.json `FILE` for plans that name none")
	fs.String("plan-format", "", "read plan files as `FORMAT`: auto, bflint or bqetl (see bflint --help)")
	fs.Bool("all-entries", false, "brief every bigquery-etl entry, not only those still to run (status Initiate)")
}

func briefCommand(args []string, stdout, stderr io.Writer) error {
	command := lookupSubcommand("brief")
	flags := flag.NewFlagSet("bflint brief", flag.ContinueOnError)
	flags.SetOutput(io.Discard)
	command.flags(flags)
	o := &lintOptions{now: time.Now()}
	paths, err := parseInterleaved(flags, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			writeCommandHelp(stdout, command)
			return &exitError{code: exitClean}
		}
		return commandUsageErrorf("brief", "brief: %v", err)
	}
	o.paths = paths
	if len(o.paths) == 0 {
		o.paths = []string{"."}
	}
	format := flagValue(flags, "format")
	if format != "markdown" && format != "json" {
		return commandUsageErrorf("brief", "brief --format %q: use markdown or json", format)
	}
	if text := flagValue(flags, "now"); text != "" {
		t, err := parseNow(text)
		if err != nil {
			return commandUsageErrorf("brief", "--now %q is not an RFC 3339 time such as 2026-11-30T09:00:00Z, or a date such as 2026-11-30", text)
		}
		o.now = t
	}
	o.output = flagValue(flags, "output")
	o.configPath, o.manifest, o.planFormat = flagValue(flags, "config"), flagValue(flags, "manifest"), flagValue(flags, "plan-format")
	o.formats = []formatTarget{{format: format}}
	root, err := load.ProjectRoot(o.paths[0])
	if err != nil {
		return inputErrorf("%v", err)
	}
	ls, err := openLint(o, root)
	if err != nil {
		return err
	}
	units, res := ls.lint()
	doc := brief.Build(res, units, brief.Options{Now: o.now, ToolVersion: version(), AllEntries: flagValue(flags, "all-entries") == "true"})
	if len(doc.Briefs) == 0 {
		if res.Inputs.Entries > 0 {
			return inputErrorf("no bigquery-etl entry under %s is still to run (status Initiate): the %s read are Complete or Cancelled; --all-entries briefs them too", strings.Join(o.paths, " "), reporters.Plural(res.Inputs.Entries, "entry"))
		}
		return inputErrorf("no backfill plan under %s: a brief is written for plans (*.backfill.yaml, a YAML file with a bflint: key, or a bigquery-etl backfill.yaml); SQL files alone have none", strings.Join(o.paths, " "))
	}
	if len(res.Errors) > 0 {
		return &exitError{code: exitInternal, msg: "a rule crashed while the plans were linted, so the open risks would be incomplete; no brief was written. Please report this as a bflint bug."}
	}
	write := func(w io.Writer) error {
		bw := bufio.NewWriter(w)
		var err error
		if format == "json" {
			err = brief.WriteJSON(bw, doc)
		} else {
			err = brief.WriteMarkdown(bw, doc)
		}
		if err != nil {
			return err
		}
		return bw.Flush()
	}
	if w, ok := standardStream(o.output, stdout, stderr); ok {
		if err := write(w); err != nil {
			return internalErrorf("writing the brief: %v", err)
		}
		return nil
	}
	if source.WasRead(o.output) {
		return usageErrorf("--output %s would overwrite %s, a file this run reads: name another file for the brief", o.output, o.output)
	}
	if err := outfile.WriteFunc(o.output, 0o644, write); err != nil {
		return inputErrorf("writing the brief to %s: %v", o.output, err)
	}
	return nil
}
