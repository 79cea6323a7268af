// Package lookalike stands in for clients such as sqlx and pgx: types that
// are not database/sql's but take SQL the same way.
package lookalike

import (
	"context"
	"database/sql"
)

// DB embeds *sql.DB, as sqlx.DB does, so Exec and Query are promoted.
type DB struct{ *sql.DB }

// Conn has pgx's shape: a context, the SQL, then the arguments.
type Conn struct{}

func (c *Conn) Exec(ctx context.Context, sql string, arguments ...any) (int64, error) { return 0, nil }

// Shell shares a method name but takes no SQL arguments.
type Shell struct{}

func (Shell) Exec(command string) error { return nil }

// Cache's Query takes a key, then a limit: not SQL's shape.
type Cache struct{}

func (Cache) Query(key string, limit int) []string { return nil }

// Execer is an interface over any of them.
type Execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}
