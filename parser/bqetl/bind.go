package bqetl

import (
	"fmt"
	"strings"
	"time"

	"github.com/bflint/bflint/parser/sqlparse/sqltext"
)

// BindDate is the query of a table as bqetl runs it for one date: every
// @param (the table's date_partition_parameter) replaced by the date as a
// literal, the way bq binds a query parameter, and a final semicolon
// dropped so that the result can stand inside parentheses. It refuses,
// with the reason, a query it cannot bind alone: Jinja (bqetl renders it
// first), another query parameter (scheduling.parameters binds it), more
// than one statement (a script), or a query that never reads the date.
func BindDate(query, param string, date time.Time) (string, error) {
	toks, lexErr := sqltext.Lex(query)
	if lexErr != nil {
		return "", fmt.Errorf("the query cannot be read past offset %d: %s", lexErr.Offset, lexErr.Msg)
	}
	last := -1
	for i, t := range toks {
		if t.IsCode() {
			last = i
		}
	}
	if last >= 0 && toks[last].Text(query) == ";" {
		toks = toks[:last]
	}
	literal := "DATE '" + date.Format(time.DateOnly) + "'"
	var b strings.Builder
	bound := false
	for _, t := range toks {
		text := t.Text(query)
		switch t.Kind {
		case sqltext.JinjaExpr, sqltext.JinjaTag, sqltext.JinjaNote:
			return "", fmt.Errorf("the query holds Jinja (%s), which bqetl renders before it runs", firstLine(text))
		case sqltext.Param:
			if !strings.EqualFold(text, "@"+param) {
				return "", fmt.Errorf("the query takes %s besides @%s, bound by scheduling.parameters", text, param)
			}
			b.WriteString(literal)
			bound = true
			continue
		case sqltext.Punct:
			if text == ";" {
				return "", fmt.Errorf("the query is more than one statement, a script")
			}
		}
		b.WriteString(text)
	}
	if !bound {
		return "", fmt.Errorf("the query never reads @%s, so each date would compute the same rows", param)
	}
	return strings.TrimSpace(b.String()), nil
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}
