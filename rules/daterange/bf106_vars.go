package daterange

import (
	"sort"
	"time"

	"github.com/bflint/bflint/parser/plan"
	"github.com/bflint/bflint/parser/runcmd"
)

// dbtVars compares the dates a dbt command passes in --vars with the
// range, for the vars the target model's file reads with var(): exactly
// two such dates are the bounds, the earlier the start. Which end the
// model's filter includes is not read, so the end may be range.end or the
// partition after it. Silent when the run read no file of the model, or
// it reads fewer or more than two dates.
func (c *runCheck) dbtVars(d *runcmd.DBT) {
	if !c.ok {
		return
	}
	target, ok := c.pass.TargetRelation()
	if !ok {
		return
	}
	read := c.pass.Unit.Definitions.ModelVars(target.Name())
	values, ok := d.VarValues()
	if !ok || len(read) == 0 {
		return
	}
	type bound struct {
		name, value string
		t           time.Time
	}
	var dates []bound
	for _, name := range read {
		v, set := values[name]
		if !set {
			continue
		}
		if t, _, err := plan.ParseDate(v); err == nil {
			dates = append(dates, bound{name, v, t})
		}
	}
	if len(dates) != 2 {
		return
	}
	sort.SliceStable(dates, func(i, j int) bool { return dates[i].t.Before(dates[j].t) })
	start, end := dates[0], dates[1]
	g, model := c.z.g, target.Name()
	if !start.t.Equal(c.start) {
		consequence := "the partitions from " + g.Format(c.start) + " up to it keep their wrong values"
		if start.t.Before(c.start) {
			consequence = "the model also recomputes the partitions before the range, which the plan neither validates nor publishes"
		}
		c.report(*d.Vars.Value, "--vars sets %s to %s, the first date %q reads, but range.start is %s: %s\nhelp: set %s to %s",
			start.name, start.value, model, g.Format(c.start), consequence, start.name, g.Format(c.start))
	}
	after := g.Add(c.end, 1)
	if !end.t.Equal(c.end) && !end.t.Equal(after) {
		consequence := "the partitions after it keep their wrong values"
		if end.t.After(after) {
			consequence = "the model also recomputes partitions after the range, which the plan neither validates nor publishes"
		}
		c.report(*d.Vars.Value, "--vars sets %s to %s, the last date %q reads, but range.end is %s: %s\nhelp: set %s to %s, or to %s if the model's filter excludes that date",
			end.name, end.value, model, g.Format(c.end), consequence, end.name, g.Format(c.end), g.Format(after))
	}
}
