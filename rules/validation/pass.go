package validation

import (
	"errors"
	"fmt"
	"strings"
)

// criterion is a pass criterion split into its parts, as written.
type criterion struct {
	Expr   string // what the check's query returns, e.g. max_abs_delta_pct
	Op     string
	Number string
}

// comparisons are the operators a pass criterion may use.
var comparisons = map[string]bool{"=": true, "==": true, "!=": true, "<": true, "<=": true, ">": true, ">=": true}

// parsePass reads "<expr> <op> <number>". The expression is free text, so an
// operator only counts at top level: inside parentheses or quotes it belongs
// to the expression (count_if(delta > 0) = 0).
func parsePass(s string) (criterion, error) {
	type opAt struct {
		start, end int
	}
	var ops []opAt
	var quote byte
	depth := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"' || c == '`':
			quote = c
		case c == '(':
			depth++
		case c == ')':
			if depth == 0 {
				return criterion{}, errors.New("it closes a parenthesis it never opened")
			}
			depth--
		case depth == 0 && isOpChar(c):
			j := i
			for j < len(s) && isOpChar(s[j]) {
				j++
			}
			ops = append(ops, opAt{i, j})
			i = j - 1
		}
	}
	switch {
	case quote != 0:
		return criterion{}, fmt.Errorf("its quote %c is never closed", quote)
	case depth > 0:
		return criterion{}, errors.New("a parenthesis is never closed")
	case len(ops) == 0:
		return criterion{}, errors.New("it compares nothing: there is no =, !=, <, <=, > or >=")
	case len(ops) > 1:
		return criterion{}, fmt.Errorf("it has %d comparisons; a criterion is one comparison of an expression with a number", len(ops))
	}
	op := s[ops[0].start:ops[0].end]
	if !comparisons[op] {
		return criterion{}, fmt.Errorf("%q is not a comparison; use one of = == != < <= > >=", op)
	}
	c := criterion{
		Expr:   strings.TrimSpace(s[:ops[0].start]),
		Op:     op,
		Number: strings.TrimSpace(s[ops[0].end:]),
	}
	switch {
	case c.Expr == "":
		return criterion{}, errors.New("there is nothing on the left of the comparison")
	case c.Number == "":
		return criterion{}, errors.New("there is no number on the right of the comparison")
	case !isNumber(c.Number):
		return criterion{}, fmt.Errorf("%q on the right of the comparison is not a number", c.Number)
	}
	return c, nil
}

func isOpChar(c byte) bool { return c == '=' || c == '!' || c == '<' || c == '>' }

// isNumber accepts a decimal number with an optional sign, fraction and
// exponent: 0, -2, 0.5, .5, 1e-3. Units such as % are not numbers; the
// query has to return the value in the unit the criterion compares.
func isNumber(s string) bool {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	intDigits := digits(s[i:])
	i += intDigits
	fracDigits := 0
	if i < len(s) && s[i] == '.' {
		i++
		fracDigits = digits(s[i:])
		i += fracDigits
	}
	if intDigits == 0 && fracDigits == 0 {
		return false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		n := digits(s[i:])
		if n == 0 {
			return false
		}
		i += n
	}
	return i == len(s)
}

func digits(s string) int {
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	return n
}
