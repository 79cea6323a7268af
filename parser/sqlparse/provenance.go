package sqlparse

import (
	"strings"

	"github.com/bflint/bflint/parser/sqlparse/fact"
	"github.com/bflint/bflint/parser/sqlparse/internal/tree"
	pg_query "github.com/pganalyze/pg_query_go/v5"
)

// provenance follows the WITH query rv names, through WITH queries that
// each select from one relation (projection, renames, filters: dbt's
// import CTEs), to the stored relation it stands for; nil when some query
// on the way joins, aggregates, deduplicates or unions, since its rows are
// then no rows of one relation. alias qualifies the joined query's
// columns, and offset is where its name is written.
func (s *Statement) provenance(sc *tree.Scope, rv *pg_query.RangeVar, alias string, offset int) *fact.Provenance {
	p := &fact.Provenance{Renames: map[string]string{}}
	// outer maps the joined query's column names to those of the query
	// reached so far.
	outer := map[string]string{}
	renamed := false
	for range fact.MaxProvenance {
		def, bodyScope := sc.Lookup(rv)
		if def == nil {
			if len(p.Via) == 0 {
				return nil
			}
			p.Relation = fact.RelationOf(&s.Source, rv)
			p.Relation.Offset = offset
			if renamed {
				p.Renames = outer
			}
			return p
		}
		sel := def.GetCtequery().GetSelectStmt()
		from, ok := singleRelation(sel)
		if !ok {
			return nil
		}
		p.Via = append(p.Via, def.GetCtename())
		inner := qualifier(from)
		// The query's own names for its columns, and what each is below.
		names := map[string]string{}
		star := false
		for _, t := range sel.GetTargetList() {
			rt := t.GetResTarget()
			col, isStar := columnOrStar(rt.GetVal())
			switch {
			case isStar:
				star = true
			case rt.GetName() != "":
				names[strings.ToLower(rt.GetName())] = col
			case col != "":
				names[col] = col
			}
		}
		next := map[string]string{}
		for k, v := range names {
			if k != v {
				renamed = true
			}
			next[k] = v
		}
		if len(p.Via) == 1 {
			outer = next
		} else {
			for k, v := range outer {
				if below, ok := next[v]; ok {
					outer[k] = below
				} else if !star {
					outer[k] = ""
				}
			}
		}
		for _, c := range fact.Conjuncts(sel.GetWhereClause()) {
			// As a FROM item's WHERE conditions are read: those about it.
			if tree.Mentions(c, inner) || tree.MentionsUnqualified(c) {
				p.Filters = append(p.Filters, tree.Requalified(c, inner, alias))
			}
		}
		rv, sc = from, bodyScope
	}
	return nil
}

// singleRelation returns the one FROM item of a plain SELECT that reads a
// single relation; false when the query is a set operation, joins,
// groups, deduplicates, limits or selects from a subquery.
func singleRelation(sel *pg_query.SelectStmt) (*pg_query.RangeVar, bool) {
	if sel == nil || sel.GetOp() != pg_query.SetOperation_SETOP_NONE || len(sel.GetFromClause()) != 1 ||
		len(sel.GetGroupClause()) > 0 || sel.GetHavingClause() != nil || len(sel.GetDistinctClause()) > 0 ||
		sel.GetLimitCount() != nil || len(sel.GetWindowClause()) > 0 {
		return nil, false
	}
	rv := sel.GetFromClause()[0].GetRangeVar()
	return rv, rv != nil
}

// columnOrStar reads a select-list item: the column it is (lower case),
// or whether it is * or alias.*; col is "" for anything computed.
func columnOrStar(n *pg_query.Node) (col string, star bool) {
	c := n.GetColumnRef()
	switch {
	case c != nil:
	case n.GetTypeCast() != nil:
		// valid_from::date keeps the column's order.
		return columnOrStar(n.GetTypeCast().GetArg())
	case n.GetCoalesceExpr() != nil && len(n.GetCoalesceExpr().GetArgs()) > 0:
		// COALESCE(valid_to, '9999-12-31') is still the version's end.
		return columnOrStar(n.GetCoalesceExpr().GetArgs()[0])
	}
	if c == nil || len(c.GetFields()) == 0 {
		return "", false
	}
	last := c.GetFields()[len(c.GetFields())-1]
	if last.GetAStar() != nil {
		return "", true
	}
	_, col = tree.ColumnName(c)
	return col, false
}
