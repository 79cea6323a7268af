// Package sqlparse reads the SQL a backfill runs: warehouse dialects and dbt
// Jinja are normalised into PostgreSQL syntax, each statement is parsed with
// the PostgreSQL parser (pg_query), and every position maps back to the text
// the user wrote.
package sqlparse

import (
	"cmp"
	"errors"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/bflint/bflint/parser/sqlparse/dialect"
	"github.com/bflint/bflint/parser/sqlparse/fact"
	"github.com/bflint/bflint/parser/sqlparse/internal/pgjson"
	"github.com/bflint/bflint/parser/sqlparse/internal/tree"
	"github.com/bflint/bflint/parser/sqlparse/jinja"
	"github.com/bflint/bflint/parser/sqlparse/sqltext"
	pg_query "github.com/pganalyze/pg_query_go/v5"
	pgparser "github.com/pganalyze/pg_query_go/v5/parser"
)

// Prepare builds what parsing needs before its first statement, the
// decoding tables of internal/pgjson (some 14 ms), so that a caller with
// other work to do first, such as reading files, can have it done
// alongside.
func Prepare() { pgjson.Prepare() }

// Limits on what bflint reads of one file.
const (
	MaxStatements = 100_000 // statements read from one file
	MaxFileBytes  = 4 << 20 // of a file, read as statements
	// MaxReadBytes bounds what bflint keeps of one file's statements. A
	// parsed statement counts the length of the parser's JSON for it (its
	// tree takes about six times as much memory), one read from its tokens
	// tokenCost bytes per byte of its text. The statements after the
	// budget is spent are one reported rest of the file.
	MaxReadBytes = 16 << 20
)

// tokenCost is what a byte of a statement read from its tokens counts
// against MaxReadBytes: its token facts take about as much memory as the
// parse tree of a statement of its length.
const tokenCost = 8

// Options say how to read a file.
type Options struct {
	// ModelName is the dbt model the file defines; {{ this }} becomes it.
	ModelName string
	// Resolve maps a dbt ref ("ref", [pkg,] name) or source ("source",
	// source, table) to a relation name; nil keeps a readable name built
	// from the arguments.
	Resolve func(kind string, args []string) string
	// PostgresOnly skips warehouse rewrites (configuration dialect: postgres).
	PostgresOnly bool
	// Macros are the dbt project's own macros (jinja.ReadMacros); nil
	// when they were not read. A call to one is read as its SQL.
	Macros map[string]jinja.Macro
	// Vars are the dbt project's vars, which var() reads in a macro.
	Vars map[string]jinja.Value
	// AppendsUnlessFiltered is set for a dbt model whose config makes its
	// re-run safety rest on its incremental filter (see
	// jinja.Options.AppendsUnlessFiltered).
	AppendsUnlessFiltered bool
	// ReadBudget replaces MaxReadBytes when set.
	ReadBudget int
	// Materialized is the dbt model's materialization as its project
	// resolves it (folder config, properties, config()); "" when unknown,
	// when the file's own config() decides.
	Materialized string
}

// Statement is one statement of a file.
type Statement struct {
	fact.Source
	// Node is the parsed statement; nil when it could not be parsed.
	Node *pg_query.Node
	// Problem says why Node is nil (rule BF002).
	Problem *sqltext.Problem
	// Unread is, for the rest of a file left unread (past a size or a
	// statement limit), how many statements it holds, counted without
	// reading them; 0 for any other statement.
	Unread int
	// ReplaceWhere is the predicate of INSERT INTO t REPLACE WHERE pred,
	// which normalisation removes because PostgreSQL has no such clause;
	// nil without one, or when the predicate does not parse.
	ReplaceWhere *Predicate
	// Variant names the branch of {% if is_incremental() %} this statement
	// comes from: "" when the file has none, else "incremental" or "full".
	Variant string
	// Opaque names the macro whose call is the whole statement when its
	// SQL was not read: what stands for it parses, but nothing of the
	// statement was read, and coverage counts it so.
	Opaque string

	// code are the statement's tokens but spaces and comments, kept from
	// the parse because several facts scan them.
	code  []sqltext.Token
	facts facts
}

// codeTokens returns the statement's tokens but spaces and comments.
func (s *Statement) codeTokens() []sqltext.Token {
	if s.code == nil {
		toks, _ := sqltext.Lex(s.Text)
		return sqltext.Code(toks)
	}
	return s.code
}

// File is a parsed SQL file.
type File struct {
	Statements []*Statement
	Comments   []Comment
	// Problems are faults outside any statement's parse: where the lexer
	// stopped, or Jinja that does not balance.
	Problems []sqltext.Problem
	// Model is the dbt config() of the file, when it has one, and
	// ConfigKeys every key its config() calls set, in order.
	Model      *jinja.Model
	ConfigKeys []jinja.ConfigKey

	// templated is set when the parse lexed the whole file as written
	// and found Jinja in it (outside string literals and comments).
	templated bool
	// IncrementalMacro names a project macro the model calls that tests
	// is_incremental() and whose SQL could not be read: what an
	// incremental run filters is then unknown.
	IncrementalMacro string
	// Expansion says which project macros the model calls were read as
	// SQL in place of the call, and which could not be.
	Expansion jinja.Expansion
}

// Comment is a "--", "#", "//" or "/* */" comment.
type Comment struct {
	Start, End int
	Text       string // without the comment markers, trimmed
	// Trailing is set when code stands before it on its line.
	Trailing bool
}

func (o Options) jinja() jinja.Options {
	return jinja.Options{ModelName: o.ModelName, Resolve: o.Resolve, Macros: o.Macros, Vars: o.Vars, AppendsUnlessFiltered: o.AppendsUnlessFiltered}
}

// Parse reads src. It never fails: what cannot be read is a Problem, on the
// file or on the statement it belongs to. A dbt model's calls to its
// project's macros are read as the macros' SQL (jinja.Expand): the text
// is read with them expanded, and every position is mapped back to src,
// a position inside an expansion to the call.
func Parse(src string, opts Options) *File {
	expanded, m, exp := jinja.Expand(src, opts.jinja())
	if m == nil {
		f := parse(src, opts)
		f.Expansion = exp
		return f
	}
	f := parse(expanded, opts)
	f.Expansion = exp
	f.templated = false // the tokens were the expansion's
	for _, st := range f.Statements {
		st.Start, st.End = m.Orig(st.Start), m.Orig(st.End)
		if st.Map != nil {
			st.Map = st.Map.Then(m)
		}
		if st.Problem != nil {
			st.Problem.Offset = m.Orig(st.Problem.Offset)
		}
		if p := st.ReplaceWhere; p != nil {
			p.Shift = m.Orig(p.Shift+len(predicatePrefix)) - len(predicatePrefix)
		}
	}
	for i := range f.Problems {
		f.Problems[i].Offset = m.Orig(f.Problems[i].Offset)
	}
	if f.Model != nil {
		f.Model.Offset = m.Orig(f.Model.Offset)
	}
	for i := range f.ConfigKeys {
		k := &f.ConfigKeys[i]
		k.Call, k.At = m.Orig(k.Call), m.Orig(k.At)
	}
	// A comment inside a macro's SQL is not the model's: a directive in
	// it would apply to the call.
	comments := f.Comments[:0]
	for _, c := range f.Comments {
		if m.Copied(c.Start, c.End) {
			c.Start, c.End = m.Orig(c.Start), m.Orig(c.End)
			comments = append(comments, c)
		}
	}
	f.Comments = comments
	return f
}

// Dialect guesses the dialect of src, the file f was parsed from, as
// dialect.Guess does; a file whose parse found Jinja in it is not lexed
// again.
func (f *File) Dialect(src string) string {
	if f.templated {
		return "dbt"
	}
	return dialect.Guess(src)
}

func parse(src string, opts Options) *File {
	f := &File{}
	// The unread rest of the file is one reported statement, never a
	// silent skip; of several reasons to stop, the first in the file
	// counts.
	var rest *Statement
	whole := src
	unread := func(start, problemAt int, msg string) {
		if rest == nil || start < rest.Start {
			rest = &Statement{Source: fact.Source{Start: start, End: len(whole)}, Problem: &sqltext.Problem{Offset: problemAt, Msg: msg}}
		}
	}
	defer func() {
		if rest != nil {
			rest.Unread = sqltext.CountStatements(whole[rest.Start:])
			f.Statements = append(f.Statements, rest)
		}
	}()
	if cut, next, why, ok := cutRead(src); ok {
		// Lexed, the rest would cost memory many times its size.
		unread(next, next, why)
		src = src[:cut]
	}
	// The file's tokens serve this parse alone: what the statements keep
	// of them is copied.
	lexed := sqltext.LexPooled(src)
	defer lexed.Release()
	toks, code, lexErr := lexed.Tokens, lexed.Code, lexed.Err
	f.Comments = comments(src, toks)
	f.templated = len(src) == len(whole) && jinja.Contains(toks)
	variants := []jinja.Variant{{}}
	var opaque []jinja.OpaqueBody
	// Jinja inside a string literal ('{{ var("day") }}') lexes as part of the string,
	// so the text is the surer sign.
	if jinja.Contains(toks) || strings.Contains(src, "{{") || strings.Contains(src, "{%") {
		r := jinja.Render(src, toks, code, opts.jinja())
		variants, f.Model, f.IncrementalMacro, opaque = r.Variants, r.Model, r.IncrementalMacro, r.OpaqueBodies
		variants = runnable(variants, opts.Materialized, f.Model)
		if f.Model != nil {
			f.ConfigKeys = jinja.ConfigKeys(src, jinja.Regions(src))
		}
		f.Problems = append(f.Problems, r.Problems...)
	}
	var rewrites []sqltext.Edit
	var marks []dialect.Mark
	if !opts.PostgresOnly {
		rewrites, marks = dialect.Edits(src, toks, code)
	}
	pieces := sqltext.Split(src, toks)
	if lexErr != nil && len(pieces) > 0 && src[pieces[len(pieces)-1].End-1] != ';' {
		pieces = pieces[:len(pieces)-1] // the unfinished statement the fault is in
	}
	if len(pieces) > MaxStatements {
		// The rest of the file is one reported statement, never a silent
		// skip; a lexer fault past the cut is part of it. Blank lines and
		// comments after the last statement are no statement.
		if start := firstCode(toks, pieces[MaxStatements].Start); start >= 0 {
			unread(start, start, tooManyStatements)
			lexErr = nil
		}
		pieces = pieces[:MaxStatements]
	}
	if lexErr != nil {
		// The statement the fault is in cannot be read; those before it can.
		last := 0
		if len(pieces) > 0 {
			last = pieces[len(pieces)-1].End
		}
		start := firstCode(toks, last)
		if start < 0 {
			start = lexErr.Offset
		}
		unread(start, lexErr.Offset, lexErr.Msg)
	}
	type reading struct {
		start int
		text  string
	}
	seen := map[reading]bool{}
	budget := cmp.Or(opts.ReadBudget, MaxReadBytes)
	spentAt := -1 // where the first statement left unread by the budget starts
	for _, v := range variants {
		edits := sqltext.SortEdits(append(append([]sqltext.Edit(nil), v.Edits...), rewrites...))
		for i, p := range pieces {
			if budget <= 0 {
				if start := firstCode(toks, p.Start); start >= 0 && (spentAt < 0 || start < spentAt) {
					spentAt = start
				}
				pieces = pieces[:i] // the other variants stop here too
				break
			}
			text, m := sqltext.Rewrite(src, p.Start, p.End, edits)
			code := unchangedCode(src, toks, text, p)
			if code == nil {
				var spliced bool
				if code, spliced = sqltext.SplicedCode(src, toks, text, m); !spliced {
					lexed := sqltext.LexPooled(text)
					code = sqltext.Code(lexed.Tokens)
					lexed.Release()
				}
			}
			first := firstCode(code, 0)
			if first < 0 || text[first:] == ";" {
				continue // only comments, blanks or Jinja that produced nothing
			}
			key := reading{p.Start, text}
			if seen[key] {
				continue
			}
			seen[key] = true
			st := &Statement{Source: fact.Source{Text: text, Map: m, Start: m.Orig(first), End: p.End}, Variant: v.Name}
			for _, mk := range marks {
				if mk.Offset >= p.Start && mk.Offset < p.End {
					st.Flags |= mk.Flags
					if mk.Flags&dialect.ReplaceWhere != 0 && st.ReplaceWhere == nil {
						st.ReplaceWhere = replacePredicate(src, mk.Predicate)
					}
				}
			}
			for _, o := range opaque {
				if o.Offset >= p.Start && o.Offset < p.End {
					st.Opaque = cmp.Or(o.Macro, "Jinja")
				}
			}
			st.Problem = parseInto(st, code, &budget)
			if st.Node == nil {
				budget -= tokenCost * len(text)
			}
			st.code = code
			f.Statements = append(f.Statements, st)
		}
	}
	if spentAt >= 0 {
		unread(spentAt, spentAt, budgetSpent)
	}
	return f
}

var budgetSpent = fmt.Sprintf("what bflint keeps of the statements before this one fills the %d MiB it has for one file", MaxReadBytes>>20)

var tooLarge = fmt.Sprintf("the file is larger than %d MiB; bflint reads the statements that end within its first %d MiB and not the rest", MaxFileBytes>>20, MaxFileBytes>>20)

var tooManyStatements = fmt.Sprintf("the file holds more than %d statements; bflint reads the first %d and not the rest", MaxStatements, MaxStatements)

// statementsWindow is the size of the first prefix cutRead lexes: a file
// smaller than it is lexed whole.
const statementsWindow = 1 << 20

// cutRead returns where the statements bflint reads of src end, and where
// the code after them starts, when more code follows: after the
// MaxStatements-th statement, or after the last statement that ends within
// the first MaxFileBytes. It lexes prefixes of growing size, so that a
// file of millions of statements is lexed only a little past what bflint
// reads of it.
func cutRead(src string) (cut, next int, why string, ok bool) {
	if len(src) <= statementsWindow {
		return 0, 0, "", false
	}
	after := func(end int, why string) (int, int, string, bool) {
		rest := sqltext.LexPooled(src[end:min(len(src), end+64<<10)])
		defer rest.Release()
		if at := firstCode(rest.Tokens, 0); at >= 0 {
			return end, end + at, why, true
		}
		return 0, 0, "", false
	}
	for size := statementsWindow; ; size *= 2 {
		size = min(size, len(src), MaxFileBytes)
		limit, last := statementEnds(src[:size])
		if limit >= 0 {
			return after(limit, tooManyStatements)
		}
		switch size {
		case len(src):
			return 0, 0, "", false
		case MaxFileBytes:
			return after(last, tooLarge)
		}
	}
}

// statementEnds returns where the MaxStatements-th statement of text
// ends, -1 when it has fewer, and where its last statement ended by a ';'
// ends.
func statementEnds(text string) (limit, last int) {
	lexed := sqltext.LexPooled(text)
	defer lexed.Release()
	n, depth := 0, 0
	for _, t := range lexed.Tokens {
		if t.Kind != sqltext.Punct {
			continue
		}
		switch text[t.Start] {
		case '(', '[':
			depth++
		case ')', ']':
			depth = max(depth-1, 0)
		case ';':
			if depth > 0 {
				continue
			}
			last = int(t.End)
			if n++; n == MaxStatements {
				return last, last
			}
		}
	}
	return -1, last
}

// parseInto parses st.Text and sets st.Node, or returns why it could not;
// the size of the tree is taken from budget.
func parseInto(st *Statement, toks []sqltext.Token, budget *int) *sqltext.Problem {
	if !utf8.ValidString(st.Text) {
		off := 0
		for off < len(st.Text) {
			r, size := utf8.DecodeRuneInString(st.Text[off:])
			if r == utf8.RuneError && size == 1 {
				break
			}
			off += size
		}
		return &sqltext.Problem{Offset: st.Map.Orig(off), Msg: "invalid UTF-8 in the statement: bflint reads SQL files as UTF-8"}
	}
	if len(st.Text) > tree.MaxStatementBytes {
		return &sqltext.Problem{Offset: st.Start, Msg: fmt.Sprintf("statement is %d KiB, more than the %d KiB bflint parses", len(st.Text)>>10, tree.MaxStatementBytes>>10)}
	}
	if off, what, deep := tree.TooDeep(st.Text, toks); deep {
		return &sqltext.Problem{Offset: st.Map.Orig(off), Msg: "statement " + what + "; bflint does not hand it to the parser, whose stack it could overflow"}
	}
	parsed := blankLiteralRows(st.Text, toks)
	res, size, err := pgjson.ParseSized(parsed)
	if err != nil {
		return parseProblem(st, parsed, err)
	}
	*budget -= size
	if len(res.Stmts) == 0 {
		return nil
	}
	st.Node = res.Stmts[0].Stmt
	return nil
}

// parseProblem converts pg_query's error, whose cursor counts characters
// from 1 in the parsed text, into a Problem at an original offset.
// parsed is the text the parser was given, of the statement's length,
// in which the cursor counts.
func parseProblem(st *Statement, parsed string, err error) *sqltext.Problem {
	var pe *pgparser.Error
	if errors.As(err, &pe) && pe.Cursorpos > 0 {
		return &sqltext.Problem{Offset: st.Map.Orig(byteOffset(parsed, pe.Cursorpos-1)), Msg: pe.Message}
	}
	return &sqltext.Problem{Offset: st.Start, Msg: err.Error()}
}

// byteOffset converts a count of characters into a byte offset.
func byteOffset(s string, chars int) int {
	off := 0
	for i := 0; i < chars && off < len(s); i++ {
		_, size := utf8.DecodeRuneInString(s[off:])
		off += size
	}
	return off
}

// unchangedCode returns the code tokens of a statement that no rewrite
// touched, taken from the file's own tokens and shifted to offsets in text
// instead of lexing it again; nil when the text was rewritten.
func unchangedCode(src string, toks []sqltext.Token, text string, p sqltext.Piece) []sqltext.Token {
	if len(text) != p.End-p.Start || text != src[p.Start:p.End] {
		return nil
	}
	i := sort.Search(len(toks), func(i int) bool { return int(toks[i].Start) >= p.Start })
	j := sort.Search(len(toks), func(i int) bool { return int(toks[i].Start) >= p.End })
	if j > i && int(toks[j-1].End) > p.End {
		return nil // a token runs past the statement: only a fresh lex is sure
	}
	out := make([]sqltext.Token, 0, j-i)
	for _, t := range toks[i:j] {
		if t.IsCode() {
			out = append(out, sqltext.Token{Kind: t.Kind, Start: int32(int(t.Start) - p.Start), End: int32(int(t.End) - p.Start)})
		}
	}
	return out
}

func firstCode(toks []sqltext.Token, from int) int {
	for _, t := range toks {
		if int(t.Start) >= from && t.IsCode() {
			return int(t.Start)
		}
	}
	return -1
}

// comments collects the comments of the file, marking those that trail code
// on their line.
func comments(src string, toks []sqltext.Token) []Comment {
	var out []Comment
	codeLineEnd := -1 // offset of the end of the line holding the last code token
	for _, t := range toks {
		switch t.Kind {
		case sqltext.LineComment, sqltext.BlockComment:
			out = append(out, Comment{Start: int(t.Start), End: int(t.End), Text: commentText(src[t.Start:t.End]), Trailing: int(t.Start) < codeLineEnd})
		case sqltext.Space:
		default:
			// Only a token past the known line end can move it, which keeps
			// a file written on one long line linear to scan.
			if int(t.End) > codeLineEnd {
				if nl := strings.IndexByte(src[t.End:], '\n'); nl >= 0 {
					codeLineEnd = int(t.End) + nl
				} else {
					codeLineEnd = len(src)
				}
			}
		}
	}
	return out
}

func commentText(c string) string {
	switch {
	case strings.HasPrefix(c, "--"), strings.HasPrefix(c, "//"):
		c = c[2:]
	case strings.HasPrefix(c, "#"):
		c = c[1:]
	case strings.HasPrefix(c, "/*"):
		c = strings.TrimSuffix(c[2:], "*/")
	}
	return strings.TrimSpace(c)
}

// Predicate is a condition cut from a statement and parsed on its own, as
// the WHERE of "SELECT 1 WHERE <condition>".
type Predicate struct {
	Statement *Statement
	Where     *pg_query.Node
	// Shift added to a location in Statement gives the offset in the
	// original text.
	Shift int
}

// predicatePrefix makes a condition a query of its own.
const predicatePrefix = "SELECT 1 WHERE "

func replacePredicate(src string, span [2]int) *Predicate {
	if span[1] <= span[0] {
		return nil
	}
	f := Parse(predicatePrefix+src[span[0]:span[1]], Options{})
	if len(f.Statements) != 1 || f.Statements[0].Node == nil {
		return nil
	}
	st := f.Statements[0]
	where := st.Select().GetWhereClause()
	if where == nil {
		return nil
	}
	return &Predicate{Statement: st, Where: where, Shift: span[0] - len(predicatePrefix)}
}

// runnable keeps the readings of a template dbt can run: a model whose
// materialization is known and is not incremental never runs its
// is_incremental() branches, so only its full-refresh reading is kept.
// The project's resolution (materialized) wins over the file's config().
func runnable(variants []jinja.Variant, materialized string, model *jinja.Model) []jinja.Variant {
	if materialized == "" && model != nil {
		materialized = model.Materialized
	}
	if materialized == "" || strings.EqualFold(materialized, "incremental") || len(variants) < 2 {
		return variants
	}
	for _, v := range variants {
		if v.Name == "full" {
			return []jinja.Variant{v}
		}
	}
	return variants
}
