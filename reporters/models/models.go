// Package models writes the inventory of a run's dbt models (bflint
// models): for each, how it is built, what a re-run does and how a run
// chooses the partitions it computes, which is what a team reads before
// planning a backfill of it.
package models

import (
	"cmp"
	"fmt"
	"go/token"
	"slices"
	"strings"

	"github.com/bflint/bflint/parser/rangesem"
	"github.com/bflint/bflint/rules"
)

// Version is the version of the JSON document's shape; fields are added
// within a version, never renamed or removed.
const Version = 1

// Document is the inventory as the JSON format writes it.
type Document struct {
	Version int      `json:"version"`
	Models  []Row    `json:"models"`
	Summary Summary  `json:"summary"`
	Where   []string `json:"where,omitempty"`
}

// Row is one model.
type Row struct {
	Name         string    `json:"name"`
	File         string    `json:"file"`
	Line         int       `json:"line"`
	Kind         string    `json:"kind"`
	Materialized string    `json:"materialized"`
	Strategy     string    `json:"strategy"`
	UniqueKey    []string  `json:"unique_key"`
	Partition    Partition `json:"partition"`
	Rerun        string    `json:"rerun"`
	RerunReason  string    `json:"rerun_reason"`
	Range        string    `json:"range"`
	RangeReason  string    `json:"range_reason"`
	RangeAt      *Place    `json:"range_at"`
	Reads        []Read    `json:"reads"`
}

// Partition is the column a model is partitioned by and its grain; both
// are empty when its config names none.
type Partition struct {
	Column string `json:"column"`
	Grain  string `json:"grain"`
}

// Place is a file and line.
type Place struct {
	File string `json:"file"`
	Line int    `json:"line"`
}

// Read is a relation a model reads and the window of its partitions read
// for one partition of the model.
type Read struct {
	Relation string `json:"relation"`
	Window   string `json:"window"`
}

// Summary counts the rows.
type Summary struct {
	Models    int `json:"models"`
	ByRange   int `json:"by_range"`
	Clock     int `json:"clock"`
	Watermark int `json:"watermark"`
	Unknown   int `json:"unknown"`
	Append    int `json:"append"`
}

// Build turns a run's model inventory into rows, keeping those every
// filter matches.
func Build(res *rules.Result, where []Filter) Document {
	doc := Document{Version: Version, Models: []Row{}}
	var kept []rules.Model
	for _, m := range res.Models {
		r := row(res, m)
		if !matches(r, where) {
			continue
		}
		kept = append(kept, m)
		doc.Models = append(doc.Models, r)
	}
	c := rules.CountModels(kept)
	doc.Summary = Summary{Models: c.Models, ByRange: c.ByRange, Clock: c.Clock, Watermark: c.Watermark, Unknown: c.Unknown, Append: c.Append}
	for _, f := range where {
		doc.Where = append(doc.Where, f.String())
	}
	return doc
}

func row(res *rules.Result, m rules.Model) Row {
	f := m.File
	r := Row{
		File:        f.Source.Name,
		Line:        line(res, f, m.ConfigPos),
		Rerun:       string(m.Rerun),
		RerunReason: m.RerunWhy,
		Range:       string(m.Range.Kind),
		RangeReason: m.Range.Why,
		UniqueKey:   []string{},
		Reads:       []Read{},
	}
	self := ""
	if q := f.Bqetl; q != nil {
		r.Name, r.Kind, self = q.Table.Name(), "bqetl", q.Table.Name()
		r.Materialized, r.Strategy = "table", "replace"
		if q.DateParameter != "" {
			r.Materialized, r.Strategy = "incremental", "insert_overwrite"
		}
		if q.Appends.IsValid() {
			r.Strategy = "append"
		}
		r.Partition = Partition{Column: q.Partition, Grain: q.Grain}
	} else {
		c := f.Model.Config
		r.Name, r.Kind, self = f.Model.Name, "dbt", f.Model.Relation
		r.Materialized = cmp.Or(strings.ToLower(c.Materialized), "view")
		r.Strategy = strings.ToLower(c.IncrementalStrategy)
		r.UniqueKey = append(r.UniqueKey, c.UniqueKey...)
		r.Partition = Partition{Column: c.PartitionBy.Field, Grain: strings.ToLower(c.PartitionBy.Granularity)}
		if r.Materialized == "incremental" && r.Strategy == "" {
			r.Strategy = "default"
		}
		if r.Partition.Column != "" && r.Partition.Grain == "" {
			r.Partition.Grain = "day"
		}
	}
	if m.RangePos.IsValid() {
		r.RangeAt = &Place{File: f.Source.Name, Line: line(res, f, m.RangePos)}
	}
	for _, rd := range m.Reads {
		if name := rd.Relation.Name(); strings.EqualFold(name, r.Name) || self != "" && strings.EqualFold(name, self) {
			// Its own rows: what it holds is the range semantics' concern.
			continue
		}
		r.Reads = append(r.Reads, Read{Relation: rd.Relation.Name(), Window: rd.Window})
	}
	return r
}

// line is pos's line in f, 1 when pos is not in it.
func line(res *rules.Result, f *rules.SQLFile, pos token.Pos) int {
	// The file's text may be gone (a file with no finding is not
	// kept); its line table is in the file set.
	if p := res.Fset.Position(pos); pos.IsValid() && p.Line > 0 {
		return p.Line
	}
	return 1
}

// Filter keeps the rows whose field has one of the values (--where
// range=clock,watermark).
type Filter struct {
	Field  string
	Values []string
}

// Fields are the fields --where can name.
var Fields = []string{"name", "kind", "materialized", "strategy", "rerun", "range"}

// fieldValues are the values of the fields that take a fixed set, so
// that a misspelt one is an error rather than an empty list.
var fieldValues = map[string][]string{
	"kind":  {"dbt", "bqetl"},
	"rerun": {string(rules.RerunSafe), string(rules.RerunAppend), string(rules.RerunNonAtomic), string(rules.RerunWhole), string(rules.RerunUnknown)},
	"range": {string(rangesem.Parameter), string(rangesem.Whole), string(rangesem.Clock), string(rangesem.Watermark), string(rangesem.Unknown)},
}

// ParseFilter reads FIELD=VALUE[,VALUE...].
func ParseFilter(text string) (Filter, error) {
	field, values, ok := strings.Cut(text, "=")
	field = strings.TrimSpace(strings.ToLower(field))
	if !ok || values == "" {
		return Filter{}, fmt.Errorf("%q is not FIELD=VALUE (fields: %s)", text, strings.Join(Fields, ", "))
	}
	known := false
	for _, f := range Fields {
		known = known || f == field
	}
	if !known {
		return Filter{}, fmt.Errorf("%q names no field bflint models filters on (fields: %s)", field, strings.Join(Fields, ", "))
	}
	f := Filter{Field: field}
	for _, v := range strings.Split(values, ",") {
		v = strings.ToLower(strings.TrimSpace(v))
		if v == "" {
			continue
		}
		if known := fieldValues[field]; known != nil && !slices.Contains(known, v) {
			return Filter{}, fmt.Errorf("%s has no value %q (values: %s)", field, v, strings.Join(known, ", "))
		}
		f.Values = append(f.Values, v)
	}
	return f, nil
}

func (f Filter) String() string { return f.Field + "=" + strings.Join(f.Values, ",") }

func matches(r Row, where []Filter) bool {
	for _, f := range where {
		var v string
		switch f.Field {
		case "name":
			v = r.Name
		case "kind":
			v = r.Kind
		case "materialized":
			v = r.Materialized
		case "strategy":
			v = r.Strategy
		case "rerun":
			v = r.Rerun
		case "range":
			v = r.Range
		}
		found := false
		for _, want := range f.Values {
			found = found || strings.EqualFold(v, want)
		}
		if !found {
			return false
		}
	}
	return true
}
