package bqetl

import (
	"path/filepath"
	"regexp"
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
// case, and whether it selects every column of something (SELECT *, t.*,
// * EXCEPT), which passes columns on without naming them.
type QueryNames struct {
	Idents map[string]bool
	Star   bool
}

// Mentions reports whether the query may read one of columns (as
// Entry.Columns gives them): it names one, or selects every column.
func (q QueryNames) Mentions(columns []string) bool {
	return q.Star || q.Names(columns)
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

// ReadQueryNames reads what the query of object id of a tree's lineage m
// names; ok is false when it has no readable SQL file. root is the tree's
// sql folder. Words, quoted and backquoted names and strings count (a
// JSON path names a column too); comments do not.
func ReadQueryNames(root string, m *manifest.Manifest, id string) (q QueryNames, ok bool) {
	n := m.Node(id)
	if n == nil || n.OriginalFilePath == "" || !strings.HasSuffix(n.OriginalFilePath, ".sql") {
		return q, false
	}
	text, err := source.ReadRegular(filepath.Join(filepath.Dir(root), filepath.FromSlash(n.OriginalFilePath)), source.MaxFileSize)
	if err != nil {
		return q, false
	}
	src := string(text)
	toks, _ := sqltext.Lex(src)
	q.Idents = map[string]bool{}
	prev := ""
	for _, t := range toks {
		if !t.IsCode() {
			continue
		}
		text := t.Text(src)
		switch t.Kind {
		case sqltext.Word, sqltext.QuotedIdent, sqltext.Backtick, sqltext.String:
			for _, w := range identifier.FindAllString(text, -1) {
				q.Idents[strings.ToLower(w)] = true
			}
		case sqltext.Operator:
			// * after SELECT, DISTINCT, a dot or a comma selects every
			// column; after anything else it multiplies.
			if text == "*" && (strings.EqualFold(prev, "select") || strings.EqualFold(prev, "distinct") || prev == "." || prev == ",") {
				q.Star = true
			}
		}
		prev = text
	}
	return q, true
}
