package rules

import (
	"go/token"
	"slices"
	"sort"

	"github.com/bflint/bflint/parser/source"
	"github.com/bflint/bflint/parser/sqlparse"
)

// Coverage counts how the SQL statements of a run were read: parsed, read
// from tokens, or not read at all. It is about bflint's own limits, so it
// is reported as counts beside the findings, never as findings (only a
// statement nothing could be read from is BF002). A file several plans name
// counts once; the branches of a dbt {% if is_incremental() %} are one
// statement, counted as its worst-read branch.
type Coverage struct {
	Tally
	// ByDialect splits the tally by each file's guessed dialect
	// (dialect.Guess), when Settings.CoverageByDialect asks for it: the
	// guess lexes again each file whose parse did not find Jinja in it
	// as written (a plain SQL file, a model whose macros were expanded).
	ByDialect map[string]*Tally
	// Stoppers counts the constructs that stopped the parser
	// (sqlparse.Construct), over the statements that did not parse.
	Stoppers map[string]int
	// MacrosRead counts the calls to project macros read as their SQL;
	// MacrosUnread the project macros models call that could not be, by
	// name, with why; FiltersUnread the models whose incremental filter
	// is in such a macro, whose re-run safety was then not judged.
	MacrosRead    int
	MacrosUnread  map[string]string
	FiltersUnread int
	// PythonQueries counts the bigquery-etl tables whose query is Python
	// (query.py), whose writes bflint does not read.
	PythonQueries int
	// Unparsed are the statements read from tokens or not read, by file
	// and position: what a reviewer checks by hand.
	Unparsed []Unparsed
	// ProjectProblems are the dbt project files bflint could not read as
	// dbt would (a properties file that is no valid YAML, a folder
	// dbt_project.yml names outside the repository): the config and the
	// macros they hold are unknown to the rules.
	ProjectProblems []ProjectProblem
}

// ProjectProblem is a dbt project file bflint could not read as dbt would;
// File is as shown to the user, Line 0 for the file as a whole.
type ProjectProblem struct {
	File string
	Line int
	Msg  string
}

// Unparsed is a statement that did not parse, or a model whose body is a
// macro call bflint did not read.
type Unparsed struct {
	File *source.File
	Pos  token.Pos
	Read sqlparse.Coverage
	// Construct is what stopped the parser, or the unread macro.
	Construct string
	// Statements is how many statements it stands for: more than one for
	// the unread rest of a file.
	Statements int
}

// UnparsedFile is a file's count of statements that did not parse.
type UnparsedFile struct {
	File                string
	FromTokens, NotRead int
}

// TopUnparsedFiles returns the n files with the most statements read from
// tokens or not read, most first.
func (c *Coverage) TopUnparsedFiles(n int) []UnparsedFile {
	byName := map[string]*UnparsedFile{}
	var out []*UnparsedFile
	for _, u := range c.Unparsed {
		f := byName[u.File.Name]
		if f == nil {
			f = &UnparsedFile{File: u.File.Name}
			byName[u.File.Name] = f
			out = append(out, f)
		}
		if u.Read == sqlparse.CoverageTokens {
			f.FromTokens += u.Statements
		} else {
			f.NotRead += u.Statements
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		return out[i].FromTokens+out[i].NotRead > out[j].FromTokens+out[j].NotRead
	})
	top := make([]UnparsedFile, 0, min(n, len(out)))
	for _, f := range out[:min(n, len(out))] {
		top = append(top, *f)
	}
	return top
}

// Tally counts files and their statements by how they were read.
type Tally struct {
	Files      int
	Statements [3]int // by sqlparse.Coverage
}

// Total is the number of statements.
func (t Tally) Total() int { return t.Statements[0] + t.Statements[1] + t.Statements[2] }

// Parsed, FromTokens and NotRead are the statements read each way.
func (t Tally) Parsed() int     { return t.Statements[sqlparse.CoverageParsed] }
func (t Tally) FromTokens() int { return t.Statements[sqlparse.CoverageTokens] }
func (t Tally) NotRead() int    { return t.Statements[sqlparse.CoverageNone] }

// Stopper is a construct that stopped the parser, with how often.
type Stopper struct {
	Construct string
	Count     int
}

// TopStoppers returns the n most frequent stoppers, most frequent first.
func (c *Coverage) TopStoppers(n int) []Stopper {
	out := make([]Stopper, 0, len(c.Stoppers))
	for k, v := range c.Stoppers {
		out = append(out, Stopper{k, v})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Count != out[j].Count {
			return out[i].Count > out[j].Count
		}
		return out[i].Construct < out[j].Construct
	})
	return out[:min(n, len(out))]
}

// fileCoverage is how the statements of one SQL file were read.
type fileCoverage struct {
	name     string
	dialect  string
	counts   [3]int
	stoppers []string
	unparsed []Unparsed
	// macrosRead, macrosUnread and filterUnread are what the file's
	// expansion of project macros read (sqlparse.File.Expansion).
	macrosRead   int
	macrosUnread map[string]string
	filterUnread bool
}

// coverageOf tallies a unit's SQL files while they are parsed, guessing
// each file's dialect when byDialect is set.
func coverageOf(u *Unit, byDialect bool) []fileCoverage {
	var out []fileCoverage
	for _, f := range u.SQL {
		if f.Parsed == nil {
			continue
		}
		fc := fileCoverage{name: f.Source.Name}
		if byDialect {
			fc.dialect = f.Parsed.Dialect(f.Source.Text())
		}
		for _, st := range modelStatements(f.Parsed.Statements) {
			read := st.Coverage()
			// The unread rest of a file counts as the statements it holds.
			fc.counts[read] += max(st.Unread, 1)
			if read == sqlparse.CoverageParsed {
				continue
			}
			u := Unparsed{File: f.Source, Pos: f.Pos(st.Start), Read: read, Statements: max(st.Unread, 1)}
			switch {
			case st.Problem != nil:
				u.Pos = f.Pos(st.Problem.Offset)
				u.Construct = sqlparse.Construct(f.Source.Content, st.Problem.Offset, st.End)
				fc.stoppers = append(fc.stoppers, u.Construct)
			default:
				u.Construct = "a call to " + st.Opaque + ", whose SQL bflint did not read"
			}
			fc.unparsed = append(fc.unparsed, u)
		}
		fc.macrosRead = len(f.Parsed.Expansion.Expanded)
		fc.macrosUnread = f.Parsed.Expansion.Unread
		// Only where the model's config leaves its re-run safety to the
		// filter does an unread filter leave it unjudged.
		fc.filterUnread = f.Parsed.IncrementalMacro != "" && (f.Model == nil || f.Model.Config.AppendsUnlessFiltered())
		out = append(out, fc)
	}
	return out
}

// modelStatements returns the statements of a file as its author wrote
// them: the branches of a dbt {% if is_incremental() %} are one statement,
// read as well as its worst-read branch.
func modelStatements(sts []*sqlparse.Statement) []*sqlparse.Statement {
	out := make([]*sqlparse.Statement, 0, len(sts))
	for i, st := range sts {
		if st.Variant != "" {
			if k := slices.IndexFunc(out, func(o *sqlparse.Statement) bool { return o.Variant != "" && o.Start == st.Start }); k >= 0 {
				if st.Coverage() > out[k].Coverage() {
					out[k] = sts[i]
				}
				continue
			}
		}
		out = append(out, st)
	}
	return out
}

// add merges a file's tally, once per file name.
func (c *Coverage) add(fc fileCoverage, seen map[string]bool) {
	if seen[fc.name] {
		return
	}
	seen[fc.name] = true
	if c.Stoppers == nil {
		c.ByDialect, c.Stoppers = map[string]*Tally{}, map[string]int{}
	}
	tallies := []*Tally{&c.Tally}
	if fc.dialect != "" {
		d := c.ByDialect[fc.dialect]
		if d == nil {
			d = &Tally{}
			c.ByDialect[fc.dialect] = d
		}
		tallies = append(tallies, d)
	}
	for _, t := range tallies {
		t.Files++
		for k, n := range fc.counts {
			t.Statements[k] += n
		}
	}
	for _, s := range fc.stoppers {
		c.Stoppers[s]++
	}
	c.Unparsed = append(c.Unparsed, fc.unparsed...)
	c.MacrosRead += fc.macrosRead
	for name, why := range fc.macrosUnread {
		if c.MacrosUnread == nil {
			c.MacrosUnread = map[string]string{}
		}
		c.MacrosUnread[name] = why
	}
	if fc.filterUnread {
		c.FiltersUnread++
	}
}

// sortUnparsed orders the unparsed statements by file and position.
func (c *Coverage) sortUnparsed() {
	sort.SliceStable(c.Unparsed, func(i, j int) bool {
		a, b := c.Unparsed[i], c.Unparsed[j]
		if a.File.Name != b.File.Name {
			return a.File.Name < b.File.Name
		}
		return a.Pos < b.Pos
	})
}
