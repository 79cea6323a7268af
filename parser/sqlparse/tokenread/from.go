package tokenread

import (
	"strings"

	"github.com/bflint/bflint/parser/sqlname"
	"github.com/bflint/bflint/parser/sqlparse/fact"
	"github.com/bflint/bflint/parser/sqlparse/internal/tree"
	"github.com/bflint/bflint/parser/sqlparse/sqltext"
)

// from reads the items of a FROM clause that begins at code[i] and
// returns where the clause ends.
func (sc *tokenScan) from(i, to int, b *scanBlock, c scanCtx) int {
	end := sc.clauseEnd(i, to, true)
	f := &fact.TokenFrom{FromClause: fact.FromClause{First: -1, Target: b.target, Scalar: c.scalar}}
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
func (sc *tokenScan) items(i, to int, b *scanBlock, f *fact.TokenFrom, c scanCtx, nullable bool) {
	var tree []*fact.TokenJoin // the relations joined since the last comma
	outer := ""                // the kind of the outer join whose right side comes next
	expect := true
	for i < to {
		if expect {
			var rels []*fact.TokenJoin
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
		case sc.Punct(i, ','):
			tree, expect = nil, true
			i++
		case sc.Word(i) == "ON":
			end := sc.onEnd(i+1, to)
			before := len(sc.tf.Conds)
			f.Ons = append(f.Ons, sc.cond(i+1, end, c.sub, false).Conjuncts...)
			if len(sc.tf.Conds) > before { // an empty ON has no condition
				sc.tf.Conds[before].Join = true
			}
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
func (sc *tokenScan) item(i, to int, b *scanBlock, f *fact.TokenFrom, c scanCtx, nullable bool) (int, []*fact.TokenJoin) {
	for sc.Word(i) == "LATERAL" || sc.Word(i) == "ONLY" {
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
		if c.depth < tree.MaxNesting {
			sc.items(i+1, end, b, f, scanCtx{sub: c.sub, scalar: c.scalar, depth: c.depth + 1}, nullable)
		}
		return sc.alias(end+1, to), b.joins[before:]
	}
	parts, e, folded := sc.name(i)
	if e == i {
		f.Items++
		return i + 1, nil
	}
	if sc.Punct(e, '(') {
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
	j := &fact.TokenJoin{Join: fact.Join{Relation: rel, Alias: folded, Inner: !nullable, Offset: rel.Offset}, From: f}
	j.CTE = len(parts) == 1 && sc.ctes[strings.ToLower(folded)]
	next := e
	if alias, k, ok := sc.aliasName(e, to); ok {
		j.Alias, next = alias, k
		if sc.Punct(next, '(') {
			next = sc.close(next, to) + 1
		}
	}
	sc.joins = append(sc.joins, j)
	b.joins = append(b.joins, j)
	return next, []*fact.TokenJoin{j}
}

// alias skips the alias of a FROM item at code[i], with its column names.
func (sc *tokenScan) alias(i, to int) int {
	if _, k, ok := sc.aliasName(i, to); ok {
		i = k
		if sc.Punct(i, '(') {
			i = sc.close(i, to) + 1
		}
	}
	return i
}

// aliasName reads [AS] alias at code[i], folded as the parser folds it.
func (sc *tokenScan) aliasName(i, to int) (string, int, bool) {
	explicit := sc.Word(i) == "AS"
	if explicit {
		i++
	}
	if i >= to {
		return "", i, false
	}
	t := sc.Code[i]
	switch t.Kind {
	case sqltext.QuotedIdent:
		return sqltext.IdentName(t.Text(sc.Src)), i + 1, true
	case sqltext.Backtick:
		return strings.ReplaceAll(t.Text(sc.Src)[1:len(t.Text(sc.Src))-1], "``", "`"), i + 1, true
	case sqltext.Word:
		if explicit || !notAliases[sc.Word(i)] {
			return strings.ToLower(t.Text(sc.Src)), i + 1, true
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
		if sc.Punct(i, ',') || sc.Word(i) == "LATERAL" {
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
	if sc.Word(i) == "STRAIGHT_JOIN" {
		return "", i + 1, true
	}
	for k := i; k < i+4; k++ {
		switch w := sc.Word(k); w {
		case "JOIN":
			return kind, k + 1, true
		case "APPLY":
			if sc.Word(k-1) == "OUTER" {
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
		if k >= len(sc.Code) {
			return nil, "", false
		}
		text := sc.Code[k].Text(sc.Src)
		switch sc.Kind(k) {
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
	for sc.Punct(end, '.') {
		ps, last, ok := part(end+1, false)
		if !ok {
			break
		}
		parts, folded, end = append(parts, ps...), last, end+2
	}
	return parts, end, folded
}
