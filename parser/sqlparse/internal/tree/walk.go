// Package tree reads pg_query parse trees for both readers of a
// statement: walking them, finding the current time and the names they
// hold, and the limits a text is checked against before it is parsed.
package tree

import pg_query "github.com/pganalyze/pg_query_go/v5"

// The walks read pg_query's generated structs through generated code rather
// than protobuf reflection, which asks each of Node's 250 oneof members
// whether it is set and made walking a statement cost more than parsing it.
//go:generate go run ../walkgen/cmd/main.go -o walk_gen.go

// withClause returns the WITH of a statement that can have one.
func withClause(m any) *pg_query.WithClause {
	switch x := m.(type) {
	case *pg_query.SelectStmt:
		return x.GetWithClause()
	case *pg_query.InsertStmt:
		return x.GetWithClause()
	case *pg_query.UpdateStmt:
		return x.GetWithClause()
	case *pg_query.DeleteStmt:
		return x.GetWithClause()
	case *pg_query.MergeStmt:
		return x.GetWithClause()
	}
	return nil
}
