package sqlparse

import "strings"

// mark records what a dialect rewrite removed, at an original offset.
type mark struct {
	offset int
	flags  Flags
}

// dialectEdits rewrites warehouse syntax into PostgreSQL syntax the parser
// reads, token by token on the original text, and marks what each rewrite
// removed so rules still see the user's intent.
func dialectEdits(src string, toks []Token) ([]edit, []mark) {
	var edits []edit
	var marks []mark
	code := codeTokens(toks)
	word := func(i int) string {
		if i < 0 || i >= len(code) || code[i].Kind != Word {
			return ""
		}
		return strings.ToUpper(code[i].Text(src))
	}
	for i, t := range code {
		switch t.Kind {
		case Backtick:
			edits = append(edits, edit{t.Start, t.End, backtickToQuoted(t.Text(src))})
		case Word:
			if word(i) == "CREATE" && word(i+1) == "OR" && word(i+2) == "REPLACE" {
				j := i + 3
				var drop []Token
				for word(j) == "TRANSIENT" || word(j) == "TEMPORARY" || word(j) == "TEMP" || word(j) == "VOLATILE" {
					if word(j) == "TRANSIENT" || word(j) == "VOLATILE" {
						drop = append(drop, code[j])
					}
					j++
				}
				if word(j) == "TABLE" {
					edits = append(edits, edit{code[i+1].Start, code[i+2].End, ""})
					for _, d := range drop {
						edits = append(edits, edit{d.Start, d.End, ""})
					}
				}
				marks = append(marks, mark{t.Start, CreateOrReplace})
			}
		}
	}
	return edits, marks
}

// codeTokens drops space and comments, so rewrites look at neighbours in
// the SQL itself.
func codeTokens(toks []Token) []Token {
	out := make([]Token, 0, len(toks))
	for _, t := range toks {
		if t.IsCode() {
			out = append(out, t)
		}
	}
	return out
}

// backtickToQuoted turns `project.dataset.table` or `db` into PostgreSQL
// quoted identifiers, one per dotted part.
func backtickToQuoted(text string) string {
	inner := strings.ReplaceAll(text[1:len(text)-1], "``", "`")
	parts := strings.Split(inner, ".")
	for i, p := range parts {
		parts[i] = `"` + strings.ReplaceAll(p, `"`, `""`) + `"`
	}
	return strings.Join(parts, ".")
}
