package fact

import (
	"github.com/bflint/bflint/parser/sqlname"
	pg_query "github.com/pganalyze/pg_query_go/v5"
)

// WriteKind is how a statement changes a relation.
type WriteKind int

const (
	WriteNone             WriteKind = iota
	WriteInsert                     // INSERT INTO without ON CONFLICT
	WriteInsertOnConflict           // INSERT ... ON CONFLICT (DoUpdate tells DO UPDATE from DO NOTHING)
	WriteInsertOverwrite            // INSERT OVERWRITE (Partitioned when it names a PARTITION)
	WriteReplaceWhere               // INSERT INTO t REPLACE WHERE ...
	WriteMerge                      // MERGE
	WriteCreateTableAs              // CREATE TABLE ... AS, CREATE MATERIALIZED VIEW ... AS, SELECT ... INTO
	WriteCreateOrReplace            // CREATE OR REPLACE TABLE, with or without AS
	WriteCreateTable                // CREATE TABLE with a column list
	WriteDelete                     // DELETE
	WriteUpdate                     // UPDATE
	WriteTruncate                   // TRUNCATE
	WriteDrop                       // DROP TABLE, VIEW, MATERIALIZED VIEW, FOREIGN TABLE
	WriteCopy                       // COPY ... FROM, Snowflake COPY INTO a table
	WriteSwap                       // Snowflake ALTER TABLE a SWAP WITH b: each table is written
)

var writeKindNames = [...]string{
	WriteNone:             "none",
	WriteInsert:           "INSERT",
	WriteInsertOnConflict: "INSERT ON CONFLICT",
	WriteInsertOverwrite:  "INSERT OVERWRITE",
	WriteReplaceWhere:     "REPLACE WHERE",
	WriteMerge:            "MERGE",
	WriteCreateTableAs:    "CREATE TABLE AS",
	WriteCreateOrReplace:  "CREATE OR REPLACE",
	WriteCreateTable:      "CREATE TABLE",
	WriteDelete:           "DELETE",
	WriteUpdate:           "UPDATE",
	WriteTruncate:         "TRUNCATE",
	WriteDrop:             "DROP",
	WriteCopy:             "COPY",
	WriteSwap:             "SWAP",
}

func (k WriteKind) String() string {
	if k >= 0 && int(k) < len(writeKindNames) {
		return writeKindNames[k]
	}
	return "WriteKind(?)"
}

// Write is what a statement writes.
type Write struct {
	Kind WriteKind
	// Target is the written relation; its Offset is the name in the
	// statement, where BF201, BF302 and BF504 report.
	Target sqlname.Relation
	// Temporary is set for a TEMPORARY table, which ends with the session.
	Temporary bool
	// Columns is the INSERT column list, the column list of the first WHEN
	// NOT MATCHED THEN INSERT of a MERGE, or the names given to a CREATE
	// TABLE ... AS; nil when none is written. Unquoted names are in lower
	// case, as the parser folds them.
	Columns []string
	// ConflictColumns are the columns of ON CONFLICT (...).
	ConflictColumns []string
	// DoUpdate is set for ON CONFLICT ... DO UPDATE.
	DoUpdate bool
	// Partitioned is set for INSERT OVERWRITE ... PARTITION (...) and
	// TRUNCATE ... PARTITION (...), which replace or empty the named
	// partitions rather than the whole table.
	Partitioned bool
	// Replaces is set for a MERGE ON FALSE that deletes with WHEN NOT
	// MATCHED BY SOURCE: it matches no row, so it deletes the target rows
	// its condition names and inserts every source row, replacing them in
	// one statement with no key to merge on (BigQuery's idiom).
	Replaces bool
	// Where is the WHERE of a DELETE or UPDATE.
	Where *pg_query.Node
	// Offset is the statement's keyword (after any WITH queries).
	Offset int
}
