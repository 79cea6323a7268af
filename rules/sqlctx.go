package rules

import (
	"strings"

	"github.com/bflint/bflint/parser/plan"
	"github.com/bflint/bflint/parser/sqlname"
	"github.com/bmatcuk/doublestar/v4"
)

// dbtResourcePrefixes start the dbt unique_ids a plan's target may be.
var dbtResourcePrefixes = []string{"model.", "snapshot.", "seed.", "source."}

// TargetNode resolves plan's target in the unit's lineage: the node and
// the relation the lineage records for it (none for a table function such
// as read_csv('...'), which is no name SQL reads a relation by). A pass
// may ask about another plan of the run.
func (p *Pass) TargetNode(plan *plan.Plan) (id string, rel sqlname.Relation, hasRel bool) {
	g := p.Unit.Lineage()
	if g == nil || plan == nil || !plan.Target.Set {
		return "", sqlname.Relation{}, false
	}
	id, err := g.Resolve(plan.Target.V)
	if err != nil {
		return "", sqlname.Relation{}, false
	}
	m := p.Unit.Manifest()
	if r := m.RelationName(m.Node(id)); r != "" && !strings.Contains(r, "(") {
		return id, sqlname.Parse(r), true
	}
	return id, sqlname.Relation{}, false
}

// TargetRelation is the plan's target as a relation name: for a dbt
// unique_id (model.shop.fct_orders) its last part, which is how SQL names
// the model when no manifest says more.
func (p *Pass) TargetRelation() (sqlname.Relation, bool) {
	if p.Plan == nil || !p.Plan.Target.Set || strings.TrimSpace(p.Plan.Target.V) == "" {
		return sqlname.Relation{}, false
	}
	t := p.Plan.Target.V
	for _, prefix := range dbtResourcePrefixes {
		if strings.HasPrefix(t, prefix) && strings.Count(t, ".") >= 2 {
			parts := strings.Split(t, ".")
			name := parts[2]
			if prefix == "source." && len(parts) > 3 {
				name = parts[3]
			}
			return sqlname.Relation{Parts: []string{name}, Offset: -1}, true
		}
	}
	return sqlname.Parse(t), true
}

// IsTarget reports whether rel names the plan's target.
func (p *Pass) IsTarget(rel sqlname.Relation) bool {
	t, ok := p.TargetRelation()
	return ok && rel.Matches(t)
}

// IsStaging reports whether writing rel is free, as rules.md defines
// staging: the plan's staging relation and anything else in its schema
// (only names that start with it when that schema is the target's own), and
// the configured staging patterns.
func (p *Pass) IsStaging(rel sqlname.Relation) bool {
	if p.Plan != nil && p.Plan.Staging != nil && p.Plan.Staging.Relation.Set {
		st := sqlname.Parse(p.Plan.Staging.Relation.V)
		if rel.Matches(st) {
			return true
		}
		if schema := strings.ToLower(st.Schema()); schema != "" && strings.EqualFold(rel.Schema(), schema) {
			target, ok := p.TargetRelation()
			if !ok || !strings.EqualFold(target.Schema(), schema) {
				return true
			}
			key, stKey := rel.Key(), st.Key()
			if strings.HasPrefix(key[len(key)-1], stKey[len(stKey)-1]) {
				return true
			}
		}
	}
	return MatchesAny(p.Config.StagingPatterns(), rel)
}

// MatchesAny reports whether a doublestar pattern over dotted, lower-cased
// names matches rel, written in full or as its last two parts: how the
// configuration's relation patterns (staging, scd2.relations) apply.
func MatchesAny(patterns []string, rel sqlname.Relation) bool {
	key := rel.Key()
	names := []string{strings.Join(key, ".")}
	if len(key) > 2 {
		names = append(names, strings.Join(key[len(key)-2:], "."))
	}
	for _, pat := range patterns {
		pat = strings.ToLower(pat)
		for _, n := range names {
			if ok, _ := doublestar.Match(pat, n); ok {
				return true
			}
		}
	}
	return false
}

// IsPartitionColumn reports whether a column is the partition column: the
// plan's range.partition_column when it names one, else the field the
// table is partitioned by when the unit's SQL declares it (a dbt model's
// partition_by, a bigquery-etl table's time_partitioning), else the
// configured partition column patterns.
func (p *Pass) IsPartitionColumn(col string) bool {
	col = strings.ToLower(col)
	if p.Plan != nil && p.Plan.Range != nil && p.Plan.Range.PartitionColumn.Set {
		return col == strings.ToLower(p.Plan.Range.PartitionColumn.V)
	}
	for _, f := range p.unitSQL() {
		switch {
		case f.Model != nil && strings.EqualFold(f.Model.Config.PartitionBy.Field, col),
			f.Bqetl != nil && strings.EqualFold(f.Bqetl.Partition, col):
			return true
		}
	}
	for _, pat := range p.Config.PartitionColumnPatterns() {
		if ok, _ := doublestar.Match(strings.ToLower(pat), col); ok {
			return true
		}
	}
	return false
}

// SQLFiles returns the unit's SQL files named under any of keys (a plan key
// such as "staging.build"; "validation.checks" matches every check), and
// the standalone file of a SQL unit whatever the keys.
func (p *Pass) SQLFiles(keys ...string) []*SQLFile {
	var out []*SQLFile
	for _, f := range p.Unit.SQL {
		if len(f.Keys) == 0 {
			out = append(out, f)
			continue
		}
		for _, k := range keys {
			if f.hasPrefix(k) {
				out = append(out, f)
				break
			}
		}
	}
	return out
}

func (f *SQLFile) hasPrefix(key string) bool {
	for _, k := range f.Keys {
		if k == key || strings.HasPrefix(k, key+"[") || strings.HasPrefix(k, key+".") {
			return true
		}
	}
	return false
}

// unitSQL returns the unit's SQL files; none for a pass on no unit.
func (p *Pass) unitSQL() []*SQLFile {
	if p.Unit == nil {
		return nil
	}
	return p.Unit.SQL
}
