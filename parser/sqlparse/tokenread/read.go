// Package tokenread reads a statement the parser rejected from its tokens.
// A statement the parser rejects usually fails on one construct (a
// warehouse function's argument syntax, a clause PostgreSQL lacks) while
// its shape is ordinary: what it writes, what it joins and on which
// conditions. That shape is read here from the statement's tokens into
// the same fact types the parse-tree reader fills, and each condition is
// handed to the parser on its own, as the WHERE of a bare query, so the
// rules read the same expression trees they read from a parsed statement.
// Only a condition that does not parse even then is read from its tokens
// alone.
package tokenread

import (
	"sort"
	"strings"

	"github.com/bflint/bflint/parser/sqlparse/dialect"
	"github.com/bflint/bflint/parser/sqlparse/fact"
	"github.com/bflint/bflint/parser/sqlparse/internal/tree"
	"github.com/bflint/bflint/parser/sqlparse/sqltext"
)

// Read reads a statement from its code tokens.
func Read(s *fact.Source, code []sqltext.Token) *fact.TokenFacts {
	sc := &tokenScan{Cursor: sqltext.NewCursor(s.Text, code), src: s, ctes: map[string]bool{}, bodies: map[string]*tokenCTE{}, names: map[int]bool{}, parses: new(int)}
	sc.tf = &fact.TokenFacts{Columns: map[string]map[string]bool{}}
	sc.index()
	sc.statement(0, len(sc.Code))
	for i := range sc.tf.Writes {
		w := &sc.tf.Writes[i]
		switch {
		case s.Flags&dialect.CopyInto != 0:
			w.Kind = fact.WriteCopy
		case s.Flags&dialect.CreateOrReplace != 0 && (w.Kind == fact.WriteCreateTableAs || w.Kind == fact.WriteCreateTable):
			w.Kind = fact.WriteCreateOrReplace
		}
	}
	sort.SliceStable(sc.joins, func(i, j int) bool { return sc.joins[i].Offset < sc.joins[j].Offset })
	for _, j := range sc.joins {
		if j.CTE {
			j.Through = sc.provenance(j)
		}
		sc.tf.Joins = append(sc.tf.Joins, *j)
	}
	sc.columns()
	return sc.tf
}

// tokenScan reads one statement's code tokens.
type tokenScan struct {
	sqltext.Cursor
	src *fact.Source
	// match is the index of the bracket that closes or opens this one, -1
	// when it is unbalanced or not a bracket.
	match sqltext.Table
	ctes  map[string]bool
	// bodies are the WITH queries that select from one relation, by name
	// in lower case, as provenance follows them.
	bodies map[string]*tokenCTE
	// names are the code tokens that start a relation name, which are not
	// column references.
	names map[int]bool
	joins []*fact.TokenJoin
	tf    *fact.TokenFacts
	// parses counts the expressions handed to the parser, which
	// maxExprParses bounds.
	parses *int
}

// maxExprParses bounds how many conditions, or parts of one, a statement
// read from its tokens hands to the parser: each call costs about as much
// as a small statement, and a generated statement can hold thousands.
// Past it, conditions are read from their tokens alone.
const maxExprParses = 256

// scanCtx is where a query stands.
type scanCtx struct {
	sub    bool // inside a subquery that computes a value
	scalar bool // this query is such a subquery, yielding one value
	depth  int  // brackets around it, bounded as the parser's input is
}

// scanBlock is one SELECT, or the DELETE or UPDATE of the statement itself:
// the relations of its FROM clause and how its WHERE applies to them.
type scanBlock struct {
	from  *fact.TokenFrom
	joins []*fact.TokenJoin
	// target is set for UPDATE ... FROM and DELETE ... USING, top for the
	// WHERE of the statement's own DELETE or UPDATE, using for a DELETE,
	// whose USING lists the relations it joins.
	target, top, using bool
}

func (sc *tokenScan) index() { sc.match = sc.Brackets() }

func (sc *tokenScan) open(i int) bool { return sc.Punct(i, '(') || sc.Punct(i, '[') }

// close returns the bracket that closes the one at i, or to when it does
// not close before to.
func (sc *tokenScan) close(i, to int) int {
	if m := sc.match.At(i); m > i && m < to {
		return m
	}
	return to
}

func (sc *tokenScan) orig(i int) int { return sc.src.Map.Orig(int(sc.Code[i].Start)) }

// startsQuery reports whether a query begins at code[i].
func (sc *tokenScan) startsQuery(i int) bool {
	switch sc.Word(i) {
	case "SELECT", "WITH", "VALUES":
		return true
	}
	return sc.Punct(i, '(') && sc.startsQuery(i+1)
}

// statement reads the statement that begins at code[i]: its writes by its
// keyword, and the queries it holds. A statement bflint does not know
// (scripting, a procedure call) is searched for a write that follows
// THEN, ELSE, DO or BEGIN, and read as a query otherwise.
func (sc *tokenScan) statement(i, to int) {
	c := scanCtx{}
	i = sc.with(i, to, c)
	switch sc.Word(i) {
	case "INSERT":
		sc.insert(i, to)
	case "MERGE":
		sc.merge(i, to)
	case "UPDATE":
		sc.update(i, to)
	case "DELETE":
		sc.delete(i, to)
	case "CREATE":
		sc.create(i, to)
	case "TRUNCATE":
		sc.truncate(i, to)
	case "DROP":
		sc.drop(i, to)
	case "COPY":
		sc.copy(i, to)
	case "ALTER":
		sc.alter(i, to)
	case "EXECUTE":
		sc.execute(i, to)
	case "RESTORE", "OPTIMIZE", "VACUUM", "ANALYZE", "REFRESH", "MSCK", "UNDROP", "COMMENT", "GRANT", "REVOKE":
		sc.named(i, to)
	case "SELECT":
		sc.selectInto(i, to)
		sc.body(i, to, nil, c)
	case "TABLES":
		sc.semanticTables(i, to)
	default:
		for k := i; k < to; k++ {
			if sc.open(k) {
				k = sc.close(k, to)
				continue
			}
			switch sc.Word(k - 1) {
			case "THEN", "ELSE", "DO", "BEGIN", "LOOP":
				if writeHeads[sc.Word(k)] {
					sc.statement(k, to)
					return
				}
			}
		}
		sc.body(i, to, nil, c)
	}
}

var writeHeads = map[string]bool{
	"INSERT": true, "MERGE": true, "UPDATE": true, "DELETE": true, "CREATE": true,
	"TRUNCATE": true, "DROP": true, "COPY": true, "SELECT": true, "WITH": true,
}

// with reads a WITH list at code[i], if one is there, and returns where
// what follows it begins.
func (sc *tokenScan) with(i, to int, c scanCtx) int {
	if sc.Word(i) != "WITH" {
		return i
	}
	j := i + 1
	if sc.Word(j) == "RECURSIVE" {
		j++
	}
	// Where the list stops making sense, the statement goes on from there
	// once a query of it has been read, so none is read twice.
	stop := i
	for j < to {
		parts, e, folded := sc.name(j)
		if e == j || len(parts) != 1 {
			return stop
		}
		k := e
		if sc.Punct(k, '(') {
			k = sc.close(k, to) + 1
		}
		if sc.Word(k) != "AS" {
			return stop
		}
		k++
		if sc.Word(k) == "NOT" {
			k++
		}
		if sc.Word(k) == "MATERIALIZED" {
			k++
		}
		if !sc.Punct(k, '(') {
			return stop
		}
		sc.ctes[strings.ToLower(folded)] = true
		end := sc.close(k, to)
		if end > k+1 {
			sc.tf.Withs = append(sc.tf.Withs, fact.WithSpan{Name: strings.ToLower(folded), Start: int(sc.Code[k+1].Start), End: int(sc.Code[end-1].End)})
		}
		before := len(sc.joins)
		sc.query(k+1, end, scanCtx{sub: c.sub, depth: c.depth + 1})
		if body := sc.cteBody(k+1, end, sc.joins[before:]); body != nil {
			sc.bodies[strings.ToLower(folded)] = body
		}
		j = end + 1
		stop = j
		if !sc.Punct(j, ',') {
			return j
		}
		j++
	}
	return j
}

// query reads a query between code[i] and code[to].
func (sc *tokenScan) query(i, to int, c scanCtx) {
	if c.depth > tree.MaxNesting {
		return
	}
	sc.body(sc.with(i, to, c), to, nil, c)
}

// body reads the clauses of a query, or of a DELETE or UPDATE whose block
// b is given: each SELECT opens a block whose FROM and WHERE are read, and
// a bracket is a query when it stands where a query does (first, after a
// set operator) and an expression otherwise.
func (sc *tokenScan) body(i, to int, b *scanBlock, c scanCtx) {
	start := i
	for i < to {
		if sc.open(i) {
			end := sc.close(i, to)
			if sc.startsQuery(i+1) && (i == start || tokenSetOperators[sc.Word(i-1)] || sc.Word(i-1) == "ALL" || sc.Word(i-1) == "DISTINCT") {
				sc.query(i+1, end, scanCtx{sub: c.sub, depth: c.depth + 1})
			} else {
				sc.group(i, end, c)
			}
			i = end + 1
			continue
		}
		switch w := sc.Word(i); w {
		case "SELECT":
			b = &scanBlock{}
			sc.selectClocks(i+1, to)
		case "WITH":
			if j := sc.with(i, to, c); j > i {
				i = j
				continue
			}
		case "FROM", "USING":
			// a IS DISTINCT FROM b is a comparison, not a clause.
			if b != nil && (w == "FROM" && sc.Word(i-1) != "DISTINCT" || w == "USING" && b.using) {
				i = sc.from(i+1, to, b, c)
				continue
			}
		case "WHERE":
			if b != nil {
				i = sc.where(i+1, to, b, c)
				continue
			}
		case "EXCEPT":
			// BigQuery's SELECT * EXCEPT (columns) is no set operator.
			if sc.open(i+1) && !sc.startsQuery(i+2) {
				i = sc.close(i+1, to) + 1
				continue
			}
			b = nil
		default:
			if tokenSetOperators[w] {
				b = nil
			}
		}
		i++
	}
}

var tokenSetOperators = map[string]bool{"UNION": true, "INTERSECT": true, "EXCEPT": true, "MINUS": true}

// group reads the bracket at code[i], closed at code[end], that stands in
// an expression: a subquery there computes a value; otherwise the
// brackets inside it are read the same way.
func (sc *tokenScan) group(i, end int, c scanCtx) {
	if c.depth > tree.MaxNesting {
		return
	}
	// ((SELECT ...)) is a query; ((SELECT ...), x), the arguments of a
	// function such as COALESCE, is not.
	if sc.startsQuery(i+1) && (!sc.open(i+1) || sc.close(i+1, end) == end-1) {
		switch sc.Word(i - 1) {
		case "IN", "EXISTS", "ANY", "SOME", "ALL":
			sc.query(i+1, end, scanCtx{sub: true, depth: c.depth + 1})
		default:
			sc.query(i+1, end, scanCtx{sub: true, scalar: true, depth: c.depth + 1})
		}
		return
	}
	sc.exprs(i+1, end, scanCtx{sub: c.sub, depth: c.depth + 1})
}

// exprs reads the brackets of an expression between code[i] and code[to].
func (sc *tokenScan) exprs(i, to int, c scanCtx) {
	for ; i < to; i++ {
		if sc.open(i) {
			end := sc.close(i, to)
			sc.group(i, end, c)
			i = end
		}
	}
}

// clauseEnd returns the first token from code[i] on, outside brackets,
// that ends a clause of a query, or to.
func (sc *tokenScan) clauseEnd(i, to int, from bool) int {
	for ; i < to; i++ {
		if sc.open(i) {
			i = sc.close(i, to)
			continue
		}
		if sc.Punct(i, ';') {
			return i
		}
		switch w := sc.Word(i); w {
		case "GROUP":
			if sc.Word(i-1) != "WITHIN" {
				return i
			}
		case "HAVING", "QUALIFY", "WINDOW", "ORDER", "LIMIT", "OFFSET", "FETCH", "RETURNING",
			"UNION", "INTERSECT", "EXCEPT", "MINUS":
			return i
		case "FOR":
			switch sc.Word(i + 1) {
			case "UPDATE", "SHARE", "NO", "KEY":
				return i
			}
		case "WHERE", "CONNECT", "START":
			if from {
				return i
			}
		case "ON":
			if sc.Word(i+1) == "CONFLICT" {
				return i
			}
		}
	}
	return to
}

// where reads the WHERE whose condition begins at code[i] and returns
// where it ends.
func (sc *tokenScan) where(i, to int, b *scanBlock, c scanCtx) int {
	end := sc.clauseEnd(i, to, false)
	before := len(sc.tf.Conds)
	cond := sc.cond(i, end, c.sub, b.top)
	if len(sc.tf.Conds) > before { // an empty WHERE has no condition
		sc.tf.Conds[before].Where = true
	}
	if f := b.from; f != nil {
		alone := f.Items == 1 && f.First >= 0
		for _, j := range b.joins {
			for _, cj := range cond.Conjuncts {
				switch {
				case cj.Node != nil:
					if tree.Mentions(cj.Node, j.Alias) || alone && tree.MentionsUnqualified(cj.Node) {
						j.Where = append(j.Where, cj.Node)
					}
				case alone && cj.Bare || containsFold(cj.Quals, j.Alias):
					j.Partial = true
				}
			}
		}
	}
	sc.exprs(i, end, c)
	return end
}

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}
