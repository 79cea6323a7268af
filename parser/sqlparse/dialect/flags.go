package dialect

// Flags record what the dialect rewrites removed from a statement, so that
// rules still know what the user's SQL does (a CREATE OR REPLACE parses as
// CREATE, an INSERT OVERWRITE as INSERT).
type Flags uint32

const (
	CreateOrReplace    Flags = 1 << iota // CREATE OR REPLACE TABLE/VIEW
	InsertOverwrite                      // INSERT OVERWRITE
	OverwritePartition                   // INSERT OVERWRITE ... PARTITION (...)
	ReplaceWhere                         // INSERT INTO t REPLACE WHERE ...
	CopyInto                             // Snowflake COPY INTO t
	MergeBySource                        // MERGE ... WHEN NOT MATCHED BY SOURCE
	// MergeAllColumns: MERGE ... UPDATE SET * or INSERT * / INSERT ROW,
	// which parse as UPDATE SET "*" = DEFAULT and INSERT DEFAULT VALUES
	// but write every column of the source.
	MergeAllColumns
	Qualify           // a QUALIFY filter (often a dedupe) was removed
	GroupByAll        // GROUP BY ALL, parsed as GROUP BY ()
	SwapWith          // Snowflake ALTER TABLE t SWAP WITH s, parsed as INHERIT s
	TruncatePartition // TRUNCATE TABLE t PARTITION (...): only those partitions
)
