package tree

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v5"
)

var BoundOps = map[string]bool{"=": true, "<": true, "<=": true, ">": true, ">=": true}

// DateConversions keep a column's order, so a bound on date(col) bounds col.
var DateConversions = map[string]bool{"date": true, "to_date": true, "date_trunc": true, "trunc": true, "timestamp_trunc": true, "datetime_trunc": true}

func FuncName(f *pg_query.FuncCall) string {
	names := f.GetFuncname()
	if len(names) == 0 {
		return ""
	}
	return strings.ToLower(names[len(names)-1].GetString_().GetSval())
}

var NowValueFunctions = map[pg_query.SQLValueFunctionOp]string{
	pg_query.SQLValueFunctionOp_SVFOP_CURRENT_DATE:        "current_date",
	pg_query.SQLValueFunctionOp_SVFOP_CURRENT_TIME:        "current_time",
	pg_query.SQLValueFunctionOp_SVFOP_CURRENT_TIME_N:      "current_time",
	pg_query.SQLValueFunctionOp_SVFOP_CURRENT_TIMESTAMP:   "current_timestamp",
	pg_query.SQLValueFunctionOp_SVFOP_CURRENT_TIMESTAMP_N: "current_timestamp",
	pg_query.SQLValueFunctionOp_SVFOP_LOCALTIME:           "localtime",
	pg_query.SQLValueFunctionOp_SVFOP_LOCALTIME_N:         "localtime",
	pg_query.SQLValueFunctionOp_SVFOP_LOCALTIMESTAMP:      "localtimestamp",
	pg_query.SQLValueFunctionOp_SVFOP_LOCALTIMESTAMP_N:    "localtimestamp",
}

// NowFunctions are called with parentheses; the SQL-standard keywords reach
// pg_query as SQLValueFunction, but warehouses also accept them as calls.
var NowFunctions = map[string]bool{
	"now": true, "getdate": true, "getutcdate": true, "sysdate": true, "systimestamp": true,
	"sysdatetime": true, "sysdatetimeoffset": true, "current_date": true, "current_timestamp": true,
	"current_time": true, "current_datetime": true, "localtimestamp": true, "localtime": true,
	"transaction_timestamp": true, "statement_timestamp": true, "clock_timestamp": true,
	"timeofday": true, "utc_timestamp": true, "utc_date": true, "curdate": true, "today": true,
	"unix_timestamp": true,
}

// NowColumns are Oracle-style names used without parentheses, which
// PostgreSQL reads as column names.
var NowColumns = map[string]bool{"sysdate": true, "systimestamp": true}

func IsNowColumn(c *pg_query.ColumnRef) bool {
	fields := c.GetFields()
	return len(fields) == 1 && NowColumns[strings.ToLower(fields[0].GetString_().GetSval())]
}
