package rules

import (
	"go/token"
	"slices"
	"sort"
)

// A Processor is one step of the chain a run's findings pass through once
// every unit is linted: it may change, mark or drop findings, or record
// them. Steps are small values so that a caller assembles the chain it
// needs and each step is tested alone.
type Processor struct {
	Name string
	Run  func([]Finding) ([]Finding, error)
}

// Process runs the processors over the findings of res, in order; the first
// that fails stops the chain with its error.
func Process(res *Result, ps ...Processor) error {
	for _, p := range ps {
		fs, err := p.Run(res.Findings)
		if err != nil {
			return err
		}
		res.Findings = fs
	}
	return nil
}

// Processors are the steps Run applies after the rules, in their order:
// configured severities first, so that dedupe sees final severities;
// sorting last, so that output does not depend on scheduling. The steps a
// caller adds (a baseline, --new-from-rev) come after them, on sorted
// findings whose fingerprints are final.
func Processors(s *Settings) []Processor {
	return []Processor{SeverityOverrides(s.Severity), Dedupe, Sort}
}

// SeverityOverrides sets the configured severity of every finding of a rule.
func SeverityOverrides(over map[string]Severity) Processor {
	return Processor{Name: "severity", Run: func(fs []Finding) ([]Finding, error) {
		for i := range fs {
			if sev, ok := over[fs[i].Rule.Code]; ok {
				fs[i].Severity = sev
			}
		}
		return fs, nil
	}}
}

// Dedupe drops a finding that repeats an earlier one: the same rule, place
// and message, as when two plans share a SQL file. The finding kept names
// the plans of both.
var Dedupe = Processor{Name: "dedupe", Run: func(fs []Finding) ([]Finding, error) {
	type key struct {
		code string
		pos  token.Pos
		msg  string
	}
	kept := map[key]int{}
	out := fs[:0]
	for _, f := range fs {
		k := key{f.Rule.Code, f.Pos, f.Message}
		if i, seen := kept[k]; seen {
			for _, p := range f.Plans {
				if !slices.Contains(out[i].Plans, p) {
					out[i].Plans = append(out[i].Plans, p)
				}
			}
			continue
		}
		kept[k] = len(out)
		out = append(out, f)
	}
	return out, nil
}}

// Sort orders findings by file, position, rule and message.
var Sort = Processor{Name: "sort", Run: func(fs []Finding) ([]Finding, error) {
	sort.SliceStable(fs, func(i, j int) bool {
		a, b := fs[i], fs[j]
		if a.File.Name != b.File.Name {
			return a.File.Name < b.File.Name
		}
		if a.Pos != b.Pos {
			return a.Pos < b.Pos
		}
		if a.Rule.Code != b.Rule.Code {
			return a.Rule.Code < b.Rule.Code
		}
		return a.Message < b.Message
	})
	return fs, nil
}}
