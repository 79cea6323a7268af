package queries

import (
	"context"
	"database/sql"
	"lookalike"
)

const table = "analytics.fct_orders"

const appendSQL = "INSERT INTO " + table + " SELECT * FROM staging.orders"

func direct(ctx context.Context, db *sql.DB, tx *sql.Tx, conn *sql.Conn) {
	db.Exec("INSERT INTO analytics.fct_orders SELECT * FROM staging.orders")             // want `BF201 append-write: INSERT into "analytics.fct_orders" appends`
	tx.ExecContext(ctx, `INSERT INTO analytics.fct_orders SELECT * FROM staging.orders`) // want `BF201 append-write`
	conn.QueryRowContext(ctx, "INSERT INTO analytics.fct_orders SELECT 1 RETURNING 1")   // want `BF201 append-write`
	db.Query(appendSQL)                                                                  // want `BF201 append-write: INSERT into "analytics.fct_orders"`
	db.Exec("INSERT INTO analytics.fct_orders " + "SELECT * FROM staging.orders")        // want `BF201 append-write`

	// A replace in one transaction is fine, and so is a read.
	db.Exec("BEGIN; DELETE FROM analytics.fct_orders WHERE day = $1; INSERT INTO analytics.fct_orders SELECT * FROM staging.orders WHERE day = $1; COMMIT;", "2026-01-01")
	db.QueryRow("SELECT count(*) FROM analytics.fct_orders")

	// Not constant: nothing to check.
	q := appendSQL
	db.Exec(q)

	// Stmt carries no SQL: it was given to Prepare.
	stmt, _ := db.Prepare("SELECT 1")
	stmt.Exec(1)

	// A directive in the SQL suppresses the finding, as in a .sql file.
	db.Exec("-- bflint:ignore BF201 the staging table is emptied after each load\nINSERT INTO analytics.fct_orders SELECT * FROM staging.orders")
}

func clients(ctx context.Context, x *lookalike.DB, c *lookalike.Conn, sh lookalike.Shell, cache lookalike.Cache, e lookalike.Execer) {
	x.Exec("INSERT INTO analytics.fct_orders SELECT * FROM staging.orders")             // want `BF201`
	c.Exec(ctx, "INSERT INTO analytics.fct_orders SELECT * FROM staging.orders")        // want `BF201`
	e.ExecContext(ctx, "INSERT INTO analytics.fct_orders SELECT * FROM staging.orders") // want `BF201`
	sh.Exec("INSERT INTO analytics.fct_orders SELECT * FROM staging.orders")
	cache.Query("INSERT INTO analytics.fct_orders SELECT * FROM staging.orders", 10)
}
