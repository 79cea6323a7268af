package sqlparse

import (
	"strings"

	"github.com/bflint/bflint/parser/sqlparse/sqltext"
)

// minLiteralRows is the length of a VALUES list of literal rows past which
// the parser is given its first row alone.
const minLiteralRows = 3

// blankLiteralRows is the text the parser is given for a statement: the
// statement's own, except that a VALUES list of rows that hold only
// literals keeps its first row, the others turned to spaces. Real
// projects keep lookup tables as models of thousands of such rows (token
// lists, address labels: half the SQL of one repository measured), whose
// trees took most of the parse time and memory and say nothing a rule
// reads: no relation, no condition, no clock. Spaces keep every offset,
// and line breaks are kept, so positions in the tree are the statement's.
// A row with anything but literals (a column, a call, a parameter, Jinja)
// ends the run of rows blanked, and is parsed as written.
func blankLiteralRows(text string, code []sqltext.Token) string {
	var b []byte
	for i := 0; i < len(code); i++ {
		t := code[i]
		if t.Kind != sqltext.Word || !strings.EqualFold(t.Text(text), "values") {
			continue
		}
		firstEnd, ok := literalRow(text, code, i+1)
		if !ok {
			continue
		}
		last, rows := firstEnd, 1
		for {
			if last+1 >= len(code) || code[last+1].Text(text) != "," {
				break
			}
			end, ok := literalRow(text, code, last+2)
			if !ok {
				break
			}
			last, rows = end, rows+1
		}
		if rows >= minLiteralRows {
			if b == nil {
				b = []byte(text)
			}
			for k := int(code[firstEnd].End); k < int(code[last].End); k++ {
				if b[k] != '\n' {
					b[k] = ' '
				}
			}
		}
		i = last
	}
	if b == nil {
		return text
	}
	return string(b)
}

// literalRow reads the row that opens at code[i], "(" literal ("," literal)*
// ")", and returns the index of its ")"; ok is false for anything else.
func literalRow(text string, code []sqltext.Token, i int) (end int, ok bool) {
	if i >= len(code) || code[i].Text(text) != "(" {
		return 0, false
	}
	for i++; ; i++ {
		if i = rowLiteral(text, code, i); i < 0 || i >= len(code) {
			return 0, false
		}
		switch code[i].Text(text) {
		case ")":
			return i, true
		case ",":
		default:
			return 0, false
		}
	}
}

// rowLiteral reads the literal at code[i] (a number, a string, NULL, TRUE or
// FALSE, signed, or a string after DATE, TIME, TIMESTAMP or INTERVAL) and
// returns the index after it, -1 when there is none.
func rowLiteral(text string, code []sqltext.Token, i int) int {
	if i < len(code) && code[i].Kind == sqltext.Operator && (code[i].Text(text) == "-" || code[i].Text(text) == "+") {
		i++
	}
	if i >= len(code) {
		return -1
	}
	t := code[i]
	switch t.Kind {
	case sqltext.Number, sqltext.String:
		return i + 1
	case sqltext.Word:
		switch strings.ToLower(t.Text(text)) {
		case "null", "true", "false":
			return i + 1
		case "date", "time", "timestamp", "interval":
			if i+1 < len(code) && code[i+1].Kind == sqltext.String {
				return i + 2
			}
		}
	}
	return -1
}
