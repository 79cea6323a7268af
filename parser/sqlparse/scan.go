// Package sqlparse reads the SQL files a backfill runs: statement spans and
// comments from the PostgreSQL scanner, with byte offsets into the text the
// user wrote.
package sqlparse

import (
	"fmt"

	pg_query "github.com/pganalyze/pg_query_go/v5"
)

// Statement is one statement's span: Start is its first real token (never
// a comment or blank before it), End the byte after its terminating ';', or
// after its last token when none follows.
type Statement struct {
	Start, End int
}

// Comment is a "--" or "/* */" comment.
type Comment struct {
	Start, End int
	Text       string // without the comment markers, trimmed
	// Trailing is set when a token of code stands before it on its line.
	Trailing bool
}

// Scanned is a SQL file split into statements and comments.
type Scanned struct {
	Statements []Statement
	Comments   []Comment
}

// Scan tokenizes src. A file the scanner rejects returns the error and
// nothing else; callers report it rather than skip the file in silence.
func Scan(src string) (*Scanned, error) {
	res, err := pg_query.Scan(src)
	if err != nil {
		return nil, fmt.Errorf("SQL scanner: %v", err)
	}
	out := &Scanned{}
	start := -1
	lastCodeLine := -1
	lineOf := lineIndex(src)
	lastEnd := 0
	for _, tok := range res.Tokens {
		s, e := int(tok.Start), int(tok.End)
		switch tok.Token {
		case pg_query.Token_SQL_COMMENT, pg_query.Token_C_COMMENT:
			out.Comments = append(out.Comments, Comment{
				Start: s, End: e,
				Text:     commentText(src[s:e]),
				Trailing: lastCodeLine == lineOf(s),
			})
			continue
		case pg_query.Token_ASCII_59: // ';'
			if start >= 0 {
				out.Statements = append(out.Statements, Statement{Start: start, End: e})
			}
			start = -1
		default:
			if start < 0 {
				start = s
			}
			lastEnd = e
		}
		lastCodeLine = lineOf(e - 1)
	}
	if start >= 0 {
		out.Statements = append(out.Statements, Statement{Start: start, End: lastEnd})
	}
	return out, nil
}

func commentText(c string) string {
	switch {
	case len(c) >= 2 && c[:2] == "--":
		c = c[2:]
	case len(c) >= 4 && c[:2] == "/*":
		c = c[2 : len(c)-2]
	}
	return trimSpace(c)
}

func trimSpace(s string) string {
	i, j := 0, len(s)
	for i < j && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n') {
		i++
	}
	for j > i && (s[j-1] == ' ' || s[j-1] == '\t' || s[j-1] == '\r' || s[j-1] == '\n') {
		j--
	}
	return s[i:j]
}

// lineIndex returns a function giving the 0-based line of a byte offset.
func lineIndex(src string) func(int) int {
	var starts []int
	starts = append(starts, 0)
	for i := 0; i < len(src); i++ {
		if src[i] == '\n' {
			starts = append(starts, i+1)
		}
	}
	return func(off int) int {
		lo, hi := 0, len(starts)-1
		for lo < hi {
			mid := (lo + hi + 1) / 2
			if starts[mid] <= off {
				lo = mid
			} else {
				hi = mid - 1
			}
		}
		return lo
	}
}
