// Package baseline records the findings a project already has, so that a
// team adopting bflint on an existing repository is shown only what it adds
// from then on. A baseline names findings by their line-independent
// fingerprint, which the caller computes (reporters.Fingerprints): the
// fingerprint recipe belongs to the reporters, and imports point from
// reporters to rules, never back.
package baseline

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/bflint/bflint/internal/outfile"
	"github.com/bflint/bflint/parser/source"
	"io"
	"sort"

	"github.com/bflint/bflint/rules"
)

// Version is the format version this bflint writes and reads. It changes
// when an entry's meaning changes (a new fingerprint recipe, say), so an
// old bflint refuses a baseline it would misread instead of matching
// nothing and reporting every entry as stale.
const Version = 1

// Baseline is the document stored in a baseline file.
type Baseline struct {
	Version  int     `json:"version"`
	Findings []Entry `json:"findings"`
}

// Entry is one accepted finding. Only Fingerprint takes part in matching;
// the rest is there so a reviewer can read what the team accepted, and so
// a stale entry can be described.
type Entry struct {
	Fingerprint string `json:"fingerprint"`
	Code        string `json:"code"`
	File        string `json:"file"`
	Message     string `json:"message"`
}

// New records the active findings: suppressed ones are already accepted
// in source and need no entry. prints are the findings' fingerprints,
// index for index.
func New(findings []rules.Finding, prints []string) *Baseline {
	b := &Baseline{Version: Version, Findings: []Entry{}}
	for i, f := range findings {
		if f.Suppressed != nil {
			continue
		}
		e := Entry{Fingerprint: prints[i], Message: f.Text()}
		if f.Rule != nil {
			e.Code = f.Rule.Code
		}
		if f.File != nil {
			e.File = f.File.Name
		}
		b.Findings = append(b.Findings, e)
	}
	// By content, not position, so that refreshing the baseline after
	// edits that only move findings leaves the file unchanged in review.
	sort.Slice(b.Findings, func(i, j int) bool {
		x, y := b.Findings[i], b.Findings[j]
		if x.File != y.File {
			return x.File < y.File
		}
		if x.Code != y.Code {
			return x.Code < y.Code
		}
		if x.Message != y.Message {
			return x.Message < y.Message
		}
		return x.Fingerprint < y.Fingerprint
	})
	return b
}

// Parse reads a baseline document. Errors locate the problem in the text,
// since a baseline is committed and may have been mangled by a merge.
func Parse(data []byte) (*Baseline, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, errors.New("the file is empty; write a baseline with --write-baseline")
	}
	var b Baseline
	if err := json.Unmarshal(data, &b); err != nil {
		var syn *json.SyntaxError
		var typ *json.UnmarshalTypeError
		switch {
		case errors.As(err, &syn):
			return nil, fmt.Errorf("not valid JSON: %v %s", err, where(data, syn.Offset))
		case errors.As(err, &typ):
			return nil, fmt.Errorf("not a bflint baseline: %v %s", err, where(data, typ.Offset))
		}
		return nil, fmt.Errorf("not a bflint baseline: %v", err)
	}
	if b.Version == 0 {
		return nil, errors.New("not a bflint baseline: it has no \"version\"")
	}
	if b.Version != Version {
		return nil, fmt.Errorf("baseline version %d is not supported: this bflint reads version %d; write a new one with --write-baseline", b.Version, Version)
	}
	for i, e := range b.Findings {
		if e.Fingerprint == "" {
			return nil, fmt.Errorf("finding %d has no fingerprint", i+1)
		}
	}
	return &b, nil
}

// where turns a JSON decoder's offset, the count of bytes it read before
// failing, into the line and column of the last of those bytes, the one it
// stumbled on, so an editor can jump there.
func where(data []byte, offset int64) string {
	offset = min(max(offset, 1), int64(len(data)))
	before := data[:offset-1]
	line := bytes.Count(before, []byte("\n")) + 1
	col := len(before) - bytes.LastIndexByte(before, '\n')
	return fmt.Sprintf("at line %d, column %d (byte %d)", line, col, offset)
}

// Read reads and parses the baseline file at path.
func Read(path string) (*Baseline, error) {
	data, err := source.ReadRegular(path, source.MaxFileSize)
	if err != nil {
		return nil, err
	}
	return Parse(data)
}

// Encode writes b as indented JSON. HTML escaping is off because messages
// quote SQL, where "<" and "&" are common, and escapes would make the
// baseline hard to review.
func (b *Baseline) Encode(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(b)
}

// WriteFile writes b to path through a temporary file in the same folder
// and a rename, so an interrupted run never leaves a truncated baseline
// that the next run would refuse.
func (b *Baseline) WriteFile(path string) (err error) {
	var buf bytes.Buffer
	if err := b.Encode(&buf); err != nil {
		return err
	}
	// A new baseline is readable by all: it is committed and read by
	// everyone who checks the repository out.
	return outfile.Write(path, buf.Bytes(), 0o644)
}

// Apply suppresses, as external, every active finding whose fingerprint
// the baseline holds, giving justification as the reason. It returns the
// entries that matched no active finding although covered says this run
// could have produced them (their file was linted, their rule ran): those
// are stale, fixed or moved, and the baseline should be refreshed. A
// finding suppressed in source does not match, so an entry made redundant
// by a bflint:ignore comment is reported as stale too.
func (b *Baseline) Apply(findings []rules.Finding, prints []string, justification string, covered func(Entry) bool) (stale []Entry) {
	matched := make(map[string]bool, len(b.Findings))
	for _, e := range b.Findings {
		matched[e.Fingerprint] = false
	}
	for i := range findings {
		if findings[i].Suppressed != nil {
			continue
		}
		if _, ok := matched[prints[i]]; ok {
			matched[prints[i]] = true
			findings[i].Suppressed = &rules.Suppression{Justification: justification, External: true}
		}
	}
	for _, e := range b.Findings {
		if !matched[e.Fingerprint] && covered(e) {
			stale = append(stale, e)
		}
	}
	return stale
}

// Processor is Apply as a step of the findings chain (rules.Process); the
// stale entries are stored in *stale.
func (b *Baseline) Processor(justification string, covered func(Entry) bool, stale *[]Entry) rules.Processor {
	return rules.Processor{Name: "baseline", Run: func(fs []rules.Finding) ([]rules.Finding, error) {
		*stale = b.Apply(fs, rules.Fingerprints(fs), justification, covered)
		return fs, nil
	}}
}
