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
// constants keeps its first row, the others turned to spaces. Real
// projects keep lookup tables as models of thousands of such rows (token
// lists, address labels: half the SQL of one repository measured), whose
// trees took most of the parse time and memory and say nothing a rule
// reads: no relation, no condition, no clock. Spaces keep every offset,
// and line breaks are kept, so positions in the tree are the statement's.
//
// A constant is a literal (a number, a string, NULL, TRUE or FALSE,
// signed), a typed literal (a type's name before a string: DATE
// '2024-01-01', UINT256 '1'), or an array of constants. A row that also
// calls functions on constants (date('2024-01-01'), now()) is blanked only
// when it is the first row again but for its literals, so that every call
// the rows make is still in the first row: the clock a row reads is read
// there. Anything else (a column, a parameter, Jinja, a call the first row
// does not make) ends the run of rows blanked, and is parsed as written.
func blankLiteralRows(text string, code []sqltext.Token) string {
	var b []byte
	for i := 0; i < len(code); i++ {
		t := code[i]
		if t.Kind != sqltext.Word || !strings.EqualFold(t.Text(text), "values") {
			continue
		}
		first := i + 1
		firstEnd, _, ok := constantRow(text, code, first)
		if !ok {
			continue
		}
		last, rows := firstEnd, 1
		for {
			if last+1 >= len(code) || code[last+1].Text(text) != "," {
				break
			}
			start := last + 2
			end, calls, ok := constantRow(text, code, start)
			if !ok || calls && !sameShape(text, code[first:firstEnd+1], code[start:end+1]) {
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

// constantRow reads the row that opens at code[i], "(" constant (","
// constant)* ")", and returns the index of its ")" and whether it calls a
// function; ok is false for anything else.
func constantRow(text string, code []sqltext.Token, i int) (end int, calls, ok bool) {
	return constantList(text, code, i, "(", ")", false)
}

// constantList reads open constant ("," constant)* closing at code[i], or
// open closing when the list may be empty (an array's, a call's).
func constantList(text string, code []sqltext.Token, i int, open, closing string, mayBeEmpty bool) (end int, calls, ok bool) {
	if i >= len(code) || code[i].Text(text) != open {
		return 0, false, false
	}
	i++
	if mayBeEmpty && i < len(code) && code[i].Text(text) == closing {
		return i, false, true
	}
	for ; ; i++ {
		var called bool
		if i, called = rowConstant(text, code, i); i < 0 || i >= len(code) {
			return 0, false, false
		}
		calls = calls || called
		switch code[i].Text(text) {
		case closing:
			return i, calls, true
		case ",":
		default:
			return 0, false, false
		}
	}
}

// rowConstant reads the constant at code[i] and returns the index after
// it, -1 when there is none, and whether it calls a function.
func rowConstant(text string, code []sqltext.Token, i int) (next int, calls bool) {
	if i < len(code) && code[i].Kind == sqltext.Operator && (code[i].Text(text) == "-" || code[i].Text(text) == "+") {
		i++
	}
	if i >= len(code) {
		return -1, false
	}
	t := code[i]
	switch t.Kind {
	case sqltext.Number, sqltext.String:
		return i + 1, false
	case sqltext.Word:
		word := strings.ToLower(t.Text(text))
		switch {
		case word == "null" || word == "true" || word == "false":
			return i + 1, false
		case i+1 >= len(code):
			return -1, false
		case code[i+1].Kind == sqltext.String:
			return i + 2, false // a typed literal
		case word == "array" && code[i+1].Text(text) == "[":
			end, calls, ok := constantList(text, code, i+1, "[", "]", true)
			if !ok {
				return -1, false
			}
			return end + 1, calls
		case code[i+1].Text(text) == "(":
			end, _, ok := constantList(text, code, i+1, "(", ")", true)
			if !ok {
				return -1, false
			}
			return end + 1, true
		}
	}
	return -1, false
}

// sameShape reports whether two rows are the same tokens but for the
// values of their literals.
func sameShape(text string, a, b []sqltext.Token) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		x, y := a[k], b[k]
		if x.Kind != y.Kind {
			return false
		}
		if x.Kind == sqltext.Number || x.Kind == sqltext.String {
			continue
		}
		if !strings.EqualFold(x.Text(text), y.Text(text)) {
			return false
		}
	}
	return true
}
