package bqetl

import (
	"strings"
	"testing"
	"time"
)

func TestBindDate(t *testing.T) {
	day := time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC)
	got, err := BindDate("-- @submission_date in a comment stays\nSELECT '@submission_date' AS s, x\nFROM t\nWHERE d = @Submission_Date\n  AND e < DATE_ADD(@submission_date, INTERVAL 1 DAY);\n", "submission_date", day)
	if err != nil {
		t.Fatal(err)
	}
	want := "-- @submission_date in a comment stays\nSELECT '@submission_date' AS s, x\nFROM t\nWHERE d = DATE '2026-03-02'\n  AND e < DATE_ADD(DATE '2026-03-02', INTERVAL 1 DAY)"
	if got != want {
		t.Errorf("bound query:\n%s\nwant:\n%s", got, want)
	}
	for query, why := range map[string]string{
		"SELECT * FROM t WHERE d = {{ ds }}":                            "Jinja",
		"SELECT * FROM t WHERE d = @submission_date AND s = @sample_id": "@sample_id",
		"DECLARE x INT64; SELECT * FROM t WHERE d = @submission_date":   "more than one statement",
		"SELECT * FROM t": "never reads @submission_date",
		"SELECT 'unterminated FROM t WHERE d = @submission_date": "cannot be read",
	} {
		if _, err := BindDate(query, "submission_date", day); err == nil || !strings.Contains(err.Error(), why) {
			t.Errorf("BindDate(%q) = %v, want an error saying %q", query, err, why)
		}
	}
}
