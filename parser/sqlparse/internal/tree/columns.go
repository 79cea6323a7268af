package tree

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v5"
	"google.golang.org/protobuf/proto"
)

// Mentions reports whether n refers to a column qualified by qual, at any
// depth: a correlated subquery that uses the relation mentions it too.
func Mentions(n *pg_query.Node, qual string) bool {
	found := false
	Inspect(n, func(m proto.Message, _ *Scope) bool {
		if c, ok := m.(*pg_query.ColumnRef); ok && !found {
			if q, _ := ColumnName(c); q != "" && strings.EqualFold(LastPart(q), qual) {
				found = true
			}
		}
		return !found
	})
	return found
}

// MentionsUnqualified reports whether n uses a column without a qualifier
// outside subqueries, whose unqualified columns are their own.
func MentionsUnqualified(n *pg_query.Node) bool {
	found := false
	Inspect(n, func(m proto.Message, _ *Scope) bool {
		switch x := m.(type) {
		case *pg_query.SelectStmt:
			return false
		case *pg_query.ColumnRef:
			if q, col := ColumnName(x); q == "" && col != "" {
				found = true
			}
		}
		return !found
	})
	return found
}

// ColumnName splits a column reference into its qualifier (the dotted parts
// before the column, in lower case) and the column, in lower case; col is
// "" for t.* and similar.
func ColumnName(c *pg_query.ColumnRef) (qual, col string) {
	fields := c.GetFields()
	if len(fields) == 0 {
		return "", ""
	}
	col = strings.ToLower(fields[len(fields)-1].GetString_().GetSval())
	quals := make([]string, 0, len(fields)-1)
	for _, f := range fields[:len(fields)-1] {
		quals = append(quals, strings.ToLower(f.GetString_().GetSval()))
	}
	return strings.Join(quals, "."), col
}

func LastPart(dotted string) string { return dotted[strings.LastIndexByte(dotted, '.')+1:] }

func OpName(e *pg_query.A_Expr) string {
	names := e.GetName()
	if len(names) == 0 {
		return ""
	}
	return names[len(names)-1].GetString_().GetSval()
}

// Requalified is a copy of a condition whose columns, written with the
// inner alias or none, are qualified by alias instead: the condition of a
// WITH query said of the name it is joined under. Subqueries keep their
// own columns.
func Requalified(n *pg_query.Node, inner, alias string) *pg_query.Node {
	c := proto.Clone(n).(*pg_query.Node)
	var visit func(m proto.Message) bool
	visit = func(m proto.Message) bool {
		switch x := m.(type) {
		case *pg_query.SubLink:
			return false
		case *pg_query.ColumnRef:
			fields := x.GetFields()
			if len(fields) == 0 || fields[len(fields)-1].GetAStar() != nil {
				return false
			}
			switch {
			case len(fields) == 1:
				x.Fields = append([]*pg_query.Node{pg_query.MakeStrNode(alias)}, fields...)
			case len(fields) == 2 && strings.EqualFold(fields[0].GetString_().GetSval(), inner):
				x.Fields = []*pg_query.Node{pg_query.MakeStrNode(alias), fields[1]}
			}
		}
		return true
	}
	Walk(c, visit)
	return c
}
