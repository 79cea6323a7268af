package sets

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"golang.org/x/tools/go/analysis"

	"github.com/bflint/bflint/parser/plan"
	"github.com/bflint/bflint/rules"
)

// OverlappingPlans reports two plans of one run that correct the same
// partitions of one target with nothing ordering them.
var OverlappingPlans = &rules.Rule{
	Code:     "BF807",
	Name:     "overlapping-plans",
	Severity: rules.SeverityError,
	Scope:    rules.ScopePlan,
	Doc: rules.Doc{
		Title: "Two plans correct overlapping ranges of the same target and after does not order them",
		Why: "Two plans over the same partitions of one target, run at the same time, each stage, validate and publish their own recompute: " +
			"whichever publishes last decides what consumers see, each rollback copy may already hold the other's output, " +
			"and neither validation describes the published result. Ranges are compared as instants, each in its plan's grain and timezone, " +
			"and targets by the manifest's node when it knows both, else by relation name. " +
			"Ordering the plans with after (directly or through other plans) makes the second a deliberate correction of the first; " +
			"splitting the range makes them independent. Plans that overlap so are reported together, once, at the range of the plan with the largest id that the run lints, " +
			"naming the others (the first five, then a count) as related locations; a pre-commit run over one of them reports it there.",
		Bad: rules.Example{Lang: "yaml", Text: `# refunds.backfill.yaml
id: bf20260826_a
target: analytics.fct_orders
range: {start: 2026-01-14, end: 2026-06-30}
---
# currency.backfill.yaml
id: bf20260902_a
target: analytics.fct_orders
range: {start: 2026-05-01, end: 2026-08-31}   # May and June are corrected twice, in no set order
`},
		Good: rules.Example{Lang: "yaml", Text: `# refunds.backfill.yaml
id: bf20260826_a
target: analytics.fct_orders
range: {start: 2026-01-14, end: 2026-06-30}
---
# currency.backfill.yaml
id: bf20260902_a
target: analytics.fct_orders
after: [bf20260826_a]
range: {start: 2026-05-01, end: 2026-08-31}
`},
	},
	Run: func(pass *rules.Pass) error {
		p := pass.Plan
		if !hasID(p) {
			return nil
		}
		group := overlapsOf(pass).groups[p]
		if len(group) < 2 || reporter(pass, group) != p {
			return nil
		}
		related := make([]analysis.RelatedInformation, 0, min(len(group)-1, maxNamed))
		for _, q := range group {
			if q != p && len(related) < maxNamed {
				related = append(related, analysis.RelatedInformation{Pos: q.Range.Field.At(), Message: fmt.Sprintf("the range of plan %q", q.ID.V)})
			}
		}
		msg := overlapMessage(p, group)
		pass.Report(rules.Diagnostic{Diagnostic: analysis.Diagnostic{Pos: pass.SectionOr(p.Range.Field), Message: msg, Related: related}})
		return nil
	},
}

// maxNamed bounds the plans one finding names; the rest are counted.
const maxNamed = 5

// overlapMessage says what a group of plans overlapping with nothing
// ordering them risks: for two plans, each named with its range; for more,
// the first few and a count.
func overlapMessage(p *plan.Plan, group []*plan.Plan) string {
	if len(group) == 2 {
		q := group[0]
		if q == p {
			q = group[1]
		}
		return fmt.Sprintf("plan %q corrects %q over %s, overlapping plan %s, which corrects %q over %s, and after orders neither before the other: both may publish the same partitions and whichever lands last decides what consumers see\nhelp: order them with after, or split the range",
			p.ID.V, p.Target.V, rangeText(p), name(q), q.Target.V, rangeText(q))
	}
	var named []string
	for _, q := range group {
		if q != p && len(named) < maxNamed {
			named = append(named, fmt.Sprintf("%s over %s", name(q), rangeText(q)))
		}
	}
	list := strings.Join(named, ", ")
	if more := len(group) - 1 - len(named); more > 0 {
		list += fmt.Sprintf(", and %d more", more)
	}
	return fmt.Sprintf("plan %q corrects %q over %s, and %d other plans correct ranges of it that overlap this one or each other with nothing in after ordering them: %s; several may publish the same partitions and whichever lands last decides what consumers see\nhelp: order them with after, or split the ranges",
		p.ID.V, p.Target.V, rangeText(p), len(group)-1, list)
}

// reporter is the plan of a group that reports it: the last, in the order
// of leads, that the run lints, so that a pre-commit run over one file of
// the group reports it there, and a run over all of them once.
func reporter(pass *rules.Pass, group []*plan.Plan) *plan.Plan {
	for i := len(group) - 1; i >= 0; i-- {
		if pass.Linted(group[i]) {
			return group[i]
		}
	}
	return nil
}

// overlaps groups the plans of the run that correct overlapping ranges of
// one target with nothing in after ordering them: two plans are joined
// when they overlap so, and a group is what such joins connect. Each
// group is sorted by leads.
type overlaps struct {
	groups map[*plan.Plan][]*plan.Plan
}

type overlapsKey struct{ setKey }

func overlapsOf(pass *rules.Pass) *overlaps {
	set := setOf(pass)
	return pass.Shared(overlapsKey{setKey{pass.Unit.Lineage()}}, func() any {
		run := orderOf(pass).run
		parent := map[*plan.Plan]*plan.Plan{}
		find := func(p *plan.Plan) *plan.Plan {
			for {
				up, ok := parent[p]
				if !ok || up == p {
					return p
				}
				if upper, ok := parent[up]; ok {
					parent[p] = upper
				}
				p = up
			}
		}
		// Within each group of plans that may share a target, sorted by
		// the start of their ranges, a plan overlaps exactly the plans
		// after it that start before it ends; pairs already joined are not
		// compared again, so a run of plans that all overlap costs little
		// more than one pass.
		for _, bucket := range set.byName {
			items := make([]*plan.Plan, 0, len(bucket))
			for _, p := range bucket {
				if _, ok := set.spans[p]; ok {
					items = append(items, p)
				}
			}
			slices.SortFunc(items, func(a, b *plan.Plan) int { return set.spans[a].start.Compare(set.spans[b].start) })
			for i, p := range items {
				end := set.spans[p].end
				for _, q := range items[i+1:] {
					if !set.spans[q].start.Before(end) {
						break
					}
					a, b := find(p), find(q)
					if a == b {
						continue
					}
					pi, qi := run.indexOf(p), run.indexOf(q)
					if !set.targets[p].same(set.targets[q]) || run.waitsFor(pi, qi) || run.waitsFor(qi, pi) {
						continue
					}
					parent[a], parent[b] = b, b
				}
			}
		}
		o := &overlaps{groups: map[*plan.Plan][]*plan.Plan{}}
		byRoot := map[*plan.Plan][]*plan.Plan{}
		for p := range parent {
			r := find(p)
			byRoot[r] = append(byRoot[r], p)
		}
		for _, g := range byRoot {
			slices.SortFunc(g, compare)
			for _, p := range g {
				o.groups[p] = g
			}
		}
		return o
	}).(*overlaps)
}

// span returns the plan's range as instants, start inclusive and end
// exclusive, reading its partition values in its own timezone; false when
// the range is not usable.
func span(p *plan.Plan) (start, end time.Time, ok bool) {
	first, last, ok := p.Bounds()
	if !ok {
		return time.Time{}, time.Time{}, false
	}
	loc := p.Location()
	at := func(t time.Time) time.Time {
		return time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), 0, 0, loc)
	}
	return at(first), p.Grain().Add(at(last), 1), true
}

// rangeText is the range as the plan writes it, with its zone when that is
// not UTC, since plans in different zones cover different instants.
func rangeText(p *plan.Plan) string {
	s := fmt.Sprintf("%s..%s", p.Range.Start.Raw, p.Range.End.Raw)
	if loc := p.Location(); loc.String() != "UTC" {
		s += " " + loc.String()
	}
	return s
}
