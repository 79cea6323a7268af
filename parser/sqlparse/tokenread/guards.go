package tokenread

import (
	"strings"
	"unicode/utf8"

	"github.com/bflint/bflint/parser/sqlname"
	"github.com/bflint/bflint/parser/sqlparse/fact"
	"github.com/bflint/bflint/parser/sqlparse/internal/guard"
	"github.com/bflint/bflint/parser/sqlparse/internal/tree"
	"github.com/bflint/bflint/parser/sqlparse/sqltext"
	pg_query "github.com/pganalyze/pg_query_go/v5"
)

// Guards reads the guards of a statement the parser rejected, with
// the same rules as a parse tree: its WHERE conditions that parse on
// their own, its WITH queries that do, and its joins.
func Guards(s *fact.Source, tf *fact.TokenFacts, rel sqlname.Relation) []fact.GuardKind {
	var withs []guard.WithQuery
	for _, w := range tf.Withs {
		if q := parseQuery(s, w.Start, w.End); q != nil {
			withs = append(withs, guard.WithQuery{Name: w.Name, Query: q})
		}
	}
	g := guard.Through(s, rel, withs)
	var antiJoined []string
	for _, j := range tf.Joins {
		name := ""
		if j.CTE && len(j.Relation.Parts) == 1 {
			name = strings.ToLower(j.Relation.Parts[0])
		}
		alias := strings.ToLower(j.Alias)
		if g.MaxOf[name] {
			g.MaxAliases[alias] = true
		}
		if !j.Inner && (g.Derived[name] || !j.CTE && j.Relation.Matches(rel)) {
			antiJoined = append(antiJoined, alias)
		}
	}
	where := &pg_query.List{}
	for _, c := range tf.Conds {
		if !c.Where {
			continue
		}
		for _, cj := range c.Conjuncts {
			if cj.Node != nil {
				where.Items = append(where.Items, cj.Node)
			}
		}
	}
	return g.Guards(where, nil, antiJoined)
}

// parseQuery parses the query between offsets start and end of the
// statement's Text on its own, its locations offsets of the Text; nil when
// it does not parse as one query or is past the limits a statement is
// parsed under.
func parseQuery(s *fact.Source, start, end int) *pg_query.Node {
	frag := s.Text[start:end]
	if len(frag) > tree.MaxStatementBytes || !utf8.ValidString(frag) {
		return nil
	}
	toks, lexErr := sqltext.Lex(frag)
	if lexErr != nil {
		return nil
	}
	if _, _, deep := tree.TooDeep(frag, sqltext.Code(toks)); deep {
		return nil
	}
	res, err := pg_query.Parse(frag)
	if err != nil || len(res.Stmts) != 1 || res.Stmts[0].Stmt.GetSelectStmt() == nil {
		return nil
	}
	q := res.Stmts[0].Stmt
	shiftLocations(q, int32(start))
	return q
}
