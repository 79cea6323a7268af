package bqetl

import (
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/bflint/bflint/parser/manifest"
	"github.com/bflint/bflint/parser/source"
	"github.com/bflint/bflint/parser/sqlparse/sqltext"
)

// namedColumns are the columns a reason says the entry fills or changes:
// snake_case names, a trailing * standing for every name it begins,
// listed right before the word field(s) or column(s), as in "populate
// the play_store_attribution_* fields" or "fill a_b and c_d columns".
var namedColumns = regexp.MustCompile(`([a-z][a-z0-9]*(?:_[a-z0-9]+)*(?:_\*)?(?:\s*(?:,|and|or|,\s*and)\s*[a-z][a-z0-9]*(?:_[a-z0-9]+)*(?:_\*)?)*)\s+(?:fields?|columns?)\b`)

var identifier = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)

var columnName = regexp.MustCompile(`[a-z][a-z0-9]*(?:_[a-z0-9]+)*(?:_\*)?`)

// Columns are the columns the entry's reason names as those it fills or
// changes, lower case, a trailing * matching every name it begins; nil
// when the reason names none that way, which says nothing about which
// columns change.
func (e *Entry) Columns() []string {
	var out []string
	for _, m := range namedColumns.FindAllStringSubmatch(strings.ToLower(e.Reason.V), -1) {
		for _, name := range columnName.FindAllString(m[1], -1) {
			if name != "and" && name != "or" && strings.ContainsAny(name, "_*") {
				out = append(out, name)
			}
		}
	}
	return out
}

// QueryNames is what a query's text names: every identifier, lower
// case, and what it selects every column of (SELECT *, t.*, * EXCEPT),
// which passes columns on without naming them.
type QueryNames struct {
	Idents map[string]bool
	// StarFrom are the relations (or their aliases) a * selects every
	// column of, lower case; "" for one read from a subquery or not read.
	StarFrom []string
	// Relations are the relations the query reads by their aliases.
	Relations map[string]string
	// Aliases are, for an identifier, the names of the output columns
	// whose expression uses it (udf(x) AS y gives x: [y]), so that a
	// column can be followed under its new name.
	Aliases map[string][]string
}

// SelectsAll reports whether a * of the query may select every column of
// a relation is says is one of those asked about (by its name as written,
// dataset.table or project.dataset.table); a * over a subquery may.
func (q QueryNames) SelectsAll(is func(relation string) bool) bool {
	for _, s := range q.StarFrom {
		if r, ok := q.Relations[s]; ok {
			s = r
		}
		if s == "" || is(s) {
			return true
		}
	}
	return false
}

// Names reports whether the query names one of columns.
func (q QueryNames) Names(columns []string) bool {
	for _, c := range columns {
		prefix, glob := strings.CutSuffix(c, "*")
		for n := range q.Idents {
			if n == c || glob && strings.HasPrefix(n, prefix) {
				return true
			}
		}
	}
	return false
}

// Renamed returns the output names the query gives expressions that use
// one of columns: the columns' names further down the lineage.
func (q QueryNames) Renamed(columns []string) []string {
	var out []string
	for _, c := range columns {
		prefix, glob := strings.CutSuffix(c, "*")
		for n, aliases := range q.Aliases {
			if n == c || glob && strings.HasPrefix(n, prefix) {
				out = append(out, aliases...)
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Known reports whether the query was read.
func (q QueryNames) Known() bool { return q.Idents != nil }

// ReadQueryNames reads what the query of object id of a tree's lineage m
// names; nothing is Known when it has no readable SQL file. root is the tree's
// sql folder. Words, quoted and backquoted names and strings count (a
// JSON path names a column too); comments do not.
func ReadQueryNames(root string, m *manifest.Manifest, id string) (q QueryNames) {
	n := m.Node(id)
	if n == nil || n.OriginalFilePath == "" || !strings.HasSuffix(n.OriginalFilePath, ".sql") {
		return q
	}
	text, err := source.ReadRegular(filepath.Join(filepath.Dir(root), filepath.FromSlash(n.OriginalFilePath)), source.MaxFileSize)
	if err != nil {
		return q
	}
	src := string(text)
	toks, _ := sqltext.Lex(src)
	code := slices.DeleteFunc(toks, func(t sqltext.Token) bool { return !t.IsCode() })
	q.Idents = map[string]bool{}
	q.Aliases = map[string][]string{}
	q.Relations = map[string]string{}
	depth := depths(src, code)
	prev := ""
	for i, t := range code {
		text := t.Text(src)
		switch t.Kind {
		case sqltext.Word, sqltext.QuotedIdent, sqltext.Backtick, sqltext.String:
			for _, w := range identifier.FindAllString(text, -1) {
				w = strings.ToLower(w)
				q.Idents[w] = true
				if t.Kind != sqltext.String {
					if alias := aliasAfter(src, code, depth, i); alias != "" && alias != w {
						q.Aliases[w] = append(q.Aliases[w], alias)
					}
				}
			}
			if w := strings.ToLower(text); t.Kind == sqltext.Word && (w == "from" || w == "join") {
				if rel, next := relationAt(src, code, i+1); rel != "" {
					q.Relations[rel] = rel
					if alias := aliasAt(src, code, next); alias != "" {
						q.Relations[alias] = rel
					}
				}
			}
		case sqltext.Operator:
			// * after SELECT, DISTINCT or a comma selects every column of
			// what the FROM at its depth reads; after a dot, of what the
			// name before it names; after anything else it multiplies.
			switch {
			case text != "*":
			case prev == "." && i >= 2:
				q.StarFrom = append(q.StarFrom, unquote(code[i-2].Text(src)))
			case strings.EqualFold(prev, "select") || strings.EqualFold(prev, "distinct") || prev == ",":
				q.StarFrom = append(q.StarFrom, fromAt(src, code, depth, i))
			}
		}
		prev = text
	}
	return q
}

// relationAt reads the relation name at code[i] (parts joined by dots),
// and returns it lower case without quotes, with the index after it; ""
// when a subquery or anything else is there.
func relationAt(src string, code []sqltext.Token, i int) (string, int) {
	var parts []string
	for i < len(code) {
		switch code[i].Kind {
		case sqltext.Word, sqltext.Backtick, sqltext.QuotedIdent:
			parts = append(parts, unquote(code[i].Text(src)))
			i++
		default:
			return strings.Join(parts, "."), i
		}
		if i >= len(code) || code[i].Text(src) != "." {
			break
		}
		i++
	}
	return strings.Join(parts, "."), i
}

// notAlias are the words that may follow a relation and are no alias.
var notAlias = map[string]bool{"on": true, "using": true, "where": true, "left": true, "right": true, "inner": true, "full": true, "cross": true, "join": true, "group": true, "order": true, "union": true, "window": true, "qualify": true, "limit": true, "tablesample": true, "for": true, "unnest": true, "having": true, "except": true, "intersect": true}

// aliasAt reads the alias at code[i] ([AS] name), "" when there is none.
func aliasAt(src string, code []sqltext.Token, i int) string {
	if i < len(code) && code[i].Kind == sqltext.Word && strings.EqualFold(code[i].Text(src), "as") {
		i++
	}
	if i >= len(code) || code[i].Kind != sqltext.Word && code[i].Kind != sqltext.Backtick {
		return ""
	}
	if a := unquote(code[i].Text(src)); !notAlias[a] {
		return a
	}
	return ""
}

// fromAt is the relation the FROM of the select holding code[i] reads: the
// first FROM after it at its depth; "" for a subquery or none.
func fromAt(src string, code []sqltext.Token, depth []int, i int) string {
	for j := i + 1; j < len(code); j++ {
		if depth[j] < depth[i] {
			return ""
		}
		if depth[j] == depth[i] && code[j].Kind == sqltext.Word && strings.EqualFold(code[j].Text(src), "from") {
			rel, _ := relationAt(src, code, j+1)
			return rel
		}
	}
	return ""
}

func unquote(s string) string { return strings.ToLower(strings.Trim(s, "`\"")) }

// itemEnds are the words that end a select item or the select list.
var itemEnds = map[string]bool{"from": true, "where": true, "group": true, "order": true, "having": true, "qualify": true, "window": true, "limit": true, "union": true, "except": true, "intersect": true}

// depths gives each token its bracket depth.
func depths(src string, code []sqltext.Token) []int {
	out := make([]int, len(code))
	d := 0
	for i, t := range code {
		switch t.Text(src) {
		case "(", "[":
			out[i] = d
			d++
			continue
		case ")", "]":
			d--
		}
		out[i] = d
	}
	return out
}

// aliasAfter returns the name the select item holding the identifier at
// code[i] is given (its AS name at the depth of its SELECT), "" when the
// identifier is in no select item or the item has no AS name. CAST(x AS
// type) is inside brackets and so is not taken.
func aliasAfter(src string, code []sqltext.Token, depth []int, i int) string {
	level := -1
	for j := i - 1; j >= 0; j-- {
		if depth[j] <= depth[i] && code[j].Kind == sqltext.Word && strings.EqualFold(code[j].Text(src), "select") {
			level = depth[j]
			break
		}
		if depth[j] <= depth[i] && code[j].Kind == sqltext.Word && itemEnds[strings.ToLower(code[j].Text(src))] && depth[j] < depth[i] {
			return "" // in a FROM, WHERE, ... of a query around it
		}
	}
	if level < 0 {
		return ""
	}
	for j := i + 1; j < len(code); j++ {
		if depth[j] < level {
			return ""
		}
		if depth[j] > level {
			continue
		}
		text := code[j].Text(src)
		switch {
		case text == "," || text == ";" || code[j].Kind == sqltext.Word && itemEnds[strings.ToLower(text)]:
			return ""
		case code[j].Kind == sqltext.Word && strings.EqualFold(text, "as") && j+1 < len(code):
			switch next := code[j+1]; next.Kind {
			case sqltext.Word, sqltext.QuotedIdent, sqltext.Backtick:
				return unquote(next.Text(src))
			}
			return ""
		}
	}
	return ""
}
