package daterange

import (
	"github.com/bflint/bflint/parser/sqlparse"
	"github.com/bflint/bflint/rules"
)

// partitionColumn returns the first partition column the condition refers
// to, at any depth; "" when it refers to none.
func partitionColumn(pass *rules.Pass, c sqlparse.Condition) string {
	for _, col := range c.Columns() {
		if pass.IsPartitionColumn(col) {
			return col
		}
	}
	return ""
}
