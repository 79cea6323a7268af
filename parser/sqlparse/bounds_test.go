package sqlparse

import (
	"fmt"
	"testing"

	"github.com/bflint/bflint/parser/sqlparse/internal/facttest"
)

func TestBounds(t *testing.T) {
	// Each predicate is the WHERE of "SELECT 1 FROM t WHERE ", so its
	// first character is at 1:23.
	cases := []struct{ pred, want string }{
		{"d >= DATE '2026-01-14' AND d < DATE '2026-02-01'",
			"d >= date:2026-01-14@1:28; d < date:2026-02-01@1:54"},
		{"'2026-01-14'::date <= t.d", "t.d >= date:2026-01-14@1:23"},
		{"CAST('2026-01-14' AS DATE) > d", "d < date:2026-01-14@1:23"},
		{"ts >= TIMESTAMP '2026-11-29 00:00'", "ts >= timestamp:2026-11-29 00:00@1:29"},
		{"ts < '2026-11-29T00:00:00'::timestamptz", "ts < timestamp:2026-11-29T00:00:00@1:28"},
		{"d BETWEEN '2026-01-14' AND '2026-06-30'", "d >= string:2026-01-14@1:33; d <= string:2026-06-30@1:50"},
		{"date_key = 20260114", "date_key = number:20260114@1:34"},
		{"d >= DATE('2026-01-14')", "d >= date:2026-01-14@1:28"},
		{"date(ts) >= '2026-01-14'", "ts >= string:2026-01-14@1:35"},
		{"date_trunc('day', ts) < '2026-01-14'", "ts < string:2026-01-14@1:47"},
		{"d >= CURRENT_DATE - INTERVAL '1 day'", "d >= now:current_date@1:28"},
		{"d >= date_sub(current_date, 1)", "d >= now:current_date@1:37"},
		{"d >= date_sub(current_date(), 1)", "d >= now:current_date@1:37"},
		{"d < getdate() AND e <= sysdate AND f = now()", "d < now:getdate@1:27; e <= now:sysdate@1:46; f = now:now@1:62"},
		{"d > (SELECT max(d) FROM t2)", "d > other:@1:27"},
		{"d >= $1", "d >= other:@1:28"},
		// Only AND restricts rows: the bound under OR is not one.
		{"(d >= DATE '2026-01-14' OR d IS NULL) AND d < DATE '2026-02-01'", "d < date:2026-02-01@1:69"},
		{"NOT (d < '2026-01-01')", ""},
		{"d NOT BETWEEN '2026-01-01' AND '2026-01-31'", ""},
		{"d <> '2026-01-01'", ""},
		{"a.d >= b.d AND a.ts < COALESCE(b.valid_to, '9999-12-31')", ""},
		{"d >= e + 1", ""},
	}
	for _, c := range cases {
		t.Run(c.pred, func(t *testing.T) {
			src := "SELECT 1 FROM t WHERE " + c.pred
			st := last(t, src)
			if got := facttest.Bounds(src, Bounds(st, st.Select().GetWhereClause())); got != c.want {
				t.Errorf("got  %q\nwant %q", got, c.want)
			}
		})
	}
}

func TestBoundOffsetIsTheComparison(t *testing.T) {
	src := "SELECT 1 FROM t\nWHERE DATE '2026-01-14' <= r.d AND r.d BETWEEN 1 AND 2"
	st := last(t, src)
	var got []string
	for _, b := range Bounds(st, st.Select().GetWhereClause()) {
		got = append(got, b.Op+"@"+facttest.At(src, b.Offset))
	}
	if fmt.Sprint(got) != "[>=@2:7 >=@2:36 <=@2:36]" {
		t.Errorf("got %v", got)
	}
}

func TestNowCalls(t *testing.T) {
	src := "INSERT INTO t SELECT * FROM s\nWHERE d >= CURRENT_DATE - 1 AND d < (SELECT now())\n  AND x = sysdate AND y <= localtimestamp AND z > unix_timestamp(w) AND current_user = 'me'"
	st := last(t, src)
	var got []string
	for _, off := range NowCalls(st, st.Select().GetWhereClause()) {
		got = append(got, facttest.At(src, off))
	}
	if fmt.Sprint(got) != "[2:12 2:45 3:11 3:28]" {
		t.Errorf("got %v", got)
	}
	if NowCalls(st, nil) != nil {
		t.Error("no expression, no calls")
	}
}
