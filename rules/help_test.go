package rules

import "testing"

func TestSplitHelp(t *testing.T) {
	for _, c := range []struct{ message, headline, help string }{
		{"rerun.write is append: rows double" + HelpMarker + "use merge", "rerun.write is append: rows double", "use merge"},
		{"no help here; not a fix", "no help here; not a fix", ""},
		// The note of a token-read finding belongs to the headline.
		{"INSERT appends" + HelpMarker + "write a MERGE" + TokensNote, "INSERT appends" + TokensNote, "write a MERGE"},
		{"INSERT appends" + TokensNote, "INSERT appends" + TokensNote, ""},
	} {
		headline, help := SplitHelp(c.message)
		if headline != c.headline || help != c.help {
			t.Errorf("SplitHelp(%q) = %q, %q; want %q, %q", c.message, headline, help, c.headline, c.help)
		}
		f := Finding{Message: headline, Help: help}
		if want := c.headline + map[bool]string{true: "; " + c.help, false: ""}[c.help != ""]; f.Text() != want {
			t.Errorf("Text() = %q, want %q", f.Text(), want)
		}
	}
}
