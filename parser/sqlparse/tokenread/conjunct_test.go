package tokenread

import (
	"strings"
	"testing"

	"github.com/bflint/bflint/parser/sqlparse/fact"
	"github.com/bflint/bflint/parser/sqlparse/internal/facttest"
	"github.com/bflint/bflint/parser/sqlparse/sqltext"
)

// TestConjunctFromTokens reads conjuncts from their tokens alone, as the
// fallback does when one does not parse even on its own.
func TestConjunctFromTokens(t *testing.T) {
	tests := []struct{ text, cols, now, bounds string }{
		{"t.day BETWEEN '2026-01-01' AND DATE '2026-01-31'", "day", "", "t.day >= string:2026-01-01@1:15; t.day <= date:2026-01-31@1:32"},
		{"'2026-01-01' <= t.day", "day", "", "t.day >= string:2026-01-01@1:1"},
		{"date(t.ts) < current_date", "ts", "1:14", "t.ts < now:current_date@1:14"},
		{"ds >= '2026-01-01'::date", "ds", "", "ds >= date:2026-01-01@1:7"},
		{"t.day >= '2026-01-01' OR t.flag", "day,flag", "", ""},
		{"t.a = t.b", "a,b", "", ""},
		{"t.ts > unix_timestamp()", "ts", "1:8", "t.ts > now:unix_timestamp@1:8"},
		{"unix_timestamp(t.ts) > 0", "ts", "", ""},
		{"EXISTS(t.fills, f -> f.fill_date >= CURRENT_DATE)", "fills,f,fill_date", "1:37", ""},
	}
	for _, tt := range tests {
		src := &fact.Source{Text: tt.text, Map: &sqltext.OffsetMap{}}
		toks, _ := sqltext.Lex(tt.text)
		code := sqltext.Code(toks)
		sc := &tokenScan{Cursor: sqltext.NewCursor(tt.text, code), src: src}
		sc.index()
		var cj fact.Conjunct
		sc.readConjunct(&cj, 0, len(sc.Code))
		got := [3]string{strings.Join(cj.Columns, ","), facttest.Offsets(tt.text, cj.Now), facttest.Bounds(tt.text, cj.Bounds)}
		if want := [3]string{tt.cols, tt.now, tt.bounds}; got != want {
			t.Errorf("%s:\ngot  %q\nwant %q", tt.text, got, want)
		}
	}
}
