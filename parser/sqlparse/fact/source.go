package fact

import (
	"github.com/bflint/bflint/parser/sqlname"
	"github.com/bflint/bflint/parser/sqlparse/dialect"
	"github.com/bflint/bflint/parser/sqlparse/internal/tree"
	"github.com/bflint/bflint/parser/sqlparse/sqltext"
	pg_query "github.com/pganalyze/pg_query_go/v5"
)

// Source is a statement's text as it was read: where it stands in the
// file, its normalised text and how that text maps back. Both readers of
// a statement, its parse tree and its tokens, read from it.
type Source struct {
	// Start and End delimit the statement in the original text; Start is
	// its first real token, never a comment or blank line above it.
	Start, End int
	// Text is the statement after normalisation, as parsed.
	Text string
	// Map maps offsets in Text (and pg_query node locations) back to the
	// original text.
	Map *sqltext.OffsetMap
	// Flags are what normalisation removed.
	Flags dialect.Flags
}

// Orig maps a pg_query location (an offset in Text, -1 when unknown) to an
// offset in the original text; unknown locations map to the statement start.
func (s *Source) Orig(loc int32) int {
	if loc < 0 {
		return s.Start
	}
	return s.Map.Orig(int(loc))
}

// RelationOf builds the Relation of a RangeVar. The parser folds unquoted
// names to lower case; the name is read again from the statement text so
// that messages quote it as the user wrote it, and pg_query's parts are kept
// when the text says something else (a rewrite, ONLY before the name).
func RelationOf(st *Source, rv *pg_query.RangeVar) sqlname.Relation {
	var parts []string
	for _, p := range []string{rv.GetCatalogname(), rv.GetSchemaname(), rv.GetRelname()} {
		if p != "" {
			parts = append(parts, p)
		}
	}
	if loc := int(rv.GetLocation()); loc >= 0 && loc < len(st.Text) {
		if written := tree.ReadName(st.Text[loc:]); tree.SameName(written, parts) {
			parts = written
		}
	}
	return sqlname.Relation{Parts: parts, Offset: st.Orig(rv.GetLocation())}
}
