package sqlparse

import (
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/bflint/bflint/parser/sqlname"
	"github.com/bflint/bflint/parser/sqlparse/dialect"
	"github.com/bflint/bflint/parser/sqlparse/jinja"
	"github.com/bflint/bflint/parser/sqlparse/sqltext"
	pg_query "github.com/pganalyze/pg_query_go/v5"
	"google.golang.org/protobuf/proto"
)

// The token fallback. A statement the parser rejects usually fails on one
// construct (a warehouse function's argument syntax, a clause PostgreSQL
// lacks) while its shape is ordinary: what it writes, what it joins and on
// which conditions. That shape is read here from the statement's tokens,
// and each condition is handed to the parser on its own, as the WHERE of a
// bare query, so the rules read the same expression trees they read from a
// parsed statement. Only a condition that does not parse even then is read
// from its tokens alone.

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

// TokenFrom is a FROM clause (or UPDATE ... FROM, DELETE ... USING) read
// from tokens.
type TokenFrom struct {
	// Ons are the conjuncts of every ON in the clause.
	Ons []Conjunct
	// Items counts the clause's items, relations or not, nested join
	// groups included.
	Items int
	// First is the offset of the first item when it is a relation, -1
	// otherwise.
	First int
	// Target is set when the items are joined to a written relation
	// besides: UPDATE ... FROM, DELETE ... USING, a MERGE's source.
	Target bool
	// Scalar is set for the FROM of a subquery that computes one value,
	// which yields NULL rather than dropping the row around it when it
	// finds nothing.
	Scalar bool
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
}

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

	quals []string // qualifiers of its columns, in lower case
	bare  bool     // it uses a column without a qualifier
}

// Coverage says how the rules read a statement.
type Coverage int

const (
	// CoverageParsed: from its parse tree.
	CoverageParsed Coverage = iota
	// CoverageTokens: it did not parse; the rules that can work from
	// tokens read what it writes and joins from them.
	CoverageTokens
	// CoverageNone: nothing could be read, so no SQL rule checked it.
	CoverageNone
)

var coverageNames = [...]string{CoverageParsed: "parsed", CoverageTokens: "tokens", CoverageNone: "none"}

func (c Coverage) String() string {
	if c >= 0 && int(c) < len(coverageNames) {
		return coverageNames[c]
	}
	return "Coverage(?)"
}

// Coverage says how the rules read the statement. The unread rest of a
// file after a lexer fault has no text, so nothing of it is read.
func (s *Statement) Coverage() Coverage {
	switch {
	case s.Problem == nil:
		return CoverageParsed
	case s.Text != "" && s.TokenFacts().Analysed():
		return CoverageTokens
	}
	return CoverageNone
}

// TokenFacts reads the statement from its tokens, whether or not it
// parsed: the rules use it for statements that did not, and tests compare
// the two readings of those that did.
func (s *Statement) TokenFacts() *TokenFacts {
	sc := &tokenScan{st: s, text: s.Text, code: s.codeTokens(), ctes: map[string]bool{}, names: map[int]bool{}, parses: new(int)}
	sc.tf = &TokenFacts{Columns: map[string]map[string]bool{}}
	sc.index()
	sc.statement(0, len(sc.code))
	for i := range sc.tf.Writes {
		w := &sc.tf.Writes[i]
		switch {
		case s.Flags&dialect.CopyInto != 0:
			w.Kind = WriteCopy
		case s.Flags&dialect.CreateOrReplace != 0 && (w.Kind == WriteCreateTableAs || w.Kind == WriteCreateTable):
			w.Kind = WriteCreateOrReplace
		}
	}
	sort.SliceStable(sc.joins, func(i, j int) bool { return sc.joins[i].Offset < sc.joins[j].Offset })
	for _, j := range sc.joins {
		sc.tf.Joins = append(sc.tf.Joins, *j)
	}
	sc.columns()
	return sc.tf
}

// tokenScan reads one statement's code tokens.
type tokenScan struct {
	st   *Statement
	text string
	code []sqltext.Token
	// match is the index of the bracket that closes or opens this one, -1
	// when it is unbalanced or not a bracket.
	match []int
	ctes  map[string]bool
	// names are the code tokens that start a relation name, which are not
	// column references.
	names map[int]bool
	joins []*TokenJoin
	tf    *TokenFacts
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
	from  *TokenFrom
	joins []*TokenJoin
	// target is set for UPDATE ... FROM and DELETE ... USING, top for the
	// WHERE of the statement's own DELETE or UPDATE, using for a DELETE,
	// whose USING lists the relations it joins.
	target, top, using bool
}

func (sc *tokenScan) index() {
	sc.match = make([]int, len(sc.code))
	var open []int
	for k := range sc.code {
		sc.match[k] = -1
		switch {
		case sc.punct(k, '(') || sc.punct(k, '['):
			open = append(open, k)
		case (sc.punct(k, ')') || sc.punct(k, ']')) && len(open) > 0:
			o := open[len(open)-1]
			open = open[:len(open)-1]
			sc.match[o], sc.match[k] = k, o
		}
	}
}

func (sc *tokenScan) word(i int) string {
	if i < 0 || i >= len(sc.code) || sc.code[i].Kind != sqltext.Word {
		return ""
	}
	return strings.ToUpper(sc.code[i].Text(sc.text))
}

func (sc *tokenScan) punct(i int, c byte) bool {
	return i >= 0 && i < len(sc.code) && sc.code[i].Kind == sqltext.Punct && sc.text[sc.code[i].Start] == c
}

func (sc *tokenScan) op(i int) string {
	if i < 0 || i >= len(sc.code) || sc.code[i].Kind != sqltext.Operator {
		return ""
	}
	return sc.code[i].Text(sc.text)
}

func (sc *tokenScan) open(i int) bool { return sc.punct(i, '(') || sc.punct(i, '[') }

// close returns the bracket that closes the one at i, or to when it does
// not close before to.
func (sc *tokenScan) close(i, to int) int {
	if m := sc.match[i]; m > i && m < to {
		return m
	}
	return to
}

func (sc *tokenScan) orig(i int) int { return sc.st.Map.Orig(sc.code[i].Start) }

// startsQuery reports whether a query begins at code[i].
func (sc *tokenScan) startsQuery(i int) bool {
	switch sc.word(i) {
	case "SELECT", "WITH", "VALUES":
		return true
	}
	return sc.punct(i, '(') && sc.startsQuery(i+1)
}

// statement reads the statement that begins at code[i]: its writes by its
// keyword, and the queries it holds. A statement bflint does not know
// (scripting, a procedure call) is searched for a write that follows
// THEN, ELSE, DO or BEGIN, and read as a query otherwise.
func (sc *tokenScan) statement(i, to int) {
	c := scanCtx{}
	i = sc.with(i, to, c)
	switch sc.word(i) {
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
	default:
		for k := i; k < to; k++ {
			if sc.open(k) {
				k = sc.close(k, to)
				continue
			}
			switch sc.word(k - 1) {
			case "THEN", "ELSE", "DO", "BEGIN", "LOOP":
				if writeHeads[sc.word(k)] {
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
	if sc.word(i) != "WITH" {
		return i
	}
	j := i + 1
	if sc.word(j) == "RECURSIVE" {
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
		if sc.punct(k, '(') {
			k = sc.close(k, to) + 1
		}
		if sc.word(k) != "AS" {
			return stop
		}
		k++
		if sc.word(k) == "NOT" {
			k++
		}
		if sc.word(k) == "MATERIALIZED" {
			k++
		}
		if !sc.punct(k, '(') {
			return stop
		}
		sc.ctes[strings.ToLower(folded)] = true
		end := sc.close(k, to)
		sc.query(k+1, end, scanCtx{sub: c.sub, depth: c.depth + 1})
		j = end + 1
		stop = j
		if !sc.punct(j, ',') {
			return j
		}
		j++
	}
	return j
}

// query reads a query between code[i] and code[to].
func (sc *tokenScan) query(i, to int, c scanCtx) {
	if c.depth > MaxNesting {
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
			if sc.startsQuery(i+1) && (i == start || tokenSetOperators[sc.word(i-1)] || sc.word(i-1) == "ALL" || sc.word(i-1) == "DISTINCT") {
				sc.query(i+1, end, scanCtx{sub: c.sub, depth: c.depth + 1})
			} else {
				sc.group(i, end, c)
			}
			i = end + 1
			continue
		}
		switch w := sc.word(i); w {
		case "SELECT":
			b = &scanBlock{}
		case "WITH":
			if j := sc.with(i, to, c); j > i {
				i = j
				continue
			}
		case "FROM", "USING":
			// a IS DISTINCT FROM b is a comparison, not a clause.
			if b != nil && (w == "FROM" && sc.word(i-1) != "DISTINCT" || w == "USING" && b.using) {
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
	if c.depth > MaxNesting {
		return
	}
	if sc.startsQuery(i + 1) {
		switch sc.word(i - 1) {
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
		if sc.punct(i, ';') {
			return i
		}
		switch w := sc.word(i); w {
		case "GROUP":
			if sc.word(i-1) != "WITHIN" {
				return i
			}
		case "HAVING", "QUALIFY", "WINDOW", "ORDER", "LIMIT", "OFFSET", "FETCH", "RETURNING",
			"UNION", "INTERSECT", "EXCEPT", "MINUS":
			return i
		case "FOR":
			switch sc.word(i + 1) {
			case "UPDATE", "SHARE", "NO", "KEY":
				return i
			}
		case "WHERE", "CONNECT", "START":
			if from {
				return i
			}
		case "ON":
			if sc.word(i+1) == "CONFLICT" {
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
	cond := sc.cond(i, end, c.sub, b.top)
	if f := b.from; f != nil {
		alone := f.Items == 1 && f.First >= 0
		for _, j := range b.joins {
			for _, cj := range cond.Conjuncts {
				switch {
				case cj.Node != nil:
					if mentions(cj.Node, j.Alias) || alone && mentionsUnqualified(cj.Node) {
						j.Where = append(j.Where, cj.Node)
					}
				case alone && cj.bare || containsFold(cj.quals, j.Alias):
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

// from reads the items of a FROM clause that begins at code[i] and
// returns where the clause ends.
func (sc *tokenScan) from(i, to int, b *scanBlock, c scanCtx) int {
	end := sc.clauseEnd(i, to, true)
	f := &TokenFrom{First: -1, Target: b.target, Scalar: c.scalar}
	b.from = f
	before := len(b.joins)
	sc.items(i, end, b, f, c, false)
	for _, cj := range f.Ons {
		if cj.Node == nil {
			for _, j := range b.joins[before:] {
				j.Partial = true
			}
			break
		}
	}
	return end
}

// items reads the items of a FROM clause, or of a bracketed join inside
// one, between code[i] and code[to]. Relations on the nullable side of an
// outer join are marked so.
func (sc *tokenScan) items(i, to int, b *scanBlock, f *TokenFrom, c scanCtx, nullable bool) {
	var tree []*TokenJoin // the relations joined since the last comma
	outer := ""           // the kind of the outer join whose right side comes next
	expect := true
	for i < to {
		if expect {
			var rels []*TokenJoin
			i, rels = sc.item(i, to, b, f, c, nullable || outer == "LEFT" || outer == "FULL")
			if outer == "RIGHT" || outer == "FULL" {
				for _, j := range tree {
					j.Inner = false
				}
			}
			tree = append(tree, rels...)
			outer, expect = "", false
			continue
		}
		switch {
		case sc.punct(i, ','):
			tree, expect = nil, true
			i++
		case sc.word(i) == "ON":
			end := sc.onEnd(i+1, to)
			f.Ons = append(f.Ons, sc.cond(i+1, end, c.sub, false).Conjuncts...)
			sc.exprs(i+1, end, c)
			i = end
		default:
			if kind, next, ok := sc.joinOperator(i); ok {
				outer, expect = kind, true
				i = next
				continue
			}
			if sc.open(i) {
				i = sc.close(i, to)
			}
			i++
		}
	}
}

// item reads one FROM item at code[i] and returns where it ends, with the
// relations it names.
func (sc *tokenScan) item(i, to int, b *scanBlock, f *TokenFrom, c scanCtx, nullable bool) (int, []*TokenJoin) {
	for sc.word(i) == "LATERAL" || sc.word(i) == "ONLY" {
		i++
	}
	if i >= to {
		return i, nil
	}
	if sc.open(i) {
		end := sc.close(i, to)
		if sc.startsQuery(i + 1) {
			f.Items++
			sc.query(i+1, end, scanCtx{sub: c.sub, depth: c.depth + 1})
			return sc.alias(end+1, to), nil
		}
		before := len(b.joins)
		if c.depth < MaxNesting {
			sc.items(i+1, end, b, f, scanCtx{sub: c.sub, scalar: c.scalar, depth: c.depth + 1}, nullable)
		}
		return sc.alias(end+1, to), b.joins[before:]
	}
	parts, e, folded := sc.name(i)
	if e == i {
		f.Items++
		return i + 1, nil
	}
	if sc.punct(e, '(') {
		// A table function: UNNEST(...), FLATTEN(...), TABLE(...).
		f.Items++
		end := sc.close(e, to)
		sc.exprs(e, end+1, c)
		return sc.alias(end+1, to), nil
	}
	sc.names[i] = true
	rel := sqlname.Relation{Parts: parts, Offset: sc.orig(i)}
	if f.Items == 0 {
		f.First = rel.Offset
	}
	f.Items++
	j := &TokenJoin{Join: Join{Relation: rel, Alias: folded, Inner: !nullable, Offset: rel.Offset}, From: f}
	j.CTE = len(parts) == 1 && sc.ctes[strings.ToLower(folded)]
	next := e
	if alias, k, ok := sc.aliasName(e, to); ok {
		j.Alias, next = alias, k
		if sc.punct(next, '(') {
			next = sc.close(next, to) + 1
		}
	}
	sc.joins = append(sc.joins, j)
	b.joins = append(b.joins, j)
	return next, []*TokenJoin{j}
}

// alias skips the alias of a FROM item at code[i], with its column names.
func (sc *tokenScan) alias(i, to int) int {
	if _, k, ok := sc.aliasName(i, to); ok {
		i = k
		if sc.punct(i, '(') {
			i = sc.close(i, to) + 1
		}
	}
	return i
}

// aliasName reads [AS] alias at code[i], folded as the parser folds it.
func (sc *tokenScan) aliasName(i, to int) (string, int, bool) {
	explicit := sc.word(i) == "AS"
	if explicit {
		i++
	}
	if i >= to {
		return "", i, false
	}
	t := sc.code[i]
	switch t.Kind {
	case sqltext.QuotedIdent:
		return sqltext.IdentName(t.Text(sc.text)), i + 1, true
	case sqltext.Backtick:
		return strings.ReplaceAll(t.Text(sc.text)[1:len(t.Text(sc.text))-1], "``", "`"), i + 1, true
	case sqltext.Word:
		if explicit || !notAliases[sc.word(i)] {
			return strings.ToLower(t.Text(sc.text)), i + 1, true
		}
	}
	return "", i, false
}

// notAliases are the words that may follow a FROM item without being its
// alias.
var notAliases = map[string]bool{
	"JOIN": true, "INNER": true, "LEFT": true, "RIGHT": true, "FULL": true, "CROSS": true, "NATURAL": true,
	"OUTER": true, "ON": true, "USING": true, "WHERE": true, "GROUP": true, "HAVING": true, "QUALIFY": true,
	"WINDOW": true, "ORDER": true, "LIMIT": true, "OFFSET": true, "FETCH": true, "UNION": true,
	"INTERSECT": true, "EXCEPT": true, "MINUS": true, "FOR": true, "TABLESAMPLE": true, "SAMPLE": true,
	"AT": true, "BEFORE": true, "CHANGES": true, "WITH": true, "SET": true, "WHEN": true, "LATERAL": true,
	"ASOF": true, "SEMI": true, "ANTI": true, "PIVOT": true, "UNPIVOT": true, "MATCH_RECOGNIZE": true,
	"START": true, "CONNECT": true, "RETURNING": true, "INTO": true, "VALUES": true, "SELECT": true,
	"TIMESTAMP": true, "VERSION": true, "PARTITION": true, "STRAIGHT_JOIN": true, "APPLY": true,
	"THEN": true, "AND": true, "OR": true, "FINAL": true,
}

// onEnd returns where the ON condition that begins at code[i] ends: at the
// next join, comma or the end of the clause.
func (sc *tokenScan) onEnd(i, to int) int {
	for ; i < to; i++ {
		if sc.open(i) {
			i = sc.close(i, to)
			continue
		}
		if sc.punct(i, ',') || sc.word(i) == "LATERAL" {
			return i
		}
		if _, _, ok := sc.joinOperator(i); ok {
			return i
		}
	}
	return to
}

// joinOperator reads [NATURAL] [INNER | CROSS | LEFT | RIGHT | FULL]
// [OUTER | SEMI | ANTI | ASOF] JOIN (or APPLY) at code[i]: kind is LEFT,
// RIGHT or FULL for an outer join, "" otherwise.
func (sc *tokenScan) joinOperator(i int) (kind string, next int, ok bool) {
	if sc.word(i) == "STRAIGHT_JOIN" {
		return "", i + 1, true
	}
	for k := i; k < i+4; k++ {
		switch w := sc.word(k); w {
		case "JOIN":
			return kind, k + 1, true
		case "APPLY":
			if sc.word(k-1) == "OUTER" {
				kind = "LEFT"
			}
			return kind, k + 1, true
		case "LEFT", "RIGHT", "FULL":
			kind = w
		case "NATURAL", "INNER", "CROSS", "OUTER", "SEMI", "ANTI", "ASOF":
		default:
			return "", i, false
		}
	}
	return "", i, false
}

// notNameWords cannot begin a relation name where one may stand.
var notNameWords = map[string]bool{
	"SELECT": true, "WITH": true, "FROM": true, "WHERE": true, "VALUES": true, "SET": true, "USING": true,
	"ON": true, "WHEN": true, "INTO": true, "TABLE": true, "OVERWRITE": true, "ROW": true, "DEFAULT": true,
	"LATERAL": true, "ONLY": true, "IF": true, "AS": true, "JOIN": true, "PARTITION": true,
}

// name reads a possibly qualified name at code[i]: its parts as written,
// unquoted (a back-ticked name split at its dots, as normalisation does),
// the index after it, and its last part as PostgreSQL folds it. end == i
// when no name begins there.
func (sc *tokenScan) name(i int) (parts []string, end int, folded string) {
	part := func(k int, first bool) ([]string, string, bool) {
		if k >= len(sc.code) {
			return nil, "", false
		}
		text := sc.code[k].Text(sc.text)
		switch sc.code[k].Kind {
		case sqltext.Word:
			if first && notNameWords[strings.ToUpper(text)] {
				return nil, "", false
			}
			return []string{text}, strings.ToLower(text), true
		case sqltext.QuotedIdent:
			n := sqltext.IdentName(text)
			return []string{n}, n, true
		case sqltext.Backtick:
			ps := strings.Split(strings.ReplaceAll(text[1:len(text)-1], "``", "`"), ".")
			return ps, ps[len(ps)-1], true
		}
		return nil, "", false
	}
	ps, last, ok := part(i, true)
	if !ok {
		return nil, i, ""
	}
	parts, folded, end = ps, last, i+1
	for sc.punct(end, '.') {
		ps, last, ok := part(end+1, false)
		if !ok {
			break
		}
		parts, folded, end = append(parts, ps...), last, end+2
	}
	return parts, end, folded
}

// write records a write of the relation named at code[i], its statement's
// keyword at code[keyword], and returns the index after the name with the
// index of the write; w is -1, and nothing is recorded, when no name is
// there.
func (sc *tokenScan) write(kind WriteKind, keyword, i int) (next, w int) {
	parts, e, _ := sc.name(i)
	if e == i {
		return i, -1
	}
	sc.names[i] = true
	sc.tf.Writes = append(sc.tf.Writes, Write{Kind: kind, Target: sqlname.Relation{Parts: parts, Offset: sc.orig(i)}, Offset: sc.orig(keyword)})
	return e, len(sc.tf.Writes) - 1
}

// insert reads INSERT [INTO | OVERWRITE [INTO]] [TABLE] t [PARTITION (...)]
// [REPLACE WHERE ...] [(columns)] query, and Snowflake's multi-table
// INSERT ALL / FIRST.
func (sc *tokenScan) insert(i, to int) {
	flags := sc.st.Flags
	j := i + 1
	overwrite := flags&dialect.InsertOverwrite != 0
	switch sc.word(j) {
	case "OVERWRITE":
		overwrite = true
		j++
		if sc.word(j) == "INTO" {
			j++
		}
	case "INTO":
		j++
	case "ALL", "FIRST":
		first := -1
		for k := j + 1; k < to; k++ {
			switch {
			case sc.open(k):
				k = sc.close(k, to)
			case sc.word(k) == "INTO":
				sc.write(WriteInsert, i, k+1)
			case first < 0 && (sc.word(k) == "SELECT" || sc.word(k) == "WITH"):
				first = k
			}
		}
		if first >= 0 {
			sc.query(first, to, scanCtx{})
		}
		return
	}
	if sc.word(j) == "TABLE" {
		j++
	}
	j, w := sc.write(WriteInsert, i, j)
	if w < 0 {
		return
	}
	kind := WriteInsert
	partitioned := flags&dialect.OverwritePartition != 0
	if sc.word(j) == "PARTITION" && sc.punct(j+1, '(') {
		partitioned = partitioned || overwrite
		j = sc.close(j+1, to) + 1
	}
	if sc.word(j) == "IF" && sc.word(j+1) == "NOT" && sc.word(j+2) == "EXISTS" {
		j += 3
	}
	replaceWhere := flags&dialect.ReplaceWhere != 0
	if sc.word(j) == "REPLACE" && sc.word(j+1) == "WHERE" {
		replaceWhere = true
		end := j + 2
		for end < to && !sc.replacingQuery(end) {
			if sc.open(end) {
				end = sc.close(end, to)
			}
			end++
		}
		// An unclosed bracket runs the predicate to the statement's end, not
		// past it (found by FuzzStatementFacts).
		end = min(end, to)
		sc.cond(j+2, end, false, false)
		j = end
	}
	if sc.word(j) == "BY" && sc.word(j+1) == "NAME" {
		j += 2
	}
	if sc.punct(j, '(') && !sc.startsQuery(j+1) {
		j = sc.close(j, to) + 1
	}
	end := to
	for k := j; k < to; k++ {
		if sc.open(k) {
			k = sc.close(k, to)
			continue
		}
		if sc.word(k) == "ON" && sc.word(k+1) == "CONFLICT" {
			end, kind = k, WriteInsertOnConflict
			break
		}
	}
	switch {
	case overwrite:
		kind = WriteInsertOverwrite
		sc.tf.Writes[w].Partitioned = partitioned
	case replaceWhere:
		kind = WriteReplaceWhere
	}
	sc.tf.Writes[w].Kind = kind
	sc.body(j, end, nil, scanCtx{})
	if end < to {
		sc.exprs(end, to, scanCtx{sub: true})
	}
}

// merge reads MERGE [INTO] t [[AS] a] USING source [[AS] s] ON cond
// WHEN ... clauses.
func (sc *tokenScan) merge(i, to int) {
	j := i + 1
	if sc.word(j) == "WITH" && sc.word(j+1) == "SCHEMA" && sc.word(j+2) == "EVOLUTION" {
		j += 3
	}
	if sc.word(j) == "INTO" {
		j++
	}
	j, w := sc.write(WriteMerge, i, j)
	if w < 0 {
		return
	}
	if j = sc.alias(j, to); sc.word(j) != "USING" {
		return
	}
	j++
	var src *TokenJoin
	switch {
	case sc.open(j):
		end := sc.close(j, to)
		sc.query(j+1, end, scanCtx{depth: 1})
		j = sc.alias(end+1, to)
	default:
		parts, e, folded := sc.name(j)
		if e == j {
			return
		}
		sc.names[j] = true
		rel := sqlname.Relation{Parts: parts, Offset: sc.orig(j)}
		src = &TokenJoin{Join: Join{Relation: rel, Alias: folded, Inner: true, Offset: rel.Offset}}
		src.CTE = len(parts) == 1 && sc.ctes[strings.ToLower(folded)]
		src.From = &TokenFrom{Items: 1, First: rel.Offset, Target: true}
		j = e
		if alias, k, ok := sc.aliasName(j, to); ok {
			src.Alias, j = alias, k
		}
		sc.joins = append(sc.joins, src)
	}
	whens := sc.mergeWhens(j, to)
	if sc.word(j) == "ON" {
		on := sc.cond(j+1, whens[0], false, false)
		sc.exprs(j+1, whens[0], scanCtx{})
		if src != nil {
			src.From.Ons = on.Conjuncts
			for _, cj := range on.Conjuncts {
				src.Partial = src.Partial || cj.Node == nil
			}
		}
	}
	for n, k := range whens[:len(whens)-1] {
		next := whens[n+1]
		then := k
		for then < next && sc.word(then) != "THEN" {
			if sc.open(then) {
				then = sc.close(then, next)
			}
			then++
		}
		if and := sc.indexWord(k, then, "AND"); and >= 0 {
			sc.cond(and+1, then, false, false)
			sc.exprs(and+1, then, scanCtx{})
		}
		sc.exprs(then, next, scanCtx{sub: true})
	}
}

// replacingQuery reports whether the query of INSERT ... REPLACE WHERE
// begins at code[k], rather than a subquery of its condition, the way
// normalisation decides it.
func (sc *tokenScan) replacingQuery(k int) bool {
	switch sc.word(k) {
	case "SELECT", "WITH", "VALUES", "TABLE":
		return true
	}
	if !sc.punct(k, '(') || sc.word(k+1) != "SELECT" && sc.word(k+1) != "WITH" {
		return false
	}
	switch sc.word(k - 1) {
	case "IN", "EXISTS", "ANY", "SOME", "ALL", "AND", "OR", "NOT", "WHERE":
		return false
	}
	return sc.code[k-1].Kind != sqltext.Operator && !sc.punct(k-1, '(') && !sc.punct(k-1, ',')
}

// mergeWhens returns the WHEN [NOT] MATCHED of a MERGE outside brackets,
// after code[j], followed by to; a CASE WHEN in an action is not one.
func (sc *tokenScan) mergeWhens(j, to int) []int {
	var out []int
	for k := j; k < to; k++ {
		if sc.open(k) {
			k = sc.close(k, to)
			continue
		}
		if sc.word(k) == "WHEN" && (sc.word(k+1) == "MATCHED" || sc.word(k+1) == "NOT" && sc.word(k+2) == "MATCHED") {
			out = append(out, k)
		}
	}
	return append(out, to)
}

// indexWord returns the first w outside brackets in code[i:to], or -1.
func (sc *tokenScan) indexWord(i, to int, w string) int {
	for k := i; k < to; k++ {
		if sc.open(k) {
			k = sc.close(k, to)
			continue
		}
		if sc.word(k) == w {
			return k
		}
	}
	return -1
}

// update reads UPDATE [ONLY] t [[AS] a] SET ... [FROM ...] [WHERE ...].
func (sc *tokenScan) update(i, to int) {
	j := i + 1
	if sc.word(j) == "ONLY" {
		j++
	}
	j, w := sc.write(WriteUpdate, i, j)
	if w < 0 {
		return
	}
	sc.body(sc.alias(j, to), to, &scanBlock{target: true, top: true}, scanCtx{})
}

// delete reads DELETE [FROM] t [[AS] a] [USING ...] [WHERE ...].
func (sc *tokenScan) delete(i, to int) {
	j := i + 1
	if sc.word(j) == "FROM" {
		j++
	}
	if sc.word(j) == "ONLY" {
		j++
	}
	j, w := sc.write(WriteDelete, i, j)
	if w < 0 {
		return
	}
	sc.body(sc.alias(j, to), to, &scanBlock{target: true, top: true, using: true}, scanCtx{})
}

// create reads CREATE [OR REPLACE] [modifiers] TABLE | MATERIALIZED VIEW |
// VIEW name ... [AS query]. A view holds no rows and writes nothing, but
// the relations its query joins are read.
func (sc *tokenScan) create(i, to int) {
	j := i + 1
	orReplace := sc.word(j) == "OR" && sc.word(j+1) == "REPLACE"
	if orReplace {
		j += 2
	}
	temp, materialized := false, false
	for more := true; more; {
		switch sc.word(j) {
		case "TEMP", "TEMPORARY":
			temp = true
			j++
		case "MATERIALIZED":
			materialized = true
			j++
		case "TRANSIENT", "VOLATILE", "SECURE", "LOCAL", "GLOBAL", "UNLOGGED", "RECURSIVE", "EXTERNAL":
			j++
		default:
			more = false
		}
	}
	kind := sc.word(j)
	if kind != "TABLE" && kind != "VIEW" {
		return
	}
	j++
	if sc.word(j) == "IF" && sc.word(j+1) == "NOT" && sc.word(j+2) == "EXISTS" {
		j += 3
	}
	w := -1
	if kind == "TABLE" || materialized {
		j, w = sc.write(WriteCreateTable, i, j)
	} else if _, e, _ := sc.name(j); e > j {
		sc.names[j] = true
		j = e
	}
	// A clone or copy fills the table with another's rows, as normalisation
	// says when it writes AS TABLE source.
	filled := false
	switch sc.word(j) {
	case "CLONE", "SHALLOW", "DEEP", "COPY":
		filled = sc.word(j+1) != "GRANTS"
	}
	for k := j; k < to; k++ {
		if sc.open(k) {
			k = sc.close(k, to)
			continue
		}
		if sc.word(k) == "AS" && sc.word(k+1) == "TABLE" {
			filled = true
			break
		}
		if sc.word(k) == "AS" && sc.startsQuery(k+1) {
			filled = true
			sc.body(k+1, to, nil, scanCtx{})
			break
		}
	}
	if w < 0 {
		return
	}
	sc.tf.Writes[w].Temporary = temp
	switch {
	case orReplace:
		sc.tf.Writes[w].Kind = WriteCreateOrReplace
	case filled:
		sc.tf.Writes[w].Kind = WriteCreateTableAs
	}
}

// truncate reads TRUNCATE [TABLE] [IF EXISTS] t [, ...] [PARTITION (...)].
func (sc *tokenScan) truncate(i, to int) {
	j := i + 1
	if sc.word(j) == "TABLE" {
		j++
	}
	if sc.word(j) == "IF" && sc.word(j+1) == "EXISTS" {
		j += 2
	}
	partitioned := sc.st.Flags&dialect.TruncatePartition != 0
	first := len(sc.tf.Writes)
	for j < to {
		if sc.word(j) == "ONLY" {
			j++
		}
		e, w := sc.write(WriteTruncate, i, j)
		if w < 0 {
			break
		}
		j = e
		if sc.op(j) == "*" {
			j++
		}
		if !sc.punct(j, ',') {
			break
		}
		j++
	}
	if sc.word(j) == "PARTITION" && sc.punct(j+1, '(') {
		partitioned = true
	}
	for k := first; k < len(sc.tf.Writes); k++ {
		sc.tf.Writes[k].Partitioned = partitioned
	}
}

// drop reads DROP TABLE | VIEW | MATERIALIZED VIEW | FOREIGN TABLE [IF
// EXISTS] name [, ...].
func (sc *tokenScan) drop(i, to int) {
	j := i + 1
	switch sc.word(j) {
	case "TABLE", "VIEW":
		j++
	case "MATERIALIZED", "FOREIGN":
		if w := sc.word(j + 1); w != "VIEW" && w != "TABLE" {
			return
		}
		j += 2
	default:
		return
	}
	if sc.word(j) == "IF" && sc.word(j+1) == "EXISTS" {
		j += 2
	}
	for j < to {
		e, w := sc.write(WriteDrop, i, j)
		if w < 0 || !sc.punct(e, ',') {
			return
		}
		j = e + 1
	}
}

// copy reads COPY [INTO] t [(columns)] FROM ..., a load into a table; an
// unload (COPY INTO a stage or location, COPY ... TO) writes no relation.
func (sc *tokenScan) copy(i, to int) {
	j := i + 1
	if sc.word(j) == "INTO" {
		j++
	}
	parts, e, _ := sc.name(j)
	if e == j || len(parts) == 0 {
		return
	}
	k := e
	if sc.punct(k, '(') {
		k = sc.close(k, to) + 1
	}
	if sc.word(k) == "FROM" {
		sc.write(WriteCopy, i, j)
	}
}

// alter reads ALTER TABLE t: Snowflake's SWAP WITH b, which normalisation
// leaves as INHERIT b, writes both tables; Hive's DROP [IF EXISTS]
// PARTITION (...) empties those partitions as TRUNCATE ... PARTITION does;
// anything else only names t.
func (sc *tokenScan) alter(i, to int) {
	j := i + 1
	switch sc.word(j) {
	case "TABLE", "VIEW":
		j++
	case "MATERIALIZED", "EXTERNAL", "DYNAMIC", "ICEBERG":
		j += 2
	default:
		return
	}
	if sc.word(j) == "IF" && sc.word(j+1) == "EXISTS" {
		j += 2
	}
	parts, e, _ := sc.name(j)
	if e == j {
		return
	}
	other := -1
	switch {
	case sc.word(e) == "SWAP" && sc.word(e+1) == "WITH":
		other = e + 2
	case sc.word(e) == "INHERIT" && sc.st.Flags&dialect.SwapWith != 0:
		other = e + 1
	case sc.word(e) == "DROP":
		k := e + 1
		if sc.word(k) == "IF" && sc.word(k+1) == "EXISTS" {
			k += 2
		}
		if sc.word(k) == "PARTITION" && sc.punct(k+1, '(') {
			if _, w := sc.write(WriteTruncate, i, j); w >= 0 {
				sc.tf.Writes[w].Partitioned = true
			}
			return
		}
	}
	if other >= 0 {
		if _, e2, _ := sc.name(other); e2 > other && e2 <= to {
			sc.write(WriteSwap, i, j)
			sc.write(WriteSwap, i, other)
			return
		}
	}
	sc.names[j] = true
	sc.tf.Named = append(sc.tf.Named, sqlname.Relation{Parts: parts, Offset: sc.orig(j)})
}

// named reads the relation a maintenance or access command acts on: the
// first name after TABLE (RESTORE TABLE t, ANALYZE TABLE t, COMMENT ON
// TABLE t, GRANT ... ON TABLE t), or right after the keyword (OPTIMIZE t,
// VACUUM t).
func (sc *tokenScan) named(i, to int) {
	j := i + 1
	if k := sc.indexWord(i+1, to, "TABLE"); k >= 0 {
		j = k + 1
	}
	if sc.word(j) == "IF" && sc.word(j+1) == "EXISTS" {
		j += 2
	}
	parts, e, _ := sc.name(j)
	if e == j || e > to {
		return
	}
	sc.names[j] = true
	sc.tf.Named = append(sc.tf.Named, sqlname.Relation{Parts: parts, Offset: sc.orig(j)})
}

// execute reads EXECUTE IMMEDIATE with its SQL written as a literal, or as
// the template of FORMAT(...): the literal's text is read as statements of
// their own, in place, so positions point into it (or at its start, where
// normalisation rewrote the literal whole). SQL built at run time from
// other values cannot be read.
func (sc *tokenScan) execute(i, to int) {
	j := i + 1
	if sc.word(j) != "IMMEDIATE" {
		return
	}
	j++
	if sc.word(j) == "FORMAT" && sc.punct(j+1, '(') {
		j += 2
	}
	if j >= to || sc.code[j].Kind != sqltext.String && sc.code[j].Kind != sqltext.QuotedIdent {
		return
	}
	t := sc.code[j]
	text := t.Text(sc.text)
	open := strings.IndexAny(text, `'"$`)
	if open < 0 {
		return
	}
	delim := 1
	switch {
	case strings.HasPrefix(text[open:], "'''"), strings.HasPrefix(text[open:], `"""`):
		delim = 3
	case text[open] == '$':
		delim = strings.IndexByte(text[open+1:], '$') + 2
	}
	start, end := t.Start+open+delim, t.End-delim
	if end <= start {
		return
	}
	toks, _ := sqltext.Lex(sc.text[start:end])
	inner := sqltext.Code(toks)
	for k := range inner {
		inner[k].Start += start
		inner[k].End += start
	}
	sub := &tokenScan{st: sc.st, text: sc.text, code: inner, ctes: sc.ctes, names: sc.names, tf: sc.tf, parses: sc.parses}
	sub.index()
	from, depth := 0, 0
	for k := 0; k <= len(inner); k++ {
		switch {
		case k == len(inner) || sub.punct(k, ';') && depth == 0:
			if k > from {
				sub.statement(from, k)
			}
			from = k + 1
		case sub.open(k):
			depth++
		case sub.punct(k, ')') || sub.punct(k, ']'):
			depth--
		}
	}
	sc.joins = append(sc.joins, sub.joins...)
}

// selectInto reads SELECT ... INTO [TEMP] t FROM ..., which creates t.
func (sc *tokenScan) selectInto(i, to int) {
	for k := i + 1; k < to; k++ {
		if sc.open(k) {
			k = sc.close(k, to)
			continue
		}
		switch sc.word(k) {
		case "FROM", "WHERE", "UNION", "INTERSECT", "EXCEPT":
			return
		case "INTO":
			j := k + 1
			temp := false
			for more := true; more; {
				switch sc.word(j) {
				case "TEMP", "TEMPORARY":
					temp = true
					j++
				case "UNLOGGED", "TABLE":
					j++
				default:
					more = false
				}
			}
			if _, w := sc.write(WriteCreateTableAs, i, j); w >= 0 {
				sc.tf.Writes[w].Temporary = temp
			}
			return
		}
	}
}

// cond reads the condition between code[i] and code[end]: parsed whole
// when it can be, else split at its top-level AND with each part parsed
// alone, and a part that still does not parse read from its tokens.
func (sc *tokenScan) cond(i, end int, sub, top bool) Cond {
	c := Cond{Sub: sub, Top: top}
	end = min(end, len(sc.code))
	if i >= end {
		return c
	}
	if n := sc.parseExpr(i, end); n != nil {
		for _, x := range Conjuncts(n) {
			c.Conjuncts = append(c.Conjuncts, Conjunct{Node: x})
		}
	} else {
		for _, sp := range sc.split(i, end) {
			cj := Conjunct{Node: sc.parseExpr(sp[0], sp[1])}
			if cj.Node == nil {
				sc.readConjunct(&cj, sp[0], sp[1])
			}
			c.Conjuncts = append(c.Conjuncts, cj)
		}
	}
	sc.tf.Conds = append(sc.tf.Conds, c)
	return c
}

// split cuts a condition at the AND of its top level, skipping the AND of
// BETWEEN and those inside CASE; a condition with an OR at its top level
// is one part, since AND binds tighter.
func (sc *tokenScan) split(i, end int) [][2]int {
	var out [][2]int
	start, cases, between := i, 0, false
	for k := i; k < end; k++ {
		if sc.open(k) {
			k = sc.close(k, end)
			continue
		}
		switch sc.word(k) {
		case "CASE":
			cases++
		case "END":
			cases = max(cases-1, 0)
		case "BETWEEN":
			between = cases == 0
		case "OR":
			if cases == 0 {
				return [][2]int{{i, end}}
			}
		case "AND":
			switch {
			case cases > 0:
			case between:
				between = false
			default:
				if k > start {
					out = append(out, [2]int{start, k})
				}
				start = k + 1
			}
		}
	}
	if end > start {
		out = append(out, [2]int{start, end})
	}
	return out
}

// exprPrefix makes a condition the WHERE of a query of its own.
const exprPrefix = "SELECT 1 WHERE "

// parseExpr parses the expression between code[i] and code[end] on its
// own and moves its locations to offsets of the statement's Text; nil when
// it does not parse as one expression, is past the limits a statement is
// parsed under, or the statement has used up maxExprParses.
func (sc *tokenScan) parseExpr(i, end int) *pg_query.Node {
	if i >= end || end > len(sc.code) || *sc.parses >= maxExprParses {
		return nil
	}
	*sc.parses++
	start := sc.code[i].Start
	frag := sc.text[start:sc.code[end-1].End]
	if len(frag) > MaxStatementBytes || !utf8.ValidString(frag) {
		return nil
	}
	depth := 0
	for k := i; k < end; k++ {
		switch {
		case sc.open(k):
			if depth++; depth > MaxNesting {
				return nil
			}
		case sc.punct(k, ')') || sc.punct(k, ']'):
			depth--
		case sc.punct(k, ';'):
			return nil
		}
	}
	res, err := pg_query.Parse(exprPrefix + frag)
	if err != nil || len(res.Stmts) != 1 {
		return nil
	}
	sel := res.Stmts[0].Stmt.GetSelectStmt()
	where := sel.GetWhereClause()
	if where == nil || len(sel.GetTargetList()) != 1 || len(sel.GetFromClause()) > 0 || len(sel.GetGroupClause()) > 0 ||
		sel.GetHavingClause() != nil || len(sel.GetWindowClause()) > 0 || len(sel.GetSortClause()) > 0 ||
		sel.GetLimitCount() != nil || sel.GetLimitOffset() != nil || len(sel.GetLockingClause()) > 0 ||
		sel.GetIntoClause() != nil || sel.GetOp() != pg_query.SetOperation_SETOP_NONE {
		return nil
	}
	shiftLocations(where, int32(start-len(exprPrefix)))
	return where
}

// shiftLocations adds delta to every known location below n.
func shiftLocations(n proto.Message, delta int32) {
	Walk(n, func(m proto.Message) bool {
		if loc, ok := location(m); ok && loc >= 0 {
			setLocation(m, loc+delta)
		}
		return true
	})
}

// readConjunct reads from its tokens a conjunct that does not parse: the
// columns it uses, its uses of the current time, and the comparison of a
// column with a value it makes.
func (sc *tokenScan) readConjunct(cj *Conjunct, i, end int) {
	for k := i; k < end; k++ {
		if k > i && sc.punct(k-1, '.') {
			continue
		}
		if at, ok := sc.nowAt(k, end); ok {
			cj.Now = append(cj.Now, at)
			continue
		}
		qual, col, e := sc.column(k, end)
		if col == "" {
			continue
		}
		cj.Columns = append(cj.Columns, col)
		if qual == "" {
			cj.bare = true
		} else {
			cj.quals = append(cj.quals, qual)
		}
		k = e - 1
	}
	cj.Bounds = sc.tokenBounds(i, end)
}

// nowAt reports whether code[k] is a use of the current time, and where
// it stands in the original text.
func (sc *tokenScan) nowAt(k, end int) (int, bool) {
	if sc.code[k].Kind != sqltext.Word || k > 0 && sc.punct(k-1, '.') {
		return 0, false
	}
	w := strings.ToLower(sc.code[k].Text(sc.text))
	called := sc.punct(k+1, '(') && k+1 < end
	switch {
	case w == "unix_timestamp":
		if !called || !sc.punct(k+2, ')') {
			return 0, false
		}
	case called && nowFunctions[w], !called && bareNow[w]:
	default:
		return 0, false
	}
	return sc.orig(k), true
}

// bareNow are the names of the current time written without brackets.
var bareNow = map[string]bool{
	"current_date": true, "current_timestamp": true, "current_time": true, "current_datetime": true,
	"localtime": true, "localtimestamp": true, "sysdate": true, "systimestamp": true,
}

// column reads a column reference at code[k]: qualifier (the part before
// the column, lower case; "" for none), column (lower case) and the index
// after it. col is "" when no column stands there: a keyword, a type, a
// function name, a value.
func (sc *tokenScan) column(k, end int) (qual, col string, next int) {
	if k > 0 && sc.op(k-1) == "::" || sc.word(k-1) == "AS" {
		return "", "", k + 1
	}
	parts, e, _ := sc.name(k)
	if e == k || e > end || sc.punct(e, '(') || sc.punct(e, '.') {
		return "", "", k + 1
	}
	if len(parts) == 1 && sc.code[k].Kind == sqltext.Word && notColumns[strings.ToUpper(parts[0])] {
		return "", "", k + 1
	}
	col = strings.ToLower(parts[len(parts)-1])
	if len(parts) > 1 {
		qual = strings.ToLower(parts[len(parts)-2])
	}
	return qual, col, e
}

// notColumns are the words of a condition that are not columns.
var notColumns = map[string]bool{
	"AND": true, "OR": true, "NOT": true, "NULL": true, "IS": true, "IN": true, "BETWEEN": true, "LIKE": true,
	"ILIKE": true, "RLIKE": true, "REGEXP": true, "SIMILAR": true, "ESCAPE": true, "TRUE": true, "FALSE": true,
	"UNKNOWN": true, "CASE": true, "WHEN": true, "THEN": true, "ELSE": true, "END": true, "CAST": true,
	"EXISTS": true, "ANY": true, "ALL": true, "SOME": true, "DISTINCT": true, "INTERVAL": true, "DATE": true,
	"TIME": true, "TIMESTAMP": true, "DATETIME": true, "DAY": true, "DAYS": true, "MONTH": true, "MONTHS": true,
	"YEAR": true, "YEARS": true, "HOUR": true, "HOURS": true, "MINUTE": true, "MINUTES": true, "SECOND": true,
	"SECONDS": true, "WEEK": true, "WEEKS": true, "QUARTER": true, "AT": true, "ZONE": true, "WITH": true,
	"WITHOUT": true, "COLLATE": true, "OVER": true, "PARTITION": true, "BY": true, "ORDER": true, "ASC": true,
	"DESC": true, "NULLS": true, "FIRST": true, "LAST": true, "FILTER": true, "WITHIN": true, "GROUP": true,
	"ROWS": true, "RANGE": true, "PRECEDING": true, "FOLLOWING": true, "UNBOUNDED": true, "CURRENT": true,
	"ROW": true, "SELECT": true, "FROM": true, "WHERE": true, "ARRAY": true, "STRUCT": true, "AS": true,
}

// tokenBounds reads the comparison of a conjunct that does not parse:
// col op value, value op col, or col BETWEEN a AND b, outside brackets. A
// comparison under OR restricts no rows, so it is no bound.
func (sc *tokenScan) tokenBounds(i, end int) []Bound {
	if sc.indexWord(i, end, "OR") >= 0 {
		return nil
	}
	at := sc.orig(i)
	for k := i; k < end; k++ {
		if sc.open(k) {
			k = sc.close(k, end)
			continue
		}
		if sc.word(k) == "BETWEEN" {
			and := sc.indexWord(k+1, end, "AND")
			q, col := sc.sideColumn(i, k)
			if col == "" || and < 0 || sc.word(k-1) == "NOT" {
				return nil
			}
			var out []Bound
			if v, ok := sc.value(k+1, and); ok {
				out = append(out, Bound{Column: col, Qualifier: q, Op: ">=", Value: v, Offset: at})
			}
			if v, ok := sc.value(and+1, end); ok {
				out = append(out, Bound{Column: col, Qualifier: q, Op: "<=", Value: v, Offset: at})
			}
			return out
		}
		op := sc.op(k)
		if !boundOps[op] {
			continue
		}
		if q, col := sc.sideColumn(i, k); col != "" {
			if v, ok := sc.value(k+1, end); ok {
				return []Bound{{Column: col, Qualifier: q, Op: op, Value: v, Offset: at}}
			}
		}
		if q, col := sc.sideColumn(k+1, end); col != "" {
			if v, ok := sc.value(i, k); ok {
				return []Bound{{Column: col, Qualifier: q, Op: flipped[op], Value: v, Offset: at}}
			}
		}
		return nil
	}
	return nil
}

// sideColumn returns the one column code[i:end] compares, through casts
// and date conversions; "" when it holds no column or more than one, or
// calls something else.
func (sc *tokenScan) sideColumn(i, end int) (qual, col string) {
	for k := i; k < end; k++ {
		if sc.punct(k, '(') && !(k > i && (dateConversions[strings.ToLower(sc.code[k-1].Text(sc.text))] || sc.word(k-1) == "CAST")) {
			return "", ""
		}
		q, c, e := sc.column(k, end)
		if c == "" {
			continue
		}
		if col != "" {
			return "", ""
		}
		qual, col, k = q, c, e-1
	}
	return qual, col
}

// value reads code[i:end] as the value side of a comparison: nothing in
// it may be a column.
func (sc *tokenScan) value(i, end int) (Literal, bool) {
	if i >= end {
		return Literal{}, false
	}
	lit := Literal{Offset: sc.orig(i)}
	for k := i; k < end; k++ {
		if at, ok := sc.nowAt(k, end); ok {
			if lit.Kind != LiteralNow {
				lit = Literal{Kind: LiteralNow, Text: strings.ToLower(sc.code[k].Text(sc.text)), Offset: at}
			}
			continue
		}
		if _, c, _ := sc.column(k, end); c != "" {
			return Literal{}, false
		}
	}
	if lit.Kind == LiteralNow {
		return lit, true
	}
	t := sc.code[i]
	switch {
	case end-i == 1 && t.Kind == sqltext.String:
		lit.Kind, lit.Text = LiteralString, unquoteString(t.Text(sc.text))
	case end-i == 1 && t.Kind == sqltext.Number:
		lit.Kind, lit.Text = LiteralNumber, t.Text(sc.text)
	case end-i == 2 && sc.code[i+1].Kind == sqltext.String && (sc.word(i) == "DATE" || sc.word(i) == "TIMESTAMP"):
		lit.Kind, lit.Text = typeKind(sc.word(i)), unquoteString(sc.code[i+1].Text(sc.text))
	case end-i == 3 && t.Kind == sqltext.String && sc.op(i+1) == "::" && sc.code[i+2].Kind == sqltext.Word:
		lit.Kind, lit.Text = typeKind(sc.code[i+2].Text(sc.text)), unquoteString(t.Text(sc.text))
	}
	return lit, true
}

// unquoteString returns the content of a plain '...' string.
func unquoteString(s string) string {
	if len(s) >= 2 && s[0] == '\'' && s[len(s)-1] == '\'' {
		return strings.ReplaceAll(s[1:len(s)-1], "''", "'")
	}
	return s
}

// columns records the statement's qualified column references: dotted
// names that are no relation, function or star.
func (sc *tokenScan) columns() {
	for k := range sc.code {
		if sc.names[k] || k > 0 && sc.punct(k-1, '.') {
			continue
		}
		qual, col, _ := sc.column(k, len(sc.code))
		if qual == "" {
			continue
		}
		if sc.tf.Columns[qual] == nil {
			sc.tf.Columns[qual] = map[string]bool{}
		}
		sc.tf.Columns[qual][col] = true
	}
}

// GuessDialect guesses the warehouse a SQL file is written for, for the
// coverage report; bflint never reads SQL by it. A file with Jinja is
// "dbt". Otherwise each of "bigquery", "snowflake" and "databricks" counts
// the distinct constructs of the file that only it writes, and the one
// with most wins (ties in that order); with none, "postgres".
//
//   - bigquery: a "#" comment, a back-ticked name with a dot or a dash
//     (`project.dataset.table`), OPTIONS(...), arr[SAFE_OFFSET(n)] and its
//     kin, FOR SYSTEM_TIME, DECLARE, a TEMP FUNCTION, COUNTIF, SAFE.f()
//   - snowflake: COPY INTO with FILE_FORMAT or an @stage, INSERT OVERWRITE
//     INTO, IFF, FLATTEN, EXCLUDE, TRANSIENT, CLONE, $1 stage columns,
//     SWAP WITH, ZEROIFNULL
//   - databricks: INSERT OVERWRITE without INTO, INSERT INTO TABLE,
//     REPLACE WHERE, LATERAL VIEW, back-ticked names without dots
//     (`db`.`t`), USING DELTA, TBLPROPERTIES, ZORDER, SCHEMA EVOLUTION,
//     explode(), STRUCT<name: type>, SHALLOW or DEEP CLONE, RESTORE TABLE,
//     COPY INTO's FILEFORMAT and COPY_OPTIONS
//
// QUALIFY, :: casts, col:field paths and ARRAY<...> are left out: more
// than one of them writes those.
func GuessDialect(src string) string {
	toks, _ := sqltext.Lex(src)
	if jinja.Contains(toks) {
		return "dbt"
	}
	seen := map[string]map[string]bool{"bigquery": {}, "snowflake": {}, "databricks": {}}
	mark := func(dialect, construct string) { seen[dialect][construct] = true }
	for _, t := range toks {
		if t.Kind == sqltext.LineComment && src[t.Start] == '#' {
			mark("bigquery", "#")
		}
	}
	code := sqltext.Code(toks)
	word := func(i int) string {
		if i < 0 || i >= len(code) || code[i].Kind != sqltext.Word {
			return ""
		}
		return strings.ToUpper(code[i].Text(src))
	}
	is := func(i int, s string) bool { return i >= 0 && i < len(code) && code[i].Text(src) == s }
	for i, t := range code {
		switch t.Kind {
		case sqltext.Backtick:
			if strings.ContainsAny(t.Text(src), ".-") {
				mark("bigquery", "`a.b`")
			} else {
				mark("databricks", "`a`")
			}
		case sqltext.Param:
			switch text := t.Text(src); {
			case text[0] == '$':
				mark("snowflake", "$1")
			case text[0] == '@' && word(i-1) == "FROM":
				mark("snowflake", "@stage")
			}
		}
		switch w := word(i); w {
		case "OPTIONS", "COUNTIF", "IFF", "FLATTEN", "ZEROIFNULL", "EXPLODE", "POSEXPLODE":
			if is(i+1, "(") {
				mark(map[string]string{"OPTIONS": "bigquery", "COUNTIF": "bigquery", "IFF": "snowflake", "FLATTEN": "snowflake",
					"ZEROIFNULL": "snowflake", "EXPLODE": "databricks", "POSEXPLODE": "databricks"}[w], w)
			}
		case "SAFE_OFFSET", "SAFE_ORDINAL", "ORDINAL", "OFFSET":
			if is(i-1, "[") {
				mark("bigquery", w)
			}
		case "SAFE":
			if is(i+1, ".") {
				mark("bigquery", w)
			}
		case "SYSTEM_TIME", "DECLARE":
			mark("bigquery", w)
		case "FUNCTION":
			if w := word(i - 1); w == "TEMP" || w == "TEMPORARY" {
				mark("bigquery", "TEMP FUNCTION")
			}
		case "FILE_FORMAT", "EXCLUDE", "TRANSIENT":
			mark("snowflake", w)
		case "CLONE":
			if w := word(i - 1); w == "SHALLOW" || w == "DEEP" {
				mark("databricks", "SHALLOW CLONE")
			} else {
				mark("snowflake", w)
			}
		case "SWAP":
			if word(i+1) == "WITH" {
				mark("snowflake", "SWAP WITH")
			}
		case "OVERWRITE":
			if word(i-1) == "INSERT" && word(i+1) == "INTO" {
				mark("snowflake", "INSERT OVERWRITE INTO")
			} else if word(i-1) == "INSERT" {
				mark("databricks", "INSERT OVERWRITE")
			}
		case "TABLE":
			switch word(i - 1) {
			case "INTO":
				if word(i-2) == "INSERT" {
					mark("databricks", "INSERT INTO TABLE")
				}
			case "RESTORE":
				mark("databricks", "RESTORE TABLE")
			}
		case "WHERE":
			if word(i-1) == "REPLACE" {
				mark("databricks", "REPLACE WHERE")
			}
		case "VIEW":
			if word(i-1) == "LATERAL" {
				mark("databricks", "LATERAL VIEW")
			}
		case "DELTA":
			if word(i-1) == "USING" {
				mark("databricks", "USING DELTA")
			}
		case "EVOLUTION":
			if word(i-1) == "SCHEMA" {
				mark("databricks", "SCHEMA EVOLUTION")
			}
		case "TBLPROPERTIES", "ZORDER", "FILEFORMAT", "COPY_OPTIONS":
			mark("databricks", w)
		case "STRUCT":
			if is(i+1, "<") && is(i+3, ":") {
				mark("databricks", "STRUCT<name: type>")
			}
		}
	}
	best, most := "postgres", 0
	for _, d := range []string{"bigquery", "snowflake", "databricks"} {
		if n := len(seen[d]); n > most {
			best, most = d, n
		}
	}
	return best
}
