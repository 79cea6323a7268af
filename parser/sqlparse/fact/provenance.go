package fact

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v5"
	"google.golang.org/protobuf/proto"
)

// maxProvenance bounds a chain of WITH queries each selecting from the
// one before.
const MaxProvenance = 8

// requalified is a copy of a condition whose columns, written with the
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
