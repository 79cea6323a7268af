package tokenread

import (
	"strings"

	"github.com/bflint/bflint/parser/sqlname"
	"github.com/bflint/bflint/parser/sqlparse/fact"
	"github.com/bflint/bflint/parser/sqlparse/sqltext"
)

// execute reads EXECUTE IMMEDIATE. SQL written as a literal, or as the
// template of FORMAT(...), is read as statements of their own, in place,
// so positions point into it (or at its start, where normalisation
// rewrote the literal whole). SQL concatenated from literals and values
// (CONCAT(...), ||) is read from its literal pieces (executeBuilt). SQL
// held in a variable cannot be read.
func (sc *tokenScan) execute(i, to int) {
	j := i + 1
	if sc.Word(j) != "IMMEDIATE" {
		return
	}
	j++
	if j >= to {
		return
	}
	format := sc.Word(j) == "FORMAT" && sc.Punct(j+1, '(')
	if format {
		j += 2
	}
	start, end, _, literal := sc.literal(j)
	switch after := j + 1; {
	case literal && format && (sc.Punct(after, ',') || sc.Punct(after, ')')),
		literal && !format && sc.endsArgument(after, to):
		sc.readInner(sc.Src, start, end, sc.tf, sc.bodies)
	case !format && sc.executeBuilt(j, to):
	default:
		sc.tf.Dynamic = true
	}
}

// endsArgument reports whether EXECUTE IMMEDIATE's SQL ends before
// code[k]: at the end of the statement, or where INTO or USING follows.
func (sc *tokenScan) endsArgument(k, to int) bool {
	return k >= to || sc.Punct(k, ';') || sc.Word(k) == "USING" || sc.Word(k) == "INTO"
}

// literal returns where the text of the string literal at code[i] stands
// in Src, between its quotes, and whether it is a raw string (r'...'),
// whose backslashes are not escapes.
func (sc *tokenScan) literal(i int) (start, end int, raw, ok bool) {
	if i >= len(sc.Code) || sc.Kind(i) != sqltext.String && sc.Kind(i) != sqltext.QuotedIdent {
		return 0, 0, false, false
	}
	t := sc.Code[i]
	text := t.Text(sc.Src)
	open := strings.IndexAny(text, `'"$`)
	if open < 0 {
		return 0, 0, false, false
	}
	delim := 1
	switch {
	case strings.HasPrefix(text[open:], "'''"), strings.HasPrefix(text[open:], `"""`):
		delim = 3
	case text[open] == '$':
		delim = strings.IndexByte(text[open+1:], '$') + 2
	}
	start, end = int(t.Start)+open+delim, int(t.End)-delim
	return start, end, strings.ContainsAny(text[:open], "rR"), end > start
}

// readInner reads text[start:end] as statements of their own, into tf.
// text is Src or a copy of it of the same length, so offsets stay those of
// the statement's Text.
func (sc *tokenScan) readInner(text string, start, end int, tf *fact.TokenFacts, bodies map[string]*tokenCTE) *tokenScan {
	toks, _ := sqltext.Lex(text[start:end])
	inner := sqltext.Code(toks)
	for k := range inner {
		inner[k].Start += int32(start)
		inner[k].End += int32(start)
	}
	sub := &tokenScan{Cursor: sqltext.NewCursor(text, inner), src: sc.src, ctes: sc.ctes, bodies: bodies, names: map[int]bool{}, tf: tf, parses: sc.parses}
	sub.index()
	from, depth := 0, 0
	for k := 0; k <= len(inner); k++ {
		switch {
		case k == len(inner) || sub.Punct(k, ';') && depth == 0:
			if k > from {
				sub.statement(from, k)
			}
			from = k + 1
		case sub.open(k):
			depth++
		case sub.Punct(k, ')') || sub.Punct(k, ']'):
			depth--
		}
	}
	sub.columns()
	if tf == sc.tf {
		sc.joins = append(sc.joins, sub.joins...)
	}
	return sub
}

// dynamicFill stands for a value concatenated into SQL at run time: it is
// a word, so the SQL around it still reads, and no relation is named with
// it alone.
const dynamicFill = '_'

// executeBuilt reads SQL that EXECUTE IMMEDIATE concatenates from string
// literals and values (CONCAT(a, b, ...) or a || b || ...), the first piece
// a literal, so what the statement is comes from the text. The pieces are
// laid out where they stand, in a copy of the statement's Text: each
// literal's text in place, each value as a word of dynamicFill, the rest
// blank. A relation whose name a value builds is not known and is left
// out; the statement stays Dynamic when nothing else was read.
func (sc *tokenScan) executeBuilt(j, to int) bool {
	pieces, end := sc.concatenation(j, to)
	if len(pieces) < 2 || !sc.endsArgument(end, to) {
		return false
	}
	if _, _, _, ok := sc.literal(pieces[0][0]); !ok || pieces[0][1] != pieces[0][0]+1 {
		return false
	}
	first, last := int(sc.Code[j].Start), int(sc.Code[end-1].End)
	buf := []byte(sc.Src)
	for k := first; k < last; k++ {
		if buf[k] != '\n' {
			buf[k] = ' '
		}
	}
	// texts[k] is where piece k's text stands: a literal's between its
	// quotes, a value's as written.
	texts := make([][2]int, len(pieces))
	valued := make([]bool, len(pieces))
	for k, p := range pieces {
		if s, e, raw, ok := sc.literal(p[0]); ok && p[1] == p[0]+1 {
			copy(buf[s:e], sc.Src[s:e])
			if !raw {
				blankEscapes(buf[s:e])
			}
			texts[k] = [2]int{s, e}
			continue
		}
		s, e := int(sc.Code[p[0]].Start), int(sc.Code[p[1]-1].End)
		for w := s; w < e; w++ {
			buf[w] = dynamicFill
		}
		texts[k], valued[k] = [2]int{s, e}, true
	}
	// A value glued to a word of a literal ('orders_' || suffix) makes one
	// name with it: the word is part of what is not known.
	for k := range pieces {
		if !valued[k] {
			continue
		}
		if k > 0 && !valued[k-1] {
			for w := texts[k-1][1] - 1; w >= texts[k-1][0] && sqltext.IsWordPart(buf[w]); w-- {
				buf[w] = dynamicFill
			}
		}
		if k+1 < len(pieces) && !valued[k+1] {
			for w := texts[k+1][0]; w < texts[k+1][1] && sqltext.IsWordPart(buf[w]); w++ {
				buf[w] = dynamicFill
			}
		}
	}
	tf := &fact.TokenFacts{Columns: map[string]map[string]bool{}}
	sub := sc.readInner(string(buf), first, last, tf, map[string]*tokenCTE{})
	known := 0
	for _, jn := range sub.joins {
		if jn.CTE {
			jn.Through = sub.provenance(jn)
		}
		if !dynamicName(jn.Relation) && (jn.Through == nil || !dynamicName(jn.Through.Relation)) {
			sc.joins = append(sc.joins, jn)
			known++
		}
	}
	for _, w := range tf.Writes {
		if !dynamicName(w.Target) {
			sc.tf.Writes = append(sc.tf.Writes, w)
			known++
		}
	}
	for _, n := range tf.Named {
		if !dynamicName(n) {
			sc.tf.Named = append(sc.tf.Named, n)
			known++
		}
	}
	for qual, cols := range tf.Columns {
		if strings.Trim(qual, string(dynamicFill)) == "" {
			continue
		}
		if sc.tf.Columns[qual] == nil {
			sc.tf.Columns[qual] = map[string]bool{}
		}
		for c := range cols {
			sc.tf.Columns[qual][c] = true
		}
	}
	// Withs are left out: Guards reads them from the statement's Text,
	// where this SQL stands between quotes.
	sc.tf.Conds = append(sc.tf.Conds, tf.Conds...)
	sc.tf.Selected = append(sc.tf.Selected, tf.Selected...)
	sc.tf.Dynamic = sc.tf.Dynamic || known == 0
	return true
}

// concatenation splits EXECUTE IMMEDIATE's SQL at code[j] into the pieces
// it concatenates, each a range of code; end is the index after the SQL.
// One piece is returned for anything else.
func (sc *tokenScan) concatenation(j, to int) (pieces [][2]int, end int) {
	if sc.Word(j) == "CONCAT" && sc.Punct(j+1, '(') {
		c := sc.close(j+1, to)
		if c == to {
			return nil, to
		}
		from := j + 2
		for k := from; k <= c; k++ {
			if sc.open(k) {
				k = sc.close(k, c)
				continue
			}
			if k == c || sc.Punct(k, ',') {
				if k == from {
					return nil, c + 1
				}
				pieces = append(pieces, [2]int{from, k})
				from = k + 1
			}
		}
		return pieces, c + 1
	}
	from := j
	k := j
	for ; !sc.endsArgument(k, to); k++ {
		if sc.open(k) {
			k = sc.close(k, to)
			continue
		}
		if sc.Kind(k) == sqltext.Operator && sc.Op(k) == "||" {
			if k == from {
				return nil, k
			}
			pieces = append(pieces, [2]int{from, k})
			from = k + 1
		}
	}
	if k == from {
		return nil, k
	}
	return append(pieces, [2]int{from, k}), k
}

// blankEscapes blanks the backslash escapes of a string literal's text
// that stand for white space (\n, \t, \r), which SQL read from it would
// otherwise take for a stray backslash.
func blankEscapes(b []byte) {
	for k := 0; k+1 < len(b); k++ {
		if b[k] != '\\' {
			continue
		}
		switch b[k+1] {
		case 'n', 't', 'r':
			b[k], b[k+1] = ' ', ' '
		}
		k++
	}
}

// dynamicName reports whether a value concatenated at run time is part of
// a relation's name: a part that is only dynamicFill, or one that spans
// blanks where the pieces of the SQL were joined.
func dynamicName(r sqlname.Relation) bool {
	for _, p := range r.Parts {
		if strings.Trim(p, string(dynamicFill)) == "" || strings.ContainsAny(p, " \n\t") {
			return true
		}
	}
	return false
}
