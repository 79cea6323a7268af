package plan

import (
	"fmt"
	"regexp"
	"time"

	"github.com/bflint/bflint/parser/source"
	"github.com/bflint/bflint/parser/yamlx"
	"go.yaml.in/yaml/v3"
)

// FormatVersion is the plan format this parser reads.
const FormatVersion = 1

var idPattern = regexp.MustCompile(`^[a-z0-9_]+$`)

// Parse reads a plan file. It never fails: defects are recorded in
// Plan.Problems and the parts that could be read are kept.
func Parse(f *source.File) *Plan {
	p := &Plan{File: f}
	root, problems := yamlx.Parse(f)
	p.Problems = problems
	if root == nil {
		return p
	}
	p.Field = yamlx.Field{Key: f.LineCol(root.Line, root.Column), Value: f.LineCol(root.Line, root.Column), Set: true}
	if root.Kind == yaml.MappingNode && !yamlx.HasKnownKey(root, p) {
		// Another tool's YAML file given by name: one message says so,
		// where the checks of every missing section would bury it.
		p.problem(p.Field, "not a bflint plan: none of its top-level keys is a plan key (a plan starts with \"bflint: %d\", then id, target, range, ...), so nothing in it was checked; bflint lints a YAML file it is given as a plan, so pass only plans (*.backfill.yaml) and SQL files", FormatVersion)
		return p
	}
	p.Readable = true
	dec := &yamlx.Decoder{File: f, RootName: "the plan"}
	dec.Decode(root, "", p)
	p.Problems = append(p.Problems, dec.Problems...)
	p.OmittedProblems = dec.Omitted
	p.checkRequired()
	p.checkPlaceholders()
	return p
}

func (p *Plan) problem(at yamlx.Field, format string, args ...any) {
	pos := at.At()
	if !pos.IsValid() {
		pos = p.Field.Key
	}
	p.Problems = append(p.Problems, yamlx.Problem{Pos: pos, Message: fmt.Sprintf(format, args...)})
}

func (p *Plan) checkRequired() {
	switch {
	case !p.Version.Set:
		p.problem(p.Field, "missing required key \"bflint\": the first line of a plan is \"bflint: %d\", the format version", FormatVersion)
	case p.Version.V != FormatVersion:
		p.problem(p.Version.Field, "bflint: %d is not a plan format this version of bflint reads (it reads %d)", p.Version.V, FormatVersion)
	}
	switch {
	case !p.ID.Set:
		p.problem(p.Field, "missing required key \"id\": the run id names staging relations so two runs cannot collide")
	case !idPattern.MatchString(p.ID.V):
		p.problem(p.ID.Field, "id %q must use only lower-case letters, digits and underscores, because it is part of staging relation names", p.ID.V)
	}
	if !p.Target.Set {
		p.problem(p.Field, "missing required key \"target\": name the dataset this plan corrects")
	}
	if r := p.Range; r != nil && r.Timezone.Set {
		if _, err := time.LoadLocation(r.Timezone.V); err != nil || r.Timezone.V == "Local" {
			p.problem(r.Timezone.Field, "range.timezone %q is not an IANA time zone name such as UTC or Europe/Berlin", r.Timezone.V)
		}
	}
	if r := p.Range; r != nil && r.PipelineOwns.Set && r.PipelineOwns.V < 1 {
		p.problem(r.PipelineOwns.Field, "range.pipeline_owns must be at least 1: the current partition always belongs to the scheduled pipeline")
	}
	if c := p.Compute; c != nil && c.MaxConcurrency.Set && c.MaxConcurrency.V < 1 {
		p.problem(c.MaxConcurrency.Field, "compute.max_concurrency must be at least 1")
	}
}

// Grain is the plan's partition grain (day unless set).
func (p *Plan) Grain() Grain {
	if p.Range != nil && p.Range.Grain.Set {
		return Grain(p.Range.Grain.V)
	}
	return Day
}

// Location is the plan's partition timezone (UTC unless set); an invalid
// name, already a problem of the file, also falls back to UTC.
func (p *Plan) Location() *time.Location {
	if p.Range != nil && p.Range.Timezone.Set {
		if loc, err := time.LoadLocation(p.Range.Timezone.V); err == nil {
			return loc
		}
	}
	return time.UTC
}

// PipelineOwns is how many of the newest partitions the scheduled pipeline
// still writes (1 unless set).
func (p *Plan) PipelineOwns() int {
	if p.Range != nil && p.Range.PipelineOwns.Set && p.Range.PipelineOwns.V >= 1 {
		return p.Range.PipelineOwns.V
	}
	return 1
}

// Bounds returns the first and last partition of the range when the range is
// usable for comparisons: both ends present, fitting the grain, in order.
func (p *Plan) Bounds() (start, end time.Time, ok bool) {
	r := p.Range
	if r == nil || !r.Start.Valid() || !r.End.Valid() {
		return time.Time{}, time.Time{}, false
	}
	g := p.Grain()
	if g.Fit(r.Start) != nil || g.Fit(r.End) != nil || r.Start.T.After(r.End.T) {
		return time.Time{}, time.Time{}, false
	}
	return r.Start.T, r.End.T, true
}

// Bounds returns the first and last partition of a control period when
// it is well formed at grain g; a malformed one is BF105's finding.
func (c *Period) Bounds(g Grain) (start, end time.Time, ok bool) {
	if c == nil || !c.Start.Valid() || !c.End.Valid() || g.Fit(c.Start) != nil || g.Fit(c.End) != nil || c.Start.T.After(c.End.T) {
		return time.Time{}, time.Time{}, false
	}
	return c.Start.T, c.End.T, true
}

// Partitions is how many partitions the range holds, both ends included;
// 0 when Bounds cannot tell.
func (p *Plan) Partitions() int {
	start, end, ok := p.Bounds()
	if !ok {
		return 0
	}
	n := 0
	for t, g := start, p.Grain(); !t.After(end); t = g.Add(t, 1) {
		n++
	}
	return n
}
