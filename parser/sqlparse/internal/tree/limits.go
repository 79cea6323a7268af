package tree

import (
	"fmt"

	"github.com/bflint/bflint/parser/sqlparse/sqltext"
)

// Limits bflint applies before handing a statement, or a part of one, to
// the parser, so that hostile input cannot exhaust the parser's stack or
// the machine's memory. A statement past a limit is reported (BF002),
// never skipped in silence.
const (
	MaxNesting        = 500     // parentheses or brackets open at once
	MaxDepth          = 2000    // brackets, operators and set operations nested, as TooDeep counts them
	MaxStatementBytes = 4 << 20 // one statement's normalised text
)

// TooDeep returns where a statement's syntax tree first grows deeper than
// the parser can be trusted with, and what makes it so. Brackets nest
// one level each; so does every binary operator and set operation of a
// chain, since PostgreSQL builds a + b + c and SELECT ... UNION ALL
// SELECT ... as one node inside another, and past some 20,000 levels its
// output overflows the C stack and kills the process. A comma, or a
// keyword that starts another clause or operand, ends a chain: the
// operands of a list are siblings, and PostgreSQL keeps AND and OR
// chains flat. The estimate errs upwards, which costs a parse of SQL
// nobody writes by hand.
func TooDeep(text string, toks []sqltext.Token) (offset int, what string, deep bool) {
	if !mayBeDeep(text, toks) {
		return 0, "", false
	}
	return depthScan(text, toks)
}

// depthScan is TooDeep's count, token by token.
func depthScan(text string, toks []sqltext.Token) (offset int, what string, deep bool) {
	type level struct{ chain, setOps int }
	levels := []level{{}}
	outer, brackets := 0, 0 // the depth of the enclosing levels; their count
	words := sqltext.NewCursor(text, toks)
	for k, t := range toks {
		cur := &levels[len(levels)-1]
		switch t.Kind {
		case sqltext.Punct:
			switch text[t.Start] {
			case '(', '[':
				outer += cur.chain + cur.setOps + 1
				levels = append(levels, level{})
				if brackets++; brackets > MaxNesting {
					return int(t.Start), fmt.Sprintf("nests parentheses more than %d deep", MaxNesting), true
				}
				continue
			case ')', ']':
				if len(levels) > 1 {
					levels = levels[:len(levels)-1]
					brackets--
					up := levels[len(levels)-1]
					outer -= up.chain + up.setOps + 1
				}
				continue
			case ',', ';':
				cur.chain = 0
				continue
			}
			continue
		case sqltext.Operator:
			cur.chain++
		case sqltext.Word:
			// Every word of setOperations and chainEnds is a keyword
			// (TestDepthWordsAreKeywords), which Keyword reads without a
			// copy.
			switch w := words.Keyword(k); {
			case setOperations[w]:
				cur.setOps++
				cur.chain = 0
			case chainEnds[w]:
				cur.chain = 0
				continue
			default:
				continue
			}
		default:
			continue
		}
		if outer+cur.chain+cur.setOps > MaxDepth {
			return int(t.Start), fmt.Sprintf("nests more than %d operators and set operations inside one another", MaxDepth), true
		}
	}
	return 0, "", false
}

// mayBeDeep is a bound TooDeep's count cannot pass, read without looking
// words up: each level it counts is a bracket, an operator or a word of a
// set operation (five to nine letters, or up to twice as many bytes for a
// word Unicode upper-cases into one), so a statement with fewer of them
// than the limits is not too deep. Most statements end here.
func mayBeDeep(text string, toks []sqltext.Token) bool {
	brackets, levels := 0, 0
	for _, t := range toks {
		switch t.Kind {
		case sqltext.Punct:
			if c := text[t.Start]; c == '(' || c == '[' {
				brackets++
				levels++
			}
		case sqltext.Operator:
			levels++
		case sqltext.Word:
			if n := t.End - t.Start; n >= 5 && n <= 18 {
				levels++
			}
		}
	}
	return brackets > MaxNesting || levels > MaxDepth
}

var (
	setOperations = map[string]bool{"UNION": true, "INTERSECT": true, "EXCEPT": true, "MINUS": true}
	// chainEnds start a clause, or an operand that is no part of the
	// operator chain before it.
	chainEnds = map[string]bool{
		"AND": true, "OR": true, "SELECT": true, "FROM": true, "WHERE": true, "ON": true, "USING": true,
		"GROUP": true, "HAVING": true, "QUALIFY": true, "WINDOW": true, "ORDER": true, "LIMIT": true,
		"WHEN": true, "THEN": true, "ELSE": true, "END": true, "AS": true, "JOIN": true, "SET": true,
		"VALUES": true, "RETURNING": true, "WITH": true,
	}
)
