// Package rangesem reads how a run of a dbt model chooses the partitions
// it computes: from a range it is given (a parameter), from the clock,
// from what it already holds (a high-water mark), or all of them. A
// backfill asks a model to recompute a past range; only a model whose
// range is a parameter, or that recomputes everything, can be asked.
package rangesem

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/bflint/bflint/parser/manifest"
	"github.com/bflint/bflint/parser/sqlparse"
	"github.com/bflint/bflint/parser/sqlparse/fact"
	"github.com/bflint/bflint/parser/sqlparse/jinja"
	"github.com/bflint/bflint/parser/sqlparse/sqltext"
)

// Kind is how a run chooses its partitions.
type Kind string

const (
	// Parameter: the run is given its range (microbatch's event time,
	// var() values a command sets, a query parameter).
	Parameter Kind = "parameter"
	// Clock: the range follows the time of the run (CURRENT_DATE, now(),
	// run_started_at): a run for a past range recomputes the days before
	// today instead.
	Clock Kind = "clock"
	// Watermark: the range starts where the rows the model holds end (its
	// own maximum, or the rows it does not hold yet): a run for a past
	// range writes nothing.
	Watermark Kind = "watermark"
	// Whole: every run computes everything (a table, a view, an
	// incremental model with no incremental filter).
	Whole Kind = "whole"
	// Unknown: the incremental filter decides by something else, or could
	// not be read.
	Unknown Kind = "unknown"
)

// Semantics is how one model's run chooses its partitions.
type Semantics struct {
	Kind Kind
	// At is the offset in the model's file of what decides it (the
	// incremental filter, or the call of the macro that holds it); -1
	// when nothing in the file does.
	At int
	// Why says so in words, for messages and inventories.
	Why string
}

// Reachable reports whether a run can be given a past range.
func (s Semantics) Reachable() bool { return s.Kind == Parameter || s.Kind == Whole }

// Model reads the range semantics of a dbt model from its template and
// its resolved config.
func Model(src string, opts jinja.Options, c manifest.Config) Semantics {
	switch materialized := strings.ToLower(c.Materialized); {
	case materialized != "incremental":
		return Semantics{Kind: Whole, At: -1, Why: cmp.Or(materialized, "view") + ": every run computes all of it"}
	case strings.EqualFold(c.IncrementalStrategy, "microbatch"):
		return Semantics{Kind: Parameter, At: -1, Why: "microbatch: dbt runs the batches of the event times it is given"}
	}
	if !strings.Contains(src, "is_incremental") && !callsIncrementalMacro(src, opts) {
		return Semantics{Kind: Whole, At: -1, Why: "no is_incremental() filter: every run reads everything it selects"}
	}
	f := jinja.IncrementalFilter(src, opts)
	switch {
	case !f.Found && f.Unread != "":
		return Semantics{Kind: Unknown, At: f.At, Why: "its incremental filter is in a macro bflint cannot read: " + f.Unread}
	case !f.Found:
		return Semantics{Kind: Whole, At: -1, Why: "no is_incremental() filter: every run reads everything it selects"}
	case f.Unread != "" && strings.TrimSpace(f.Text) == "":
		return Semantics{Kind: Unknown, At: f.At, Why: "its incremental filter is in a macro bflint cannot read: " + f.Unread}
	case strings.TrimSpace(f.Text) == "":
		// is_incremental() only leaves something out of the first build.
		return Semantics{Kind: Whole, At: -1, Why: "its incremental runs filter nothing: every run reads everything it selects"}
	}
	s := Classify(f.Text)
	s.At = f.At
	return s
}

// Classify reads a rendered incremental filter (jinja.Filter.Text).
func Classify(filter string) Semantics {
	lexed := sqltext.LexPooled(filter)
	defer lexed.Release()
	toks := lexed.Tokens
	var clock, this, vars string
	// capOnly stays set while every clock seen only caps the range from
	// above (ts < current_date): with a high-water mark beside it, the
	// range starts where the rows held end.
	capOnly := true
	for i, t := range toks {
		text := t.Text(filter)
		switch t.Kind {
		case sqltext.Word:
			switch {
			case fact.IsClock(text, next(toks, filter, i) == "("):
				capOnly = capOnly && upperBound(toks, filter, i)
				if clock != "" {
					break
				}
				clock = strings.ToLower(text)
				if next(toks, filter, i) == "(" {
					clock += "()"
				}
			case strings.EqualFold(text, jinja.ThisText):
				this = "its own rows"
			case strings.EqualFold(text, jinja.VarText):
				vars = "var()"
			}
		case sqltext.String:
			if strings.Contains(text, jinja.ClockText) {
				capOnly = capOnly && upperBound(toks, filter, i)
				if clock == "" {
					clock = "the time of the run (run_started_at)"
				}
			}
			if strings.Contains(text, jinja.VarText) {
				vars = "var()"
			}
		}
	}
	switch {
	case this != "" && clock != "" && capOnly:
		// The range starts where the rows held end; the clock then
		// only caps it (ts > (SELECT MAX(ts) FROM this) AND ts < current_date).
		return Semantics{Kind: Watermark, Why: fmt.Sprintf("its incremental filter starts from the rows the model already holds (a high-water mark, capped by %s)", clock)}
	case clock != "":
		return Semantics{Kind: Clock, Why: fmt.Sprintf("its incremental filter follows the clock (%s)", clock)}
	case this != "":
		// A var() beside it (the column the maximum is taken of) does
		// not give the range.
		return Semantics{Kind: Watermark, Why: "its incremental filter starts from the rows the model already holds (a high-water mark, or only the rows it lacks)"}
	case vars != "":
		return Semantics{Kind: Parameter, Why: "its incremental filter takes the range from var() values a command sets"}
	case strings.TrimSpace(filter) == "":
		return Semantics{Kind: Unknown, Why: "its is_incremental() branch filters nothing bflint can read"}
	}
	return Semantics{Kind: Unknown, Why: "its incremental filter is bounded by neither the clock, its own rows nor var() values"}
}

// upperBound reports whether the clock at token i is the upper side of a
// comparison (ts < current_date, ts <= dateadd(day, -1, now())): the
// nearest comparison operator before it, outside the calls it sits in, is
// < or <=.
func upperBound(toks []sqltext.Token, src string, i int) bool {
	depth := 0
	for j := i - 1; j >= 0 && j >= i-16; j-- {
		if !toks[j].IsCode() {
			continue
		}
		switch text := strings.ToUpper(toks[j].Text(src)); text {
		case ")":
			depth++
		case "(":
			depth--
		case "<", "<=":
			if depth <= 0 {
				return true
			}
		case ">", ">=", "=", "AND", "OR", "WHERE", "BETWEEN":
			if depth <= 0 {
				return false
			}
		}
	}
	return false
}

func next(toks []sqltext.Token, src string, i int) string {
	for j := i + 1; j < len(toks); j++ {
		if toks[j].IsCode() {
			return toks[j].Text(src)
		}
	}
	return ""
}

func callsIncrementalMacro(src string, opts jinja.Options) bool {
	testsIncremental := func(name string) bool { return jinja.TestsIncremental(opts.Macros, name) }
	return len(jinja.CallsOf(src, jinja.Regions(src), testsIncremental)) > 0
}

// Query reads the range semantics of a bigquery-etl query: bqetl runs it
// for a date it binds to param (a parameter), unless the query decides
// its rows by the clock where that date belongs; a query of a table
// written whole on every run (param "") computes everything.
func Query(f *sqlparse.File, param string) Semantics {
	if param == "" {
		return Semantics{Kind: Whole, At: -1, Why: "date_partition_parameter: null: every run writes the whole table"}
	}
	for _, st := range f.Statements {
		if cs := st.ClockDecisions(); len(cs) > 0 {
			return Semantics{Kind: Clock, At: cs[0].Offset, Why: fmt.Sprintf("it compares %s with %s where @%s belongs", cs[0].Column, strings.ToUpper(cs[0].Call), param)}
		}
	}
	return Semantics{Kind: Parameter, At: -1, Why: "bqetl runs it for the date it binds to @" + param}
}
