package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/bflint/bflint/rules"
	"github.com/bflint/bflint/rules/baseline"
)

// adoption holds what the adoption flags need before linting starts, read
// early so that a bad baseline or revision fails the run before any work.
type adoption struct {
	baseline *baseline.Baseline // --baseline, nil without it
	changed  map[string]bool    // --new-from-rev, file names as the driver gives them; nil without it
}

func prepareAdoption(o *lintOptions, root string) (*adoption, error) {
	var a adoption
	if o.baseline != "" {
		b, err := baseline.Read(o.baseline)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return nil, inputErrorf("--baseline %s: no such file; record one with --write-baseline %s", o.baseline, o.baseline)
		case err != nil:
			return nil, inputErrorf("--baseline %s: %v", o.baseline, err)
		}
		a.baseline = b
	}
	if o.newFromRev != "" {
		changed, err := changedFiles(root, o.newFromRev)
		if err != nil {
			return nil, inputErrorf("--new-from-rev %s: %v", o.newFromRev, err)
		}
		a.changed = changed
	}
	return &a, nil
}

// process applies the adoption flags to the driver's result, as steps of
// the findings chain, and returns the baseline entries that have gone
// stale. The order matters:
//   - fingerprints are taken from the driver's findings, in-source
//     suppressed ones included, exactly as the reporters take them, so an
//     entry names a finding the way the JSON and SARIF reports do;
//   - the baseline is written before anything is hidden, so that
//     refreshing it under --baseline or --new-from-rev still records the
//     whole project;
//   - the baseline is applied after in-source suppressions (which the
//     driver ran), so a finding accepted in source does not use up an entry;
//   - --new-from-rev drops findings last, once the baseline has seen them
//     all, or entries in unchanged files would be reported as stale.
//     Fingerprints stay valid for the reporters, which recompute them:
//     identical findings share a file, so they are kept or dropped
//     together and their occurrence numbers do not shift.
func (a *adoption) process(res *rules.Result, units []*rules.Unit, s *rules.Settings, o *lintOptions, stderr io.Writer) ([]baseline.Entry, error) {
	var steps []rules.Processor
	if o.writeBaseline != "" {
		steps = append(steps, writeBaseline(o.writeBaseline, stderr))
	}
	var stale []baseline.Entry
	if a.baseline != nil {
		linted := unitFiles(units)
		covered := func(e baseline.Entry) bool { return linted[e.File] && s.Enabled[e.Code] }
		steps = append(steps, a.baseline.Processor("in baseline "+filepath.ToSlash(o.baseline), covered, &stale))
	}
	if a.changed != nil {
		steps = append(steps, keepChanged(units, a.changed))
	}
	if err := rules.Process(res, steps...); err != nil {
		return nil, err
	}
	if o.writeBaseline != "" {
		// The baseline just written has dropped the stale entries already.
		return nil, nil
	}
	return stale, nil
}

// writeBaseline records the run's findings in path and passes them on.
func writeBaseline(path string, stderr io.Writer) rules.Processor {
	return rules.Processor{Name: "write-baseline", Run: func(fs []rules.Finding) ([]rules.Finding, error) {
		b := baseline.New(fs, rules.Fingerprints(fs))
		if err := b.WriteFile(path); err != nil {
			return nil, inputErrorf("--write-baseline %s: %v", path, err)
		}
		fmt.Fprintf(stderr, "bflint: wrote %s with %d finding(s)\n", path, len(b.Findings))
		return fs, nil
	}}
}

// unitFiles is the set of files the run linted, by display name.
func unitFiles(units []*rules.Unit) map[string]bool {
	names := map[string]bool{}
	for _, u := range units {
		for _, n := range filesOf(u) {
			names[n] = true
		}
	}
	return names
}

func filesOf(u *rules.Unit) []string {
	names := []string{u.File.Name}
	for _, sf := range u.SQL {
		names = append(names, sf.Source.Name)
	}
	return names
}

// reportStale tells on stderr which baseline entries matched nothing:
// a stale baseline is not a problem in any linted file, so it is not a
// finding and does not change the exit code.
func reportStale(w io.Writer, path string, stale []baseline.Entry) {
	if len(stale) == 0 {
		return
	}
	var b strings.Builder
	what := "entry in %s matches"
	if len(stale) > 1 {
		what = "entries in %s match"
	}
	fmt.Fprintf(&b, "bflint: %d baseline "+what+" no finding (fixed, or changed); refresh the baseline with --write-baseline %s:\n", len(stale), path, path)
	for _, e := range stale {
		fmt.Fprintf(&b, "  %s %s: %s\n", e.Code, e.File, e.Message)
	}
	io.WriteString(w, b.String())
}
