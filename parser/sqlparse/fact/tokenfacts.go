package fact

import (
	"github.com/bflint/bflint/parser/sqlname"
	pg_query "github.com/pganalyze/pg_query_go/v5"
)

// TokenFacts are what the tokens of a statement say about it.
type TokenFacts struct {
	// Writes are the relations the statement writes, read as Writes reads
	// them from a parse tree: Kind, Target, Temporary, Partitioned and
	// Offset. Columns, ConflictColumns, DoUpdate and Where are not read.
	Writes []Write
	// Joins are the relations of its FROM clauses at any depth, of UPDATE
	// ... FROM and DELETE ... USING, and a MERGE's USING source, in the
	// order they are written.
	Joins []TokenJoin
	// Conds are its conditions: each WHERE, each ON of a join or a MERGE,
	// each WHEN ... AND of a MERGE, and a Databricks REPLACE WHERE.
	Conds []Cond
	// Named are the relations a command neither writes nor joins but acts
	// on: ALTER TABLE t ..., RESTORE TABLE t, OPTIMIZE t. No rule reads
	// them, but they say what the statement is about.
	Named []sqlname.Relation
	// Columns are the qualified column references of the statement, by the
	// last part of the qualifier and then the column, in lower case.
	Columns map[string]map[string]bool
	// Dynamic is set for EXECUTE IMMEDIATE of SQL built when the script
	// runs (CONCAT(...), a variable): what it writes and reads is in no
	// text bflint can see.
	Dynamic bool

	// Withs are its WITH queries, by name in lower case and where their
	// query stands in the statement's Text: read on demand (Guards).
	Withs []WithSpan
	// Selected are the select-list items that compare something with the
	// clock, parsed on their own (ClockDecisions).
	Selected []*pg_query.Node
}

// WithSpan is where a WITH query's query stands in a statement's Text.
type WithSpan struct {
	Name       string
	Start, End int
}

// Analysed reports whether the tokens said what the statement is about: a
// relation written, joined or acted on.
func (f *TokenFacts) Analysed() bool {
	return len(f.Writes) > 0 || len(f.Joins) > 0 || len(f.Named) > 0
}

// TokenJoin is a relation joined in a statement read from its tokens.
type TokenJoin struct {
	// Join is what Joins gives for a parsed statement, except On, which
	// is nil: From holds the conditions of the whole clause.
	Join
	// From is the FROM clause the relation is an item of. The source of a
	// MERGE is given one of its own: one item, joined to the written
	// relation, whose ON is the MERGE's.
	From *TokenFrom
	// Partial is set when a condition that may concern the relation did
	// not parse on its own: what Where and From.Ons hold of it may then be
	// incomplete.
	Partial bool
}

// TokenFrom is a FROM clause read from tokens, with its ONs.
type TokenFrom struct {
	FromClause
	// Ons are the conjuncts of every ON in the clause.
	Ons []Conjunct
}

// Cond is a condition of a statement read from its tokens.
type Cond struct {
	// Conjuncts are the parts its top-level AND joins.
	Conjuncts []Conjunct
	// Sub is set for a condition inside a subquery that computes a value
	// (scalar, IN, EXISTS, ARRAY): it chooses no rows of the query around
	// it.
	Sub bool
	// Top is set for the WHERE of the statement itself, which for a DELETE
	// or an UPDATE chooses the rows it changes.
	Top bool
	// Where is set for a WHERE, of any query of the statement; an ON or
	// a MERGE's WHEN ... AND is not one. Join is set for the ON of a join
	// in a FROM clause.
	Where, Join bool
}

// InQuery reports whether the condition chooses the rows of a query
// (a WHERE or a join's ON in a SELECT), not those a DELETE, an UPDATE or
// a MERGE changes.
func (c Cond) InQuery() bool { return c.Where && !c.Top || c.Join }

// Conjunct is one part of a condition.
type Conjunct struct {
	// Node is the part parsed as an expression, its locations offsets of
	// the statement's Text as in a parse of the whole statement, so
	// Bounds, NowCalls and the other helpers read it as they read a parsed
	// statement. nil when it does not parse on its own, or the statement
	// holds more conditions than are parsed one by one (maxExprParses);
	// the fields below are then what its tokens say.
	Node *pg_query.Node
	// Columns are the names of the columns it uses: the last part, in
	// lower case.
	Columns []string
	// Now are the original offsets of its uses of the current time.
	Now []int
	// Bounds are its comparisons of a column with a value, as Bounds
	// reads them from a tree.
	Bounds []Bound

	Quals []string // qualifiers of its columns, in lower case
	Bare  bool     // it uses a column without a qualifier
}
