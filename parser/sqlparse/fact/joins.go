package fact

import (
	"github.com/bflint/bflint/parser/sqlname"
	pg_query "github.com/pganalyze/pg_query_go/v5"
)

// Join is a relation in a FROM clause, or the USING source of a MERGE.
type Join struct {
	Relation sqlname.Relation
	// Alias qualifies the relation's columns: the alias, or the relation's
	// own name (as the parser folds it) when it has none.
	Alias string
	// Inner is false when the relation is on the nullable side of an outer
	// join: rows of the other side that match nothing here are kept.
	Inner bool
	// CTE is set when the name refers to a WITH query, not a stored relation.
	CTE bool
	// On is the ON of the innermost join the relation takes part in, on
	// either side; nil for a FROM item joined by comma, USING or NATURAL.
	On *pg_query.Node
	// Where are the conjuncts of the same query's WHERE that mention the
	// relation's columns; when it is the only FROM item, unqualified
	// columns can only be its own and count too.
	Where []*pg_query.Node
	// Offset is the relation's name, where BF701-BF704 report.
	Offset int
	// Through is set when the name refers to a WITH query that selects
	// from one relation (projection, renames, filters): the query stands
	// for that relation wherever it is joined.
	Through *Provenance
}

// Provenance is the stored relation a WITH query stands for.
type Provenance struct {
	// Relation is the stored relation, at the offset of the name that
	// joins the WITH query.
	Relation sqlname.Relation
	// Via names the WITH queries on the way, the joined one first.
	Via []string
	// Renames maps a column the joined query names to the relation's
	// column it is (valid_to_ts to valid_to); "" for a column it
	// computes. A column not in it is the relation's own.
	Renames map[string]string
	// Filters are the WITH queries' conditions, their columns qualified
	// by the alias the WITH query is joined under.
	Filters []*pg_query.Node
}

// Conjuncts splits an AND tree into the predicates that must all hold; any
// other expression is a single conjunct.
func Conjuncts(n *pg_query.Node) []*pg_query.Node {
	if n == nil {
		return nil
	}
	if b := n.GetBoolExpr(); b != nil && b.GetBoolop() == pg_query.BoolExprType_AND_EXPR {
		var out []*pg_query.Node
		for _, a := range b.GetArgs() {
			out = append(out, Conjuncts(a)...)
		}
		return out
	}
	return []*pg_query.Node{n}
}

// MaxProvenance bounds a chain of WITH queries each selecting from the
// one before.
const MaxProvenance = 8
