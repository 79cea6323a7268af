package sqlparse

import (
	"github.com/bflint/bflint/parser/sqlname"
	pg_query "github.com/pganalyze/pg_query_go/v5"
	"google.golang.org/protobuf/proto"
)

// Joined is what a statement joins, read from its parse tree or from its
// tokens: the rules that judge joins read this and not the reader.
type Joined struct {
	// Relations are the stored relations it joins, in the order they are
	// written: a WITH query that selects from one relation stands for it
	// (JoinedRelation.Via), others are left out.
	Relations []JoinedRelation
	// Columns are its column references by the last part of their
	// qualifier and their name, in lower case. From a tree, unqualified
	// columns are under ""; from tokens, only qualified ones are read.
	Columns map[string]map[string]bool
	// FromTokens is set when the statement was read from its tokens.
	FromTokens bool
}

// JoinedRelation is a stored relation in a FROM clause with every
// condition that may join it. Join.On keeps only the innermost ON, and a
// bound on the relation is often written in a later one.
type JoinedRelation struct {
	Relation sqlname.Relation
	// Alias, Inner and Offset are those of Join.
	Alias  string
	Inner  bool
	Offset int
	// Clause is the FROM clause it is an item of; the zero clause (with
	// First -1) when that could not be told.
	Clause FromClause
	// On are the conjuncts of every ON of the clause, or of the relation's
	// own ON when the clause could not be told.
	On []Term
	// Where are the conjuncts of the query's WHERE that mention the
	// relation, as in Join.Where.
	Where []Term
	// Partial is set when a condition that may concern the relation did
	// not parse even on its own, so On and Where may be incomplete.
	Partial bool
	// Via names the WITH queries the relation is joined through, the
	// joined one first (dbt's import CTEs); Renames maps the names they
	// give its columns to the relation's own ("" for a computed one).
	// Their conditions are among Where.
	Via     []string
	Renames map[string]string
}

// Column is the relation's own name for a column the statement names
// under the relation's alias: through the renames of the WITH queries it
// is joined through; "" for a column they compute.
func (j JoinedRelation) Column(name string) string {
	if base, ok := j.Renames[name]; ok {
		return base
	}
	return name
}

func newJoinedRelation(j Join, c FromClause, on []*pg_query.Node) JoinedRelation {
	jr := JoinedRelation{Relation: j.Relation, Alias: j.Alias, Inner: j.Inner, Offset: j.Offset, Clause: c, On: terms(on), Where: terms(j.Where)}
	if p := j.Through; p != nil {
		jr.Relation, jr.Via, jr.Renames = p.Relation, p.Via, p.Renames
		jr.Where = append(jr.Where, terms(p.Filters)...)
	}
	return jr
}

// FromClause is a FROM clause, UPDATE ... FROM or DELETE ... USING.
type FromClause struct {
	// Items counts its items, relations or not, nested join groups
	// included.
	Items int
	// First is the offset of its first item when that is a relation, -1
	// otherwise.
	First int
	// Target is set when its items are joined to a written relation
	// besides: UPDATE ... FROM, DELETE ... USING, a MERGE's source.
	Target bool
	// Scalar is set for the FROM of a subquery that computes one value,
	// which yields NULL rather than dropping the row around it when it
	// finds nothing.
	Scalar bool
}

// Joined returns what the statement's parse tree joins.
func (s *Statement) Joined() Joined {
	s.facts.joinedOnce.Do(func() { s.facts.joined = s.joined() })
	return s.facts.joined
}

func (s *Statement) joined() Joined {
	var out Joined
	var clauses map[int]*treeFrom
	for _, j := range s.Joins() {
		if j.CTE && j.Through == nil {
			continue
		}
		if clauses == nil {
			clauses, out.Columns = s.fromClauses()
		}
		c, ok := clauses[j.Offset]
		if !ok {
			out.Relations = append(out.Relations, newJoinedRelation(j, FromClause{First: -1}, Conjuncts(j.On)))
			continue
		}
		var on []*pg_query.Node
		for _, n := range c.ons {
			on = append(on, Conjuncts(n)...)
		}
		out.Relations = append(out.Relations, newJoinedRelation(j, c.FromClause, on))
	}
	return out
}

// Joined returns what the tokens say the statement joins.
func (tf *TokenFacts) Joined() Joined {
	out := Joined{Columns: tf.Columns, FromTokens: true}
	for _, tj := range tf.Joins {
		if tj.CTE && tj.Through == nil {
			continue
		}
		var on []*pg_query.Node
		for _, cj := range tj.From.Ons {
			if cj.Node != nil {
				on = append(on, cj.Node)
			}
		}
		jr := newJoinedRelation(tj.Join, tj.From.FromClause, on)
		jr.Partial = tj.Partial
		out.Relations = append(out.Relations, jr)
	}
	return out
}

// treeFrom is a FROM clause of a parse tree with its ONs.
type treeFrom struct {
	FromClause
	ons []*pg_query.Node
}

// fromClauses maps the offset of every relation named in a FROM clause to
// that clause, and returns the statement's column references from the
// same walk.
func (s *Statement) fromClauses() (map[int]*treeFrom, map[string]map[string]bool) {
	out := map[int]*treeFrom{}
	refs := map[string]map[string]bool{}
	add := func(items []*pg_query.Node, target, scalar bool) *treeFrom {
		c := &treeFrom{FromClause: FromClause{First: -1, Target: target, Scalar: scalar}}
		var visit func(*pg_query.Node)
		visit = func(n *pg_query.Node) {
			switch x := n.GetNode().(type) {
			case *pg_query.Node_JoinExpr:
				// An ON follows both sides of its join: in the order written.
				visit(x.JoinExpr.GetLarg())
				visit(x.JoinExpr.GetRarg())
				if q := x.JoinExpr.GetQuals(); q != nil {
					c.ons = append(c.ons, q)
				}
			case *pg_query.Node_RangeVar:
				at := s.Orig(x.RangeVar.GetLocation())
				if c.Items == 0 {
					c.First = at
				}
				c.Items++
				out[at] = c
			default:
				c.Items++
			}
		}
		for _, it := range items {
			visit(it)
		}
		return c
	}
	// Parents come before children, so a scalar subquery is known before
	// its SELECT is reached.
	scalar := map[*pg_query.SelectStmt]bool{}
	Walk(s.Node, func(m proto.Message) bool {
		switch x := m.(type) {
		case *pg_query.ColumnRef:
			if col := refOf(x); col.Name != "" {
				if refs[col.Qualifier] == nil {
					refs[col.Qualifier] = map[string]bool{}
				}
				refs[col.Qualifier][col.Name] = true
			}
		case *pg_query.SubLink:
			if t := x.GetSubLinkType(); t == pg_query.SubLinkType_EXPR_SUBLINK || t == pg_query.SubLinkType_ARRAY_SUBLINK {
				scalar[x.GetSubselect().GetSelectStmt()] = true
			}
		case *pg_query.SelectStmt:
			add(x.GetFromClause(), false, scalar[x])
		case *pg_query.UpdateStmt:
			add(x.GetFromClause(), true, false)
		case *pg_query.DeleteStmt:
			add(x.GetUsingClause(), true, false)
		case *pg_query.MergeStmt:
			// The source of a MERGE is joined to the target by the MERGE's ON.
			c := add([]*pg_query.Node{x.GetSourceRelation()}, true, false)
			if on := x.GetJoinCondition(); on != nil {
				c.ons = append(c.ons, on)
			}
		}
		return true
	})
	return out, refs
}
