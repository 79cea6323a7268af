package json

import (
	"io"

	"github.com/bflint/bflint/reporters"
	"github.com/bflint/bflint/rules"
)

// Version is the document version written in "version".
const Version = 1

// Options fill the parts of the document that the result does not know.
type Options struct {
	// ToolVersion is bflint's version, written as tool.version.
	ToolVersion string
}

// The structs below fix the field order, so the output is byte-for-byte
// reproducible; doc.go and schema.json describe the same fields.
type document struct {
	Version  int       `json:"version"`
	Tool     tool      `json:"tool"`
	Findings []finding `json:"findings"`
	Errors   []ierror  `json:"errors"`
	Summary  summary   `json:"summary"`
	Coverage coverage  `json:"coverage"`
	Inputs   inputs    `json:"inputs"`
}

type tool struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

type finding struct {
	Code        string `json:"code"`
	Name        string `json:"name"`
	Severity    string `json:"severity"`
	Message     string `json:"message"`
	Help        string `json:"help,omitempty"`
	File        string `json:"file"`
	Line        int    `json:"line"`
	Column      int    `json:"column"`
	EndLine     int    `json:"end_line,omitempty"`
	EndColumn   int    `json:"end_column,omitempty"`
	Fingerprint string `json:"fingerprint"`
	Analysis    string `json:"analysis,omitempty"`
	// Inventory marks an entry of an inventory (a model that cannot be
	// backfilled by range), which the formats a person reads count but
	// do not print.
	Inventory bool      `json:"inventory,omitempty"`
	Related   []related `json:"related,omitempty"`
}

// related is a place a finding names besides its own.
type related struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Message string `json:"message"`
}

type ierror struct {
	Code    string `json:"code"`
	File    string `json:"file"`
	Message string `json:"message"`
}

type summary struct {
	Errors     int `json:"errors"`
	Warnings   int `json:"warnings"`
	Infos      int `json:"infos"`
	Suppressed int `json:"suppressed"`
}

// inputs count the plans and lineages a run linted.
type inputs struct {
	Plans        int `json:"plans"`
	BqetlEntries int `json:"bqetl_entries"`
	DBTManifests int `json:"dbt_manifests"`
	DBTProjects  int `json:"dbt_projects"`
	BqetlTrees   int `json:"bqetl_trees"`
}

// coverage counts how the run's SQL statements were read.
type coverage struct {
	SQLFiles   int `json:"sql_files"`
	Statements int `json:"statements"`
	Parsed     int `json:"parsed"`
	FromTokens int `json:"from_tokens"`
	NotRead    int `json:"not_read"`
	// What of the dbt projects' macros and the bigquery-etl queries
	// bflint could read.
	MacroCallsRead int `json:"macro_calls_read"`
	MacrosUnread   int `json:"macros_unread"`
	FiltersUnread  int `json:"filters_unread"`
	PythonQueries  int `json:"python_queries"`
	// Unparsed names each statement read from tokens or not read.
	Unparsed []unparsed `json:"unparsed"`
	// ProjectProblems are the dbt project files not read as dbt reads
	// them.
	ProjectProblems []projectProblem `json:"project_problems"`
}

// projectProblem is a dbt project file bflint could not read as dbt
// would; line is 0 for the file as a whole.
type projectProblem struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Message string `json:"message"`
}

// unparsed is a statement that did not parse: where, how it was read
// instead, and what stopped the parser.
type unparsed struct {
	File       string `json:"file"`
	Line       int    `json:"line"`
	Column     int    `json:"column"`
	Read       string `json:"read"`
	Construct  string `json:"construct"`
	Statements int    `json:"statements"`
}

// Write writes res as one JSON document followed by a newline.
func Write(w io.Writer, res *rules.Result, opts Options) error {
	doc := document{
		Version:  Version,
		Tool:     tool{Name: "bflint", Version: opts.ToolVersion},
		Findings: []finding{},
		Errors:   []ierror{},
	}
	prints := rules.Fingerprints(res.Findings)
	c := reporters.Count(res)
	doc.Summary = summary{Errors: c.Errors, Warnings: c.Warnings, Infos: c.Infos, Suppressed: c.Suppressed}
	cov := res.Coverage
	doc.Coverage = coverage{SQLFiles: cov.Files, Statements: cov.Total(), Parsed: cov.Parsed(), FromTokens: cov.FromTokens(), NotRead: cov.NotRead(),
		MacroCallsRead: cov.MacrosRead, MacrosUnread: len(cov.MacrosUnread), FiltersUnread: cov.FiltersUnread, PythonQueries: cov.PythonQueries,
		Unparsed: make([]unparsed, 0, len(cov.Unparsed)), ProjectProblems: make([]projectProblem, 0, len(cov.ProjectProblems))}
	for _, pr := range cov.ProjectProblems {
		doc.Coverage.ProjectProblems = append(doc.Coverage.ProjectProblems, projectProblem{File: pr.File, Line: pr.Line, Message: pr.Msg})
	}
	for _, u := range cov.Unparsed {
		at, _, _ := reporters.Span(res.Fset, rules.Finding{File: u.File, Pos: u.Pos})
		doc.Coverage.Unparsed = append(doc.Coverage.Unparsed, unparsed{File: reporters.FileName(u.File), Line: at.Line, Column: at.Column,
			Read: u.Read.String(), Construct: u.Construct, Statements: u.Statements})
	}
	in := res.Inputs
	doc.Inputs = inputs{Plans: in.Plans, BqetlEntries: in.Entries, DBTManifests: in.DBTManifests, DBTProjects: in.DBTProjects, BqetlTrees: in.BqetlTrees}
	for i, f := range res.Findings {
		if f.Suppressed != nil {
			continue
		}
		sev := reporters.EffectiveSeverity(f)
		start, end, hasEnd := reporters.Span(res.Fset, f)
		out := finding{
			Code:        reporters.RuleCode(f.Rule),
			Name:        reporters.RuleName(f.Rule),
			Severity:    sev.String(),
			Message:     f.Message,
			Help:        f.Help,
			File:        reporters.FileName(f.File),
			Line:        start.Line,
			Column:      start.Column,
			Fingerprint: prints[i],
		}
		if hasEnd {
			out.EndLine, out.EndColumn = end.Line, end.Column
		}
		if f.FromTokens {
			out.Analysis = "tokens"
		}
		out.Inventory = f.Inventory
		for _, r := range f.Related {
			rs, _, _ := reporters.RelatedSpan(res.Fset, r)
			out.Related = append(out.Related, related{File: reporters.FileName(r.File), Line: rs.Line, Column: rs.Column, Message: r.Message})
		}
		doc.Findings = append(doc.Findings, out)
	}
	for _, e := range res.Errors {
		doc.Errors = append(doc.Errors, ierror{Code: reporters.RuleCode(e.Rule), File: reporters.FileName(e.File), Message: e.Message})
	}
	_, err := w.Write(doc.encode())
	return err
}
