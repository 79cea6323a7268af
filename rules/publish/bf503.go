package publish

import (
	"slices"
	"strings"

	"github.com/bflint/bflint/parser/plan"
	"github.com/bflint/bflint/parser/sqlname"
	"github.com/bflint/bflint/rules"
)

// StagingNotIsolated reports a recompute that does not write to a place of
// its own.
var StagingNotIsolated = &rules.Rule{
	Code:     "BF503",
	Name:     "staging-not-isolated",
	Severity: rules.SeverityError,
	Scope:    rules.ScopePlan,
	Doc: rules.Doc{
		Title: "No staging relation, staging in the target's own schema, or a staging name without the plan id",
		Why: "Staging is what makes validation possible: the recompute writes somewhere no consumer reads, is checked there, " +
			"and only then reaches the live table in one operation. A staging table in the consumers' schema is read, joined " +
			"and granted like any other table there, so half-built numbers escape before they are validated. " +
			"A staging name without the run id collides with the next correction of the same table: two runs write one relation " +
			"and each validates, or publishes, the other's output. " +
			"A target named as a dbt node has the schema its manifest records; a dbt project read without a manifest records none " +
			"(the schema dbt writes depends on the profile and generate_schema_name), so there only a target written as schema.table is compared.",
		Bad: rules.Example{Lang: "yaml", Text: `target: analytics.fct_orders
staging:
  relation: analytics.fct_orders_new   # consumers' schema, no run id
`},
		Good: rules.Example{Lang: "yaml", Text: `id: bf20260826_a
target: analytics.fct_orders
staging:
  relation: backfill_staging.fct_orders__bf20260826_a
`},
	},
	Run: func(pass *rules.Pass) error {
		p := pass.Plan
		st := p.Staging
		switch {
		case st == nil:
			pass.ReportAbsentf("plan %q has no staging section: the recompute of %q has nowhere to land but the live table, where readers see it before it is validated\nhelp: add staging.relation in a schema no consumer reads, named with the plan id", p.ID.V, p.Target.V)
			return nil
		case !st.Relation.Set || strings.TrimSpace(st.Relation.V) == "":
			pass.Reportf(st.Key, "staging has no relation: nothing says where the recompute of %q is written and validated before publish\nhelp: add staging.relation in a schema no consumer reads, named with the plan id", p.Target.V)
			return nil
		case plan.IsPlaceholder(st.Relation.V):
			return nil // still TODO, which BF001 reports
		}
		rel := sqlname.Parse(st.Relation.V)
		key := rel.Key()
		target, targetKnown := pass.TargetRelation()
		if built, ok := builtRelation(pass); ok {
			target = built
		}
		inTargetSchema := targetKnown && sameSchema(rel, target)
		id := strings.ToLower(p.ID.V)
		lacksID := id != "" && !strings.Contains(key[len(key)-1], id)
		// Both defects get one finding with one relation that fixes both,
		// the name bflint init writes: two findings would each give advice
		// the other's still rejects.
		use := stagingName(key, target, targetKnown, id, inTargetSchema, lacksID)
		switch {
		case inTargetSchema && lacksID:
			pass.Reportf(st.Relation.Key, "staging relation %q is in %q, the schema of the target %q, and does not contain the plan id %q: consumers of that schema can read the recompute before it is validated, and two runs write the same relation and validate or publish each other's rows\nhelp: use %s", st.Relation.V, strings.ToLower(rel.Schema()), p.Target.V, p.ID.V, use)
		case inTargetSchema:
			pass.Reportf(st.Relation.Key, "staging relation %q is in %q, the schema of the target %q: consumers of that schema can read the recompute before it is validated\nhelp: put staging in a schema of its own: %s", st.Relation.V, strings.ToLower(rel.Schema()), p.Target.V, use)
		case lacksID:
			pass.Reportf(st.Relation.Key, "staging relation %q does not contain the plan id %q: two runs over %q write the same relation and validate or publish each other's rows\nhelp: name it with the id: %s", st.Relation.V, p.ID.V, p.Target.V, use)
		}
		return nil
	},
}

// stagingName is the relation that answers the defects found: the
// schema backfill_staging instead of the target's (the database kept),
// and the target's table name followed by the plan id instead of a name
// without it, as bflint init writes.
func stagingName(key []string, target sqlname.Relation, targetKnown bool, id string, moveSchema, addID bool) string {
	parts := slices.Clone(key)
	if moveSchema {
		parts[len(parts)-2] = "backfill_staging"
	}
	if addID {
		name := parts[len(parts)-1]
		if targetKnown {
			t := target.Key()
			name = t[len(t)-1]
		}
		parts[len(parts)-1] = name + "__" + id
	}
	return strings.Join(parts, ".")
}

// builtRelation is the relation a dbt manifest records for the node the
// plan targets, so that a target given as a node has a schema. A dbt
// project read without a manifest has none to offer: the schema dbt
// writes depends on the profile and generate_schema_name, which bflint
// does not evaluate.
func builtRelation(pass *rules.Pass) (sqlname.Relation, bool) {
	if d := pass.Unit.DBT; d == nil || d.Project != nil || d.ProjectDir == "" {
		return sqlname.Relation{}, false
	}
	_, rel, ok := pass.TargetNode(pass.Plan)
	return rel, ok
}

// sameSchema reports whether a staging relation lies in the target's
// schema. A target given as a dbt node or a bare name has no schema without
// a manifest (builtRelation), so it never matches; a two-part name matches the last two
// parts of a three-part one.
func sameSchema(staging, target sqlname.Relation) bool {
	s, t := staging.Key(), target.Key()
	if len(s) < 2 || len(t) < 2 || s[len(s)-2] != t[len(t)-2] {
		return false
	}
	return len(s) < 3 || len(t) < 3 || s[len(s)-3] == t[len(t)-3]
}
