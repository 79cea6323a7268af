package fact

import pg_query "github.com/pganalyze/pg_query_go/v5"

// The walks read pg_query's generated structs through generated code rather
// than protobuf reflection, which asks each of Node's 250 oneof members
// whether it is set and made walking a statement cost more than parsing it.
//go:generate go run ../internal/walkgen/cmd/main.go -o walk_gen.go

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
