package sqlparse

import "testing"

func TestScanSpansAndComments(t *testing.T) {
	src := "-- header\nSELECT 1;  -- after one\n\n/* block */ INSERT INTO t VALUES (';');\nDELETE FROM t"
	got, err := Scan(src)
	if err != nil {
		t.Fatal(err)
	}
	wantStmts := []string{"SELECT 1;", "INSERT INTO t VALUES (';');", "DELETE FROM t"}
	if len(got.Statements) != len(wantStmts) {
		t.Fatalf("got %d statements, want %d", len(got.Statements), len(wantStmts))
	}
	for i, s := range got.Statements {
		if text := src[s.Start:s.End]; text != wantStmts[i] {
			t.Errorf("statement %d = %q, want %q", i, text, wantStmts[i])
		}
	}
	wantComments := []struct {
		text     string
		trailing bool
	}{{"header", false}, {"after one", true}, {"block", false}}
	if len(got.Comments) != len(wantComments) {
		t.Fatalf("got %d comments, want %d", len(got.Comments), len(wantComments))
	}
	for i, c := range got.Comments {
		if c.Text != wantComments[i].text || c.Trailing != wantComments[i].trailing {
			t.Errorf("comment %d = %q trailing=%v, want %q trailing=%v", i, c.Text, c.Trailing, wantComments[i].text, wantComments[i].trailing)
		}
	}
}

func TestScanRejectsUnterminatedString(t *testing.T) {
	if _, err := Scan("SELECT 'open"); err == nil {
		t.Fatal("want an error for an unterminated string")
	}
}
