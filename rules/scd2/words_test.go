package scd2

import (
	"strings"
	"testing"
)

// TestLowerASCII checks the eight-bytes-at-a-time lowering against the
// byte-by-byte one, for every byte at every position of a word.
func TestLowerASCII(t *testing.T) {
	slow := func(s string) string {
		b := []byte(s)
		for i, c := range b {
			if 'A' <= c && c <= 'Z' {
				b[i] = c + 'a' - 'A'
			}
		}
		return string(b)
	}
	inputs := []string{"", "A", "SELECT Valid_From FROM Dim_Customer", "ÄÖÜ @[`{ AZaz 09 _"}
	for c := range 256 {
		for pos := range 9 {
			b := []byte("abcdefghijk")
			b[pos] = byte(c)
			inputs = append(inputs, string(b))
		}
	}
	for _, in := range inputs {
		if got, want := lowerASCII(in), slow(in); got != want {
			t.Errorf("lowerASCII(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestColumnWordIn checks the search from the rarest byte against
// strings.Contains.
func TestColumnWordIn(t *testing.T) {
	texts := []string{
		"", "valid_from", "select dbt_valid_from from s", "effective_date", "effectiv_from effective_fro",
		"is_current_version", "x is_curren is_current", "expiry_dat expiry_date", "current_fla current_flag",
		strings.Repeat("e_", 50) + "effective_to",
	}
	for _, w := range []string{"valid_from", "effective_from", "effective_date", "effective_to", "expiry_date", "is_current", "current_flag", "is_latest", "e", "zz"} {
		c := newColumnWord(w)
		for _, text := range texts {
			if got, want := c.in(text), strings.Contains(text, w); got != want {
				t.Errorf("%q (anchor %d) in %q = %v, want %v", w, c.anchor, text, got, want)
			}
		}
	}
}
