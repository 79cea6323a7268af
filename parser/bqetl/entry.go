// Package bqetl reads the backfill entries of bigquery-etl repositories (a
// backfill.yaml beside a table's metadata.yaml, run by "bqetl backfill")
// into bflint plans. Every value keeps its position in the file the user
// wrote, so findings point at the entry's line.
package bqetl

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/bflint/bflint/parser/plan"
	"github.com/bflint/bflint/parser/source"
	"github.com/bflint/bflint/parser/yamlx"
	"go.yaml.in/yaml/v3"
)

// FileName is the name bqetl gives a table's backfill entries.
const FileName = "backfill.yaml"

// MetadataName is the table's metadata file, which sits beside it.
const MetadataName = "metadata.yaml"

// Entry is one backfill entry, as bqetl's Backfill class reads it: the key
// of the file's top-level mapping is the entry date, the day the backfill
// was created and starts to run.
type Entry struct {
	yamlx.Field
	Date                               plan.Date        `yaml:"-"`
	StartDate                          plan.Date        `yaml:"start_date"`
	EndDate                            plan.Date        `yaml:"end_date"`
	ExcludedDates                      Dates            `yaml:"excluded_dates"`
	Reason                             yamlx.String     `yaml:"reason"`
	Watchers                           yamlx.StringList `yaml:"watchers"`
	Status                             yamlx.String     `yaml:"status"`
	CustomQueryPath                    yamlx.String     `yaml:"custom_query_path"`
	ShredderMitigation                 yamlx.Bool       `yaml:"shredder_mitigation"`
	ReinitializeTable                  yamlx.Bool       `yaml:"reinitialize_table"`
	ReinitializeSamplingBatchSize      yamlx.Int        `yaml:"reinitialize_sampling_batch_size"`
	OverrideRetentionLimit             yamlx.Bool       `yaml:"override_retention_limit"`
	OverrideDependsOnPastEndDate       yamlx.Bool       `yaml:"override_depends_on_past_end_date"`
	OverrideDependsOnPastNullPartition yamlx.Bool       `yaml:"override_depends_on_past_null_partition"`
	IgnoreDatePartitionOffset          yamlx.Bool       `yaml:"ignore_date_partition_offset"`
	BillingProject                     yamlx.String     `yaml:"billing_project"`
	QueryScriptEntrypoint              yamlx.String     `yaml:"query_script_entrypoint"`
	QueryScriptDateArg                 yamlx.String     `yaml:"query_script_date_arg"`
	QueryScriptArgs                    yamlx.StringList `yaml:"query_script_args"`
	QueryScriptDryRunArg               yamlx.String     `yaml:"query_script_dry_run_arg"`
}

// Dates is a list of dates, such as excluded_dates.
type Dates struct {
	yamlx.Field
	Items []plan.Date
}

// UnmarshalYAMLX reads a sequence of date scalars.
func (ds *Dates) UnmarshalYAMLX(dec *yamlx.Decoder, path string, n *yaml.Node) {
	if n.Kind != yaml.SequenceNode {
		dec.Errorf(n, "%s must be a list of dates", path)
		return
	}
	for i, item := range n.Content {
		var d plan.Date
		d.Field = yamlx.Field{Key: dec.File.LineCol(item.Line, item.Column), Value: dec.File.LineCol(item.Line, item.Column), Set: true}
		d.UnmarshalYAMLX(dec, fmt.Sprintf("%s[%d]", path, i), item)
		ds.Items = append(ds.Items, d)
	}
}

// statuses are the values bqetl accepts, by their upper-case form, as it
// compares them.
var statuses = map[string]bool{"INITIATE": true, "COMPLETE": true, "CANCELLED": true}

// defaultReason and defaultWatcher are what "bqetl backfill create"
// writes for a person to replace (bigquery_etl/backfill/parse.py).
const (
	defaultReason  = "Please provide a reason for the backfill and links to any related bugzilla or jira tickets"
	defaultWatcher = "nobody@mozilla.com"
)

// IsPlaceholder reports whether a value is one left for a person to
// write: bqetl's default reason, or a TODO marker such as bflint init
// writes.
func IsPlaceholder(v string) bool {
	return strings.TrimSpace(v) == defaultReason || plan.IsPlaceholder(v)
}

// drafting is what bqetl called Initiate before initiateSince (bigquery-etl
// commit 027eb69562): an entry dated earlier was written for that bqetl.
const drafting = "Drafting"

var initiateSince = time.Date(2024, 3, 5, 0, 0, 0, 0, time.UTC)

// File is a backfill.yaml read: its entries, newest first as bqetl writes
// them, and the defects of the file (BF001).
type File struct {
	Source   *source.File
	Entries  []*Entry
	Problems []yamlx.Problem
}

// ReadFile reads a backfill.yaml. It never fails: what cannot be read is a
// problem of the file, and the entries that could be read are kept.
func ReadFile(f *source.File) *File {
	out := &File{Source: f}
	root, problems := yamlx.Parse(f)
	out.Problems = problems
	if root == nil {
		return out
	}
	dec := &yamlx.Decoder{File: f, RootName: "the backfill entry"}
	seen := map[string]int{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			// A mapping or list as a key (? [a, b]) has no date to name
			// the entry by: one problem, at the key, for all of it.
			dec.Errorf(k, "an entry's key must be its date (2026-01-31), not %s", yamlx.KindName(k))
			continue
		}
		at := f.LineCol(k.Line, k.Column)
		e := &Entry{Field: yamlx.Field{Key: at, Value: f.LineCol(v.Line, v.Column), Set: true}}
		e.Date.Field = e.Field
		e.Date.UnmarshalYAMLX(dec, "the entry date", k)
		if first, dup := seen[k.Value]; dup {
			dec.Errorf(k, "a second entry for %s (the first is on line %d): bqetl refuses the file", k.Value, first)
			continue
		}
		seen[k.Value] = k.Line
		if v.Kind != yaml.MappingNode {
			dec.Errorf(v, "the entry of %s must be a mapping of start_date, end_date, reason, watchers and status", k.Value)
			continue
		}
		dec.Decode(v, "", e)
		if dec.Stopped() {
			break
		}
		out.Entries = append(out.Entries, e)
	}
	out.Problems = append(out.Problems, dec.Problems...)
	for _, e := range out.Entries {
		out.Problems = append(out.Problems, e.check()...)
	}
	sort.SliceStable(out.Problems, func(i, j int) bool { return out.Problems[i].Pos < out.Problems[j].Pos })
	return out
}

// check finds what bqetl's own validation refuses in an entry.
func (e *Entry) check() []yamlx.Problem {
	var out []yamlx.Problem
	add := func(at yamlx.Field, format string, args ...any) {
		pos := at.At()
		if !pos.IsValid() {
			pos = e.Key
		}
		out = append(out, yamlx.Problem{Pos: pos, Message: fmt.Sprintf(format, args...)})
	}
	for _, req := range []struct {
		name string
		set  bool
	}{{"start_date", e.StartDate.Set}, {"end_date", e.EndDate.Set}, {"reason", e.Reason.Set}, {"watchers", e.Watchers.Set}, {"status", e.Status.Set}} {
		if !req.set {
			add(e.Field, "the entry of %s lacks %s, which bqetl requires", e.Date.Raw, req.name)
		}
	}
	if IsPlaceholder(e.Reason.V) {
		add(e.Reason.Field, "the reason is still a placeholder: bqetl refuses the entry, and its reviewers and watchers learn nothing of what is corrected\nhelp: say what was wrong, since when, which change caused it, and link the bug")
	}
	for _, w := range e.Watchers.Items {
		if IsPlaceholder(w.V) || w.V == defaultWatcher {
			add(w.Field, "watcher %q is a placeholder: bqetl refuses the entry, and nobody hears how the backfill went\nhelp: name the people to tell, usually the table's owners", w.V)
		}
	}
	if e.Status.Set && !statuses[strings.ToUpper(e.Status.V)] {
		switch {
		case !strings.EqualFold(e.Status.V, drafting):
			add(e.Status.Field, "status %q is none of Initiate, Complete, Cancelled", e.Status.V)
		case !e.Date.Valid() || !e.Date.T.Before(initiateSince):
			add(e.Status.Field, "status %q is none of Initiate, Complete, Cancelled: bqetl renamed Drafting to Initiate on 2024-03-05", e.Status.V)
		}
	}
	if e.StartDate.Valid() && e.EndDate.Valid() && e.StartDate.T.After(e.EndDate.T) {
		add(e.StartDate.Field, "start_date %s is after end_date %s", e.StartDate.Raw, e.EndDate.Raw)
	}
	if e.EndDate.Valid() && e.Date.Valid() && e.EndDate.T.After(e.Date.T) {
		add(e.EndDate.Field, "end_date %s is after the entry date %s: bqetl refuses a range that ends after the day it starts", e.EndDate.Raw, e.Date.Raw)
	}
	for _, d := range e.ExcludedDates.Items {
		if d.Valid() && e.StartDate.Valid() && e.EndDate.Valid() && !(d.T.After(e.StartDate.T) && d.T.Before(e.EndDate.T)) {
			add(d.Field, "excluded date %s is not strictly between start_date and end_date", d.Raw)
		}
	}
	return out
}

// Cancelled reports whether the entry was abandoned: it never ran.
func (e *Entry) Cancelled() bool { return strings.EqualFold(e.Status.V, "Cancelled") }

// Corrects reports whether the entry's reason says it corrects rows the
// table already holds (a bug fixed, duplicates removed, missing data
// filled, a logic change), as opposed to filling a new table or a new
// column, which leaves the rows other tables already read from it as
// they were. It reads words, so it errs towards false: a reason that
// names neither kind of change is no correction.
func (e *Entry) Corrects() bool {
	if IsPlaceholder(e.Reason.V) {
		return false
	}
	reason := strings.ToLower(e.Reason.V)
	if plainCorrection.MatchString(reason) {
		return true
	}
	return !newData.MatchString(reason) && correction.MatchString(reason)
}

var (
	// newData are the words of a reason for a first fill of a table or
	// of a field (a schema change reprocessed fills the columns it
	// added); a field is also named by itself, as in "install_source
	// missing period" (a column added after the dates it fills).
	newData = regexp.MustCompile(`initial|new table|newly added|new (field|column)s?|populate the new|add new|missing field|schema change|\b[a-z][a-z0-9]*(_[a-z0-9]+)+ (values? )?(is |are |was |were )?missing\b`)
	// plainCorrection are the words of a reason for rows that were
	// wrong, whatever else the entry fills: "fix some known issues and
	// populate the new field" still corrects rows other tables read.
	plainCorrection = regexp.MustCompile(`\bfix|\bbug\b|incorrect|\bwrong\b|duplicat|inflated|corrupt|erroneous|\bcorrected\b|nonsensical|\berrors? (in|caus)|\bcaused\b.*\bto (be|show)\b|(logic|query) (change|update)|\brevert|\brepopulate|\bredo\b`)
	// correction are the words of a reason for rows that were wrong or
	// absent, unless the reason is also a first fill: a reason naming
	// a new field as missing fills it.
	correction = regexp.MustCompile(`\bmissing\b|recompute|reprocess|broken`)
)

// Settled reports whether the entry is Complete or Cancelled: its run, if
// any, is history, done under the metadata.yaml of its day, which may
// differ from the one bflint reads (a partition expiry or an offset added
// since). The checks of what a run will do judge only entries not settled.
func (e *Entry) Settled() bool {
	return e.Cancelled() || strings.EqualFold(e.Status.V, "Complete")
}
