package sqlparse

import (
	"slices"
	"strings"

	"github.com/bflint/bflint/parser/sqlname"
	"github.com/bflint/bflint/parser/sqlparse/fact"
	"github.com/bflint/bflint/parser/sqlparse/jinja"
)

// FileReads are the stored relations a file reads, as lineage needs them
// where no dbt manifest records them.
type FileReads struct {
	// Relations are each relation read, once (names compared by Key), in
	// the order first written. Left out: WITH queries, the temporary
	// tables the file creates, and the array paths BigQuery writes like
	// names (FROM t, t.events: a column of t, not a dataset's table).
	Relations []sqlname.Relation
	// Unread counts the statements of which nothing could be read, and
	// Templated the names Jinja writes (FROM {{ dataset }}.t): what they
	// read is unknown, so Relations may be incomplete.
	Unread, Templated int
}

// Reads returns what the file reads, from each statement's parse tree or,
// for one that did not parse, its tokens. A statement of every Jinja
// variant counts: either branch may run.
func (f *File) Reads() FileReads {
	var out FileReads
	temporary := map[string]bool{}
	for _, st := range f.Statements {
		writes := st.Writes()
		if st.Node == nil {
			writes = st.TokenFacts().Writes
		}
		for _, w := range writes {
			if w.Temporary || len(w.Target.Parts) == 1 {
				temporary[relationKey(w.Target)] = true
			}
		}
	}
	seen := map[string]bool{}
	for _, st := range f.Statements {
		var rels []sqlname.Relation
		var joins []fact.Join
		switch st.Coverage() {
		case CoverageParsed:
			rels, joins = st.Reads(), st.Joins()
		case CoverageTokens:
			tf := st.TokenFacts()
			for _, j := range tf.Joins {
				if !j.CTE {
					rels = append(rels, j.Relation)
				}
				joins = append(joins, j.Join)
			}
		default:
			if st.Text != "" {
				out.Unread++
			}
			continue
		}
		for _, r := range rels {
			if slices.ContainsFunc(r.Parts, jinja.Unknown) {
				out.Templated++
				continue
			}
			k := relationKey(r)
			if len(r.Parts) == 0 || seen[k] || temporary[k] || (len(r.Parts) == 2 && isPath(r, joins)) {
				continue
			}
			seen[k] = true
			out.Relations = append(out.Relations, r)
		}
	}
	return out
}

// isPath reports whether a two-part name starts with the name another FROM
// item of the statement goes by: it is a path into that item's columns.
func isPath(r sqlname.Relation, joins []fact.Join) bool {
	for _, j := range joins {
		if j.Offset == r.Offset {
			continue
		}
		if strings.EqualFold(j.Alias, r.Parts[0]) {
			return true
		}
		if n := len(j.Relation.Parts); n > 0 && strings.EqualFold(j.Relation.Parts[n-1], r.Parts[0]) {
			return true
		}
	}
	return false
}

func relationKey(r sqlname.Relation) string { return strings.Join(r.Key(), ".") }
