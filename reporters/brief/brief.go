// Package brief turns linted plans into the document their readers need:
// the consumers of the corrected data, the reviewer of the pull request,
// and whoever asks a year later what moved and why. It says, in plain
// words and with the plan's own numbers, which range is corrected and what
// consumers will see change, what moves downstream and in which order, how
// the run is made safe and how it is undone, who approved it, and which
// findings bflint still reports, as open risks.
//
// The same Document renders as Markdown (WriteMarkdown) and as versioned
// JSON (WriteJSON, schema.json). Every list is bounded (see the Max
// constants), so a brief stays small whatever the size of the downstream.
package brief

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/bflint/bflint/parser/bqetl"
	"github.com/bflint/bflint/parser/plan"
	"github.com/bflint/bflint/parser/sqlname"
	"github.com/bflint/bflint/reporters"
	"github.com/bflint/bflint/rules"
)

// Version is the document version written in "version"; bumped only when
// a field is removed or changes meaning.
const Version = 1

// Bounds on what one brief lists; the counts always cover everything.
const (
	// MaxListed is how many downstream nodes, exposures or snapshots a
	// brief names before it counts the rest.
	MaxListed = 50
	// MaxRisks is how many open findings a brief lists before it counts
	// the rest.
	MaxRisks = 30
	// MaxViews is how many views passed through a brief names.
	MaxViews = 20
)

// Document is what `bflint brief` writes: one brief per plan, in the order
// the plans run (a plan after those it names in after).
type Document struct {
	Version int      `json:"version"`
	Tool    Tool     `json:"tool"`
	AsOf    string   `json:"as_of"` // the lint clock (--now), RFC 3339
	Briefs  []*Brief `json:"briefs"`
}

// Tool names the bflint that wrote the document.
type Tool struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// Brief is one plan in plain words. A plan that could not be read has
// only Plan, Readable (false) and Problem: never a half document that
// reads as complete.
type Brief struct {
	Plan     string `json:"plan"` // the plan file, relative to the project root
	Line     int    `json:"line"` // where the plan (or the bqetl entry) starts
	Format   string `json:"format"`
	Readable bool   `json:"readable"`
	Problem  string `json:"problem,omitempty"`

	ID     string `json:"id,omitempty"`
	Target string `json:"target,omitempty"`
	// Relation is the warehouse relation of a target named as a dbt node,
	// which is what consumers query; "" when the plan names the relation
	// itself or the lineage does not know it.
	Relation string   `json:"relation,omitempty"`
	Headline string   `json:"headline,omitempty"`
	Owner    string   `json:"owner,omitempty"`
	Reason   string   `json:"reason,omitempty"`
	Status   string   `json:"status,omitempty"` // a bqetl entry's status
	After    []string `json:"after,omitempty"`

	Range    *Range    `json:"range"`
	Moves    *Moves    `json:"moves,omitempty"`
	Safety   *Safety   `json:"safety,omitempty"`
	Undo     *Undo     `json:"undo"`
	Approval *Approval `json:"approval"`
	Data     *Data     `json:"data"`

	// Risks are the findings bflint reports on the plan and its SQL.
	Risks        []Risk `json:"risks"`
	RisksOmitted int    `json:"risks_omitted,omitempty"`
}

// Range is which partitions are recomputed.
type Range struct {
	Start           string   `json:"start"`
	End             string   `json:"end"`
	Grain           string   `json:"grain"`
	Timezone        string   `json:"timezone,omitempty"`
	PartitionColumn string   `json:"partition_column,omitempty"`
	Partitions      int      `json:"partitions,omitempty"` // 0 when the ends are not usable
	Excluded        []string `json:"excluded,omitempty"`   // a bqetl entry's excluded_dates
	// EntryDates are a bqetl entry's own dates when the table's
	// date_partition_offset moves the partitions they write by
	// OffsetDays; Start and End are the partitions.
	EntryDates   *Period   `json:"entry_dates,omitempty"`
	OffsetDays   int       `json:"offset_days,omitempty"`
	PipelineOwns int       `json:"pipeline_owns,omitempty"`
	Boundary     *Boundary `json:"boundary"`
}

// Boundary is the evidence for where the range starts.
type Boundary struct {
	Candidate    string `json:"candidate,omitempty"`
	IntroducedBy string `json:"introduced_by,omitempty"`
	Confirmed    string `json:"confirmed,omitempty"`
	Evidence     string `json:"evidence,omitempty"`
}

// Approval is who authorised the restatement.
type Approval struct {
	Required   bool   `json:"required"`
	ApprovedBy string `json:"approved_by,omitempty"`
}

// Data is how personal data is handled.
type Data struct {
	ContainsPII bool   `json:"contains_pii"`
	Suppression string `json:"suppression,omitempty"`
	Grants      string `json:"grants,omitempty"`
}

// Risk is one finding bflint still reports on the plan.
type Risk struct {
	Code     string `json:"code"`
	Name     string `json:"name"`
	Severity string `json:"severity"`
	URL      string `json:"url"`
	File     string `json:"file"`
	Line     int    `json:"line"`
	Column   int    `json:"column"`
	Message  string `json:"message"`
	Help     string `json:"help,omitempty"`
}

// Options fill what the lint result does not know.
type Options struct {
	Now         time.Time
	ToolVersion string
	// AllEntries briefs every bigquery-etl entry; otherwise only those
	// still to run (status Initiate), since a backfill.yaml keeps every
	// entry the table ever had.
	AllEntries bool
}

// Build writes the brief of every linted plan of units, with the findings
// of res. Context plans (read only for the plan set) get no brief but
// count as other plans of the run.
func Build(res *rules.Result, units []*rules.Unit, opts Options) *Document {
	doc := &Document{Version: Version, Tool: Tool{Name: "bflint", Version: opts.ToolVersion}, AsOf: opts.Now.UTC().Format(time.RFC3339), Briefs: []*Brief{}}
	var all []*plan.Plan
	for _, u := range units {
		if u.Plan != nil && u.Plan.Readable {
			all = append(all, u.Plan)
		}
	}
	for _, u := range runOrder(units, opts.AllEntries) {
		doc.Briefs = append(doc.Briefs, build(res, u, all))
	}
	return doc
}

// runOrder is the linted plans to brief, each after the plans its after
// names, otherwise in file and position order.
func runOrder(units []*rules.Unit, allEntries bool) []*rules.Unit {
	var linted []*rules.Unit
	for _, u := range units {
		if u.Plan == nil || u.Context {
			continue
		}
		if e := bqetl.Of(u.Plan); e != nil && !allEntries && e.Entry.Settled() {
			continue
		}
		linted = append(linted, u)
	}
	slices.SortStableFunc(linted, func(a, b *rules.Unit) int {
		if c := strings.Compare(a.File.Name, b.File.Name); c != 0 {
			return c
		}
		return int(a.Plan.Key) - int(b.Plan.Key)
	})
	byID := map[string]int{}
	for i, u := range linted {
		if u.Plan.ID.Set {
			byID[u.Plan.ID.V] = i
		}
	}
	placed := make([]bool, len(linted))
	visiting := make([]bool, len(linted))
	var out []*rules.Unit
	var place func(i int)
	place = func(i int) {
		if placed[i] || visiting[i] {
			return // a cycle in after is BF804's; the file order stands
		}
		visiting[i] = true
		for _, id := range linted[i].Plan.After.Values() {
			if j, ok := byID[id]; ok {
				place(j)
			}
		}
		visiting[i] = false
		placed[i] = true
		out = append(out, linted[i])
	}
	for i := range linted {
		place(i)
	}
	return out
}

func build(res *rules.Result, u *rules.Unit, all []*plan.Plan) *Brief {
	p := u.Plan
	b := &Brief{Plan: u.File.Name, Line: 1, Format: "bflint", Risks: []Risk{}}
	if p.Key.IsValid() {
		b.Line = res.Fset.Position(p.Key).Line
	}
	entry := bqetl.Of(p)
	if p.Origin != nil {
		b.Format = p.Origin.Format
	}
	if problem := unreadable(res, u); problem != "" {
		b.Problem = problem
		return b
	}
	b.Readable = true
	b.ID, b.Target = p.ID.V, p.Target.V
	b.Owner, b.Reason = answer(p.Owner.V), oneLine(answer(p.Reason.V))
	b.After = p.After.Values()
	b.Range = rangeOf(p, entry)
	b.Risks, b.RisksOmitted = risksOf(res, p)
	if entry != nil {
		b.Owner = strings.Join(entry.Entry.Watchers.Values(), ", ")
		b.Status = entry.Entry.Status.V
		b.Moves = entryMoves(u, entry, all)
		b.Safety = entrySafety(entry)
		b.Undo = entryUndo(entry)
	} else {
		b.Relation = relationOf(u, p)
		b.Moves = moves(u, all, cmp.Or(b.Relation, b.Target))
		b.Safety = safety(p)
		markChecks(res, p, b.Safety)
		b.Undo = undo(p)
		b.Approval = approval(p)
		b.Data = data(p)
	}
	b.Headline = headline(b, p, entry)
	return b
}

// unreadable says why no brief can be written for the unit's plan, "" when
// one can.
func unreadable(res *rules.Result, u *rules.Unit) string {
	if u.ReadError != nil {
		return "bflint could not read it: " + u.ReadError.Error()
	}
	if u.Plan.Readable {
		return ""
	}
	for _, f := range res.Findings {
		if f.Rule.Code == "BF001" && slices.Contains(f.Plans, u.Plan) {
			start, _, _ := reporters.Span(res.Fset, f)
			return fmt.Sprintf("it is not a plan bflint can read (line %d: %s)", start.Line, f.Message)
		}
	}
	return "it is not a plan bflint can read"
}

// rangeOf is the plan's range as written, nil when the plan has none.
func rangeOf(p *plan.Plan, entry *bqetl.Planned) *Range {
	r := p.Range
	if r == nil {
		return nil
	}
	out := &Range{Start: answer(r.Start.Raw), End: answer(r.End.Raw), Grain: string(p.Grain()), PartitionColumn: answer(r.PartitionColumn.V)}
	if entry == nil {
		// An invalid zone (BF001) is not stated: the rules fall back to
		// UTC for it, a reader must not.
		if !r.Timezone.Set || p.Location().String() == r.Timezone.V {
			out.Timezone = p.Location().String()
		}
		out.PipelineOwns = p.PipelineOwns()
	} else {
		for _, d := range entry.Entry.ExcludedDates.Items {
			out.Excluded = append(out.Excluded, d.Raw)
		}
		if days := entry.OffsetDays(); days != 0 {
			out.EntryDates, out.OffsetDays = &Period{Start: entry.Entry.StartDate.Raw, End: entry.Entry.EndDate.Raw}, days
		}
		if strings.EqualFold(out.PartitionColumn, "null") {
			out.PartitionColumn = "" // partitioned by ingestion time
		}
	}
	if n := p.Partitions(); n > 0 {
		out.Partitions = n - len(out.Excluded)
	}
	if bd := r.Boundary; bd != nil {
		out.Boundary = &Boundary{Candidate: answer(bd.Candidate.Raw), IntroducedBy: answer(bd.IntroducedBy.V), Confirmed: answer(bd.Confirmed.Raw), Evidence: answer(bd.Evidence.V)}
	}
	return out
}

// markChecks notes, on each validation check, the codes of the open
// findings on its pass criterion, so that a criterion bflint rejects is
// not shown as a criterion. Every finding counts, listed in the brief's
// risks or past their bound.
func markChecks(res *rules.Result, p *plan.Plan, s *Safety) {
	if p.Validation == nil {
		return
	}
	for i, c := range p.Validation.Checks {
		at := c.Pass.At()
		if !at.IsValid() {
			continue
		}
		line := res.Fset.Position(at).Line
		for _, f := range res.Findings {
			if f.Suppressed == nil && f.Rule.Code == "BF402" && f.File == p.File && slices.Contains(f.Plans, p) && res.Fset.Position(f.Pos).Line == line {
				s.Checks[i].Open = append(s.Checks[i].Open, f.Rule.Code)
			}
		}
	}
}

// risksOf lists the active findings reported on the plan, errors first.
func risksOf(res *rules.Result, p *plan.Plan) ([]Risk, int) {
	var found []rules.Finding
	for _, f := range res.Findings {
		if f.Suppressed == nil && slices.Contains(f.Plans, p) {
			found = append(found, f)
		}
	}
	slices.SortStableFunc(found, func(a, b rules.Finding) int {
		return int(reporters.EffectiveSeverity(b)) - int(reporters.EffectiveSeverity(a))
	})
	out := []Risk{}
	for _, f := range found[:min(len(found), MaxRisks)] {
		start, _, _ := reporters.Span(res.Fset, f)
		out = append(out, Risk{Code: f.Rule.Code, Name: f.Rule.Name, Severity: reporters.EffectiveSeverity(f).String(), URL: f.Rule.URL(),
			File: reporters.FileName(f.File), Line: start.Line, Column: start.Column, Message: f.Message, Help: f.Help})
	}
	return out, len(found) - len(out)
}

func approval(p *plan.Plan) *Approval {
	if p.Approval == nil {
		return nil
	}
	return &Approval{Required: p.Approval.Required.V, ApprovedBy: answer(p.Approval.ApprovedBy.V)}
}

func data(p *plan.Plan) *Data {
	if p.Data == nil {
		return nil
	}
	return &Data{ContainsPII: p.Data.ContainsPII.V, Suppression: answer(p.Data.Suppression.V), Grants: answer(p.Data.Grants.V)}
}

// relationOf is the warehouse relation of the plan's target when the plan
// names it as a dbt node and the manifest records where it is built.
func relationOf(u *rules.Unit, p *plan.Plan) string {
	l := lineageOf(u)
	id := l.resolve(p.Target.V)
	if id == "" {
		return ""
	}
	rel := sqlname.Parse(l.m.RelationName(l.node(id)))
	if len(rel.Parts) == 0 || rel.Matches(sqlname.Parse(p.Target.V)) {
		return ""
	}
	return rel.Name()
}

// answer is a plan value as the brief states it: "" for a placeholder
// still to be written (plan.IsPlaceholder), which the brief then says is
// not stated, never as if it were the answer.
func answer(v string) string {
	if plan.IsPlaceholder(v) {
		return ""
	}
	return v
}

// oneLine folds the line breaks of a YAML block scalar into spaces.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
