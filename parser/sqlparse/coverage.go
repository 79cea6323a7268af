package sqlparse

import (
	"github.com/bflint/bflint/parser/sqlparse/fact"
	"github.com/bflint/bflint/parser/sqlparse/tokenread"
)

// Coverage says how the rules read a statement.
type Coverage int

const (
	// CoverageParsed: from its parse tree.
	CoverageParsed Coverage = iota
	// CoverageTokens: it did not parse; the rules that can work from
	// tokens read what it writes and joins from them.
	CoverageTokens
	// CoverageNone: nothing could be read, so no SQL rule checked it.
	CoverageNone
)

var coverageNames = [...]string{CoverageParsed: "parsed", CoverageTokens: "tokens", CoverageNone: "none"}

func (c Coverage) String() string {
	if c >= 0 && int(c) < len(coverageNames) {
		return coverageNames[c]
	}
	return "Coverage(?)"
}

// Coverage says how the rules read the statement. The unread rest of a
// file after a lexer fault has no text, so nothing of it is read; nor is
// anything of a statement that is an unread macro call (Opaque), though
// what stands for the call parses.
func (s *Statement) Coverage() Coverage {
	switch {
	case s.Opaque != "":
		return CoverageNone
	case s.Problem == nil:
		return CoverageParsed
	case s.Text != "" && s.TokenFacts().Analysed():
		return CoverageTokens
	}
	return CoverageNone
}

// TokenFacts reads the statement from its tokens, whether or not it
// parsed: the rules use it for statements that did not, and tests compare
// the two readings of those that did.
func (s *Statement) TokenFacts() *fact.TokenFacts {
	s.facts.tokensOnce.Do(func() {
		// A panic in the reader is a bflint bug, reported where it
		// happened (rules run under recover); every later reader of the
		// statement sees it as one nothing was read from, not nil.
		defer func() {
			if s.facts.tokens == nil {
				s.facts.tokens = &fact.TokenFacts{}
			}
		}()
		s.facts.tokens = tokenread.Read(&s.Source, s.codeTokens())
	})
	return s.facts.tokens
}
