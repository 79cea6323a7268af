package rules

import (
	"sort"

	"github.com/bflint/bflint/parser/sqlparse"
	"github.com/bflint/bflint/parser/sqlparse/dialect"
)

// Coverage counts how the SQL statements of a run were read: parsed, read
// from tokens, or not read at all. It is about bflint's own limits, so it
// is reported as counts beside the findings, never as findings (only a
// statement nothing could be read from is BF002). A file several plans name
// counts once; each branch of a dbt {% if is_incremental() %} counts as a
// statement, since each is checked.
type Coverage struct {
	Tally
	// ByDialect splits the tally by each file's guessed dialect
	// (dialect.Guess), when Settings.CoverageByDialect asks for it: the
	// guess reads every file once more.
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
			fc.dialect = dialect.Guess(f.Source.Text())
		}
		for _, st := range f.Parsed.Statements {
			// The unread rest of a file counts as the statements it holds.
			fc.counts[st.Coverage()] += max(st.Unread, 1)
			if st.Problem != nil {
				fc.stoppers = append(fc.stoppers, sqlparse.Construct(f.Source.Content, st.Problem.Offset, st.End))
			}
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
