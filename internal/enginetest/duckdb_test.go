// Package enginetest runs the SQL bflint init writes on a real engine,
// embedded DuckDB. It is a module of its own so that the engine never
// reaches bflint's go.mod or binary; .ci/run runs it.
package enginetest

import (
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	_ "github.com/duckdb/duckdb-go/v2"

	"github.com/bflint/bflint/internal/runsql"
	"github.com/bflint/bflint/parser/plan"
)

// The correction: net amounts of refunded orders in 2026-01-14..2026-01-16
// become 0. The target holds 2026-01-12..2026-01-18, two orders a day;
// the bug began on 2026-01-14, so the control period before the range
// is right as it stands.
var (
	first = time.Date(2026, 1, 12, 0, 0, 0, 0, time.UTC)
	start = time.Date(2026, 1, 14, 0, 0, 0, 0, time.UTC)
	end   = time.Date(2026, 1, 16, 0, 0, 0, 0, time.UTC)
	days  = 7
)

func spec() runsql.Spec {
	return runsql.Spec{
		Dialect: runsql.DuckDB, Target: "analytics.fct_orders", Staging: "backfill_staging.fct_orders__bf20260114_a",
		Rollback: "backfill_rollback.fct_orders__pre_bf20260114_a", PartitionColumn: "order_date", Grain: plan.Day,
		Start: start, End: end, Key: []string{"order_id"},
		Build: []runsql.Query{{First: start, Last: end, SQL: model}},
		// The period init proposes: the range's length, up to a week,
		// just before it (2026-01-11..2026-01-13).
		Control: &runsql.Control{Start: cs, End: ce, Build: []runsql.Query{{First: cs, Last: ce, SQL: model}}},
	}
}

// model is the model's query, as init reads it from a dbt model's file.
const model = "SELECT order_id, order_date, amount,\n       CASE WHEN is_refunded THEN 0 ELSE amount END AS net_amount, is_refunded\nFROM raw.orders"

var cs, ce = runsql.ControlBefore(plan.Day, start, end)

func open(t *testing.T) *sql.DB {
	t.Helper()
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1) // one connection: the transactions are the files'
	t.Cleanup(func() { db.Close() })
	exec(t, db, `CREATE SCHEMA raw; CREATE SCHEMA analytics; CREATE SCHEMA backfill_staging; CREATE SCHEMA backfill_rollback;
CREATE TABLE raw.orders (order_id INTEGER, order_date DATE, amount INTEGER, is_refunded BOOLEAN);
CREATE TABLE analytics.fct_orders (order_id INTEGER, order_date DATE, amount INTEGER, net_amount INTEGER, is_refunded BOOLEAN);`)
	for d := range days {
		day := first.AddDate(0, 0, d).Format(time.DateOnly)
		for k := range 2 {
			id, refunded := d*10+k, k == 1
			exec(t, db, fmt.Sprintf("INSERT INTO raw.orders VALUES (%d, DATE '%s', %d, %v)", id, day, 100+id, refunded))
			// The bug: from 2026-01-14, refunded orders kept their
			// amount as net.
			net := 100 + id
			if refunded && first.AddDate(0, 0, d).Before(start) {
				net = 0
			}
			exec(t, db, fmt.Sprintf("INSERT INTO analytics.fct_orders VALUES (%d, DATE '%s', %d, %d, %v)", id, day, 100+id, net, refunded))
		}
	}
	return db
}

func exec(t *testing.T, db *sql.DB, text string) {
	t.Helper()
	if _, err := db.Exec(text); err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
}

func file(t *testing.T, name string) string {
	t.Helper()
	for _, f := range runsql.Generate(spec()) {
		if f.Name == name {
			return f.Text
		}
	}
	t.Fatalf("Generate wrote no %s", name)
	return ""
}

// rows returns a query's rows as text, one line each, sorted.
func rows(t *testing.T, db *sql.DB, query string) []string {
	t.Helper()
	rs, err := db.Query(query)
	if err != nil {
		t.Fatalf("%v\n%s", err, query)
	}
	defer rs.Close()
	cols, _ := rs.Columns()
	var out []string
	for rs.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rs.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		parts := make([]string, len(vals))
		for i, v := range vals {
			if tm, ok := v.(time.Time); ok {
				v = tm.Format(time.DateOnly)
			}
			parts[i] = fmt.Sprint(v)
		}
		out = append(out, strings.Join(parts, " "))
	}
	if err := rs.Err(); err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

const table = "SELECT * FROM analytics.fct_orders"

// reconciliation runs the check and returns max_row_delta_pct.
func reconciliation(t *testing.T, db *sql.DB) float64 {
	t.Helper()
	var pct float64
	var n int
	if err := db.QueryRow(file(t, "validate_reconciliation.sql")).Scan(&pct, &n); err != nil {
		t.Fatal(err)
	}
	return pct
}

func TestRunOnDuckDB(t *testing.T) {
	db := open(t)
	before := rows(t, db, table)
	build := file(t, "build.sql")

	exec(t, db, build)
	once := rows(t, db, "SELECT * FROM backfill_staging.fct_orders__bf20260114_a")
	exec(t, db, build)
	if twice := rows(t, db, "SELECT * FROM backfill_staging.fct_orders__bf20260114_a"); !slices.Equal(once, twice) {
		t.Fatalf("the build run twice differs:\n%v\n%v", once, twice)
	}

	if dup := rows(t, db, file(t, "assert_unique.sql")); len(dup) != 0 {
		t.Errorf("uniqueness check on clean staging returned %v", dup)
	}
	if pct := reconciliation(t, db); pct > 1 {
		t.Errorf("reconciliation on clean staging: max_row_delta_pct %v, want <= 1", pct)
	}
	if n := changedRows(t, db); n != 0 {
		t.Errorf("control check before the bug: changed_rows %d, want 0", n)
	}

	exec(t, db, file(t, "capture.sql"))
	exec(t, db, file(t, "publish.sql"))
	after := rows(t, db, table)
	changed := map[string]bool{}
	for _, r := range symmetricDifference(before, after) {
		changed[strings.Fields(r)[1]] = true
	}
	want := map[string]bool{"2026-01-14": true, "2026-01-15": true, "2026-01-16": true}
	if fmt.Sprint(changed) != fmt.Sprint(want) {
		t.Errorf("publish changed partitions %v, want exactly %v", changed, want)
	}
	if refunded := rows(t, db, "SELECT net_amount FROM analytics.fct_orders WHERE is_refunded AND order_date BETWEEN DATE '2026-01-14' AND DATE '2026-01-16'"); !slices.Equal(refunded, []string{"0", "0", "0"}) {
		t.Errorf("refunded net amounts in the range after publish: %v", refunded)
	}
	if len(after) != len(before) {
		t.Errorf("publish left %d rows, the table had %d", len(after), len(before))
	}

	exec(t, db, file(t, "rollback.sql"))
	if restored := rows(t, db, table); !slices.Equal(restored, before) {
		t.Errorf("rollback did not restore the table row for row:\n%v\nwant\n%v", restored, before)
	}
}

// changedRows runs the control check and returns changed_rows.
func changedRows(t *testing.T, db *sql.DB) int {
	t.Helper()
	var n int
	if err := db.QueryRow(file(t, "validate_control.sql")).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// The checks fail on the defects they exist for.
func TestChecksCatchPlantedDefects(t *testing.T) {
	db := open(t)
	build := file(t, "build.sql")
	exec(t, db, build)
	exec(t, db, "INSERT INTO backfill_staging.fct_orders__bf20260114_a SELECT * FROM backfill_staging.fct_orders__bf20260114_a WHERE order_id = 20")
	if dup := rows(t, db, file(t, "assert_unique.sql")); !slices.Equal(dup, []string{"20 2"}) {
		t.Errorf("uniqueness check with order 20 twice returned %v, want [20 2]", dup)
	}

	exec(t, db, build)
	exec(t, db, "INSERT INTO backfill_staging.fct_orders__bf20260114_a SELECT * FROM backfill_staging.fct_orders__bf20260114_a WHERE order_date = DATE '2026-01-15'")
	if pct := reconciliation(t, db); pct <= 1 {
		t.Errorf("reconciliation with 2026-01-15 doubled: max_row_delta_pct %v, want > 1", pct)
	}

	exec(t, db, build)
	exec(t, db, "DELETE FROM backfill_staging.fct_orders__bf20260114_a WHERE order_date = DATE '2026-01-16'")
	if pct := reconciliation(t, db); pct != 100 {
		t.Errorf("reconciliation with 2026-01-16 missing: max_row_delta_pct %v, want 100", pct)
	}

	// A new logic that also changes rows the bug never touched: order 11
	// of 2026-01-13 (refunded) is recomputed with another net amount.
	exec(t, db, build)
	exec(t, db, "UPDATE backfill_staging.fct_orders__bf20260114_a_control SET net_amount = 5 WHERE order_id = 11")
	if n := changedRows(t, db); n != 2 {
		t.Errorf("control check with order 11 changed: changed_rows %d, want 2 (its old row and its new one)", n)
	}
}

func symmetricDifference(a, b []string) []string {
	var out []string
	for _, x := range a {
		if !slices.Contains(b, x) {
			out = append(out, x)
		}
	}
	for _, x := range b {
		if !slices.Contains(a, x) {
			out = append(out, x)
		}
	}
	return out
}
