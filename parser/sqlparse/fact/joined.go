package fact

import (
	"github.com/bflint/bflint/parser/sqlname"
	pg_query "github.com/pganalyze/pg_query_go/v5"
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

func NewJoinedRelation(j Join, c FromClause, on []*pg_query.Node) JoinedRelation {
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
		jr := NewJoinedRelation(tj.Join, tj.From.FromClause, on)
		jr.Partial = tj.Partial
		out.Relations = append(out.Relations, jr)
	}
	return out
}
