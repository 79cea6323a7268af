package tokenread

import (
	"strings"

	"github.com/bflint/bflint/parser/sqlparse/fact"
	"github.com/bflint/bflint/parser/sqlparse/internal/tree"
	"github.com/bflint/bflint/parser/sqlparse/sqltext"
)

// tokenCTE is a WITH query that selects from one relation.
type tokenCTE struct {
	from *fact.TokenJoin
	// names maps the query's column names to the relation's ("" for a
	// computed one); star is set when it selects * too.
	names map[string]string
	star  bool
}

// cteBody reads the body of a WITH query between code[i] and code[to],
// whose joins were read into joins: a plain SELECT of one relation, or
// nil.
func (sc *tokenScan) cteBody(i, to int, joins []*fact.TokenJoin) *tokenCTE {
	if sc.Word(i) != "SELECT" || len(joins) == 0 {
		return nil
	}
	from := -1
	for k := i + 1; k < to; k++ {
		if sc.open(k) {
			k = sc.close(k, to)
			continue
		}
		switch sc.Word(k) {
		case "FROM":
			if from < 0 {
				from = k
			}
		case "DISTINCT", "GROUP", "HAVING", "QUALIFY", "LIMIT", "WINDOW", "UNION", "INTERSECT", "EXCEPT", "MINUS", "SELECT", "FETCH", "TOP":
			return nil
		}
	}
	f := joins[0]
	if from < 0 || f.From == nil || f.From.Items != 1 || f.Offset != sc.orig(from+1) {
		return nil
	}
	body := &tokenCTE{from: f, names: map[string]string{}}
	for _, item := range sc.selectItems(i+1, from) {
		col, name, star := sc.selectItem(item[0], item[1])
		switch {
		case star:
			body.star = true
		case name != "":
			body.names[name] = col
		}
	}
	return body
}

// selectItems splits a select list between code[i] and code[to] at its
// top-level commas.
func (sc *tokenScan) selectItems(i, to int) [][2]int {
	var out [][2]int
	start := i
	for k := i; k < to; k++ {
		if sc.open(k) {
			k = sc.close(k, to)
			continue
		}
		if sc.Punct(k, ',') {
			out = append(out, [2]int{start, k})
			start = k + 1
		}
	}
	return append(out, [2]int{start, to})
}

// selectItem reads a select-list item between code[i] and code[to]: the
// column it is (lower case; "" when computed), the name it is given, and
// whether it is * or alias.*. A cast (::type) or a COALESCE of a column
// keeps the column, as the tree reader has it; so does CAST(column AS t).
func (sc *tokenScan) selectItem(i, to int) (col, name string, star bool) {
	if to <= i {
		return "", "", false
	}
	if sc.Punct(to-1, '*') || sc.Op(to-1) == "*" {
		return "", "", true
	}
	end := to
	if to-i >= 3 && sc.Word(to-2) == "AS" {
		name, end = sc.identAt(to-1), to-2
	} else if to-i >= 2 && sc.identAt(to-1) != "" && !sc.Punct(to-2, '.') && sc.Op(to-2) != "::" && sc.Word(to-2) != "AS" {
		name, end = sc.identAt(to-1), to-1
	}
	col = sc.plainColumn(i, end)
	if name == "" {
		name = col
	}
	return col, name, false
}

// plainColumn is the column code[i:end] is, through a cast or a COALESCE
// whose first argument it is; "" for anything else.
func (sc *tokenScan) plainColumn(i, end int) string {
	if (sc.Word(i) == "COALESCE" || sc.Word(i) == "CAST") && sc.Punct(i+1, '(') && sc.close(i+1, end) == end-1 {
		parts, e, _ := sc.name(i + 2)
		if e > i+2 && (sc.Punct(e, ',') || sc.Word(e) == "AS" && sc.Word(i) == "CAST" || e == end-1) {
			return strings.ToLower(parts[len(parts)-1])
		}
		return ""
	}
	parts, e, _ := sc.name(i)
	if e == i {
		return ""
	}
	for e < end && sc.Op(e) == "::" {
		if _, after, _ := sc.name(e + 1); after > e+1 {
			e = after
			continue
		}
		break
	}
	if e != end {
		return ""
	}
	return strings.ToLower(parts[len(parts)-1])
}

// identAt is the identifier at code[k] as the parser folds it; "" when
// the token is none.
func (sc *tokenScan) identAt(k int) string {
	if k < 0 || k >= len(sc.Code) {
		return ""
	}
	text := sc.Code[k].Text(sc.Src)
	switch sc.Kind(k) {
	case sqltext.Word:
		if notAliases[sc.Word(k)] {
			return ""
		}
		return strings.ToLower(text)
	case sqltext.QuotedIdent:
		return sqltext.IdentName(text)
	case sqltext.Backtick:
		return strings.ReplaceAll(text[1:len(text)-1], "``", "`")
	}
	return ""
}

// provenance follows a join of a WITH query, through queries that each
// select from one relation, to that relation, as Statement.provenance does
// on a tree.
func (sc *tokenScan) provenance(j *fact.TokenJoin) *fact.Provenance {
	p := &fact.Provenance{Renames: map[string]string{}}
	outer := map[string]string{}
	renamed := false
	name := strings.ToLower(j.Relation.Parts[0])
	for range fact.MaxProvenance {
		body := sc.bodies[name]
		if body == nil {
			return nil
		}
		p.Via = append(p.Via, name)
		for k, v := range body.names {
			renamed = renamed || k != v
		}
		if len(p.Via) == 1 {
			for k, v := range body.names {
				outer[k] = v
			}
		} else {
			for k, v := range outer {
				if below, ok := body.names[v]; ok {
					outer[k] = below
				} else if !body.star {
					outer[k] = ""
				}
			}
		}
		inner := body.from.Alias
		for _, c := range body.from.Where {
			p.Filters = append(p.Filters, tree.Requalified(c, inner, j.Alias))
		}
		if !body.from.CTE {
			p.Relation = body.from.Relation
			p.Relation.Offset = j.Offset
			if renamed {
				p.Renames = outer
			}
			return p
		}
		name = strings.ToLower(body.from.Relation.Parts[0])
	}
	return nil
}
