package sqltext

import (
	"slices"
	"strings"
	"testing"
)

// pooledCases are texts whose tokens LexPooled must give as Lex does,
// among them those Lex reads a second time in another mode and those it
// stops in.
var pooledCases = []string{
	"SELECT a, b FROM t WHERE x = 'y' -- note\n",
	`SELECT 'it\'s' AS a`,
	`SELECT 'p[''' || REPLACE(x, '.', '''][''') || ''']' AS path`,
	"SELECT 1;\x00junk",
	"SELECT 1; SELECT 'open",
	"{{ config(materialized='table') }} SELECT * FROM {{ ref('a') }} {# note #}",
	"",
}

func TestLexPooledGivesLexTokens(t *testing.T) {
	for _, src := range pooledCases {
		want, wantErr := Lex(src)
		for range 3 { // the later rounds read into buffers given back
			l := LexPooled(src)
			if !slices.Equal(l.Tokens, want) || !slices.Equal(l.Code, Code(want)) {
				t.Errorf("LexPooled(%q):\n got %s\nwant %s", src, kinds(src, l.Tokens), kinds(src, want))
			}
			if (l.Err == nil) != (wantErr == nil) || l.Err != nil && *l.Err != *wantErr {
				t.Errorf("LexPooled(%q): error %+v, want %+v", src, l.Err, wantErr)
			}
			l.Release()
		}
	}
}

func TestLexPooledGrowsForDenseText(t *testing.T) {
	// One token a byte and a half, far denser than the buffer is sized
	// for: the buffer grows, once projected from what was lexed.
	src := strings.Repeat("(1,2),", 40_000)
	want, _ := Lex(src)
	l := LexPooled(src)
	defer l.Release()
	if !slices.Equal(l.Tokens, want) {
		t.Fatalf("got %d tokens, want %d", len(l.Tokens), len(want))
	}
	if c := cap(l.Tokens); c > len(want)*5/4 {
		t.Errorf("a buffer of %d for %d tokens: growing it overshot", c, len(want))
	}
	// The buffer sized for the text, the one it grows into, the code
	// tokens and the Lexed: growing a quarter at a time, as append does,
	// would take a dozen.
	if n := testing.AllocsPerRun(5, func() { LexPooled(src).Release() }); n > 4 {
		t.Errorf("%v allocations to lex a dense text, want at most 4", n)
	}
}

func TestLexPooledReusesBuffers(t *testing.T) {
	src := "SELECT a, b, c FROM t JOIN u ON t.id = u.id WHERE t.d >= '2024-01-01';"
	LexPooled(src).Release()
	if n := testing.AllocsPerRun(100, func() { LexPooled(src).Release() }); n > 1 {
		t.Errorf("%v allocations a lex, want at most 1 (the Lexed itself)", n)
	}
}
