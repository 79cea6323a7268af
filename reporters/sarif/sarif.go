// Package sarif renders a run as a SARIF 2.1.0 log, the format GitHub code
// scanning and other code-review services import. The log describes every
// known rule (so a service can show help for any code), records suppressed
// findings (in source or by a baseline) as suppressed instead of dropping
// them, and reports rules that crashed as tool execution notifications.
package sarif

import (
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/bflint/bflint/reporters"
	"github.com/bflint/bflint/rules"
)

const (
	// SchemaURI is the OASIS schema the output conforms to.
	SchemaURI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
	// FingerprintKey names bflint's partial fingerprint. The version suffix
	// lets the recipe change later without services mistaking new
	// fingerprints for the old ones.
	FingerprintKey = "bflintFingerprint/v1"
	// SrcRootID is the base every artifact URI is relative to.
	SrcRootID = "%SRCROOT%"
)

// Options fill the parts of the log that the result does not know.
type Options struct {
	// ToolVersion is bflint's version, written as tool.driver.version.
	ToolVersion string
	// SrcRoot is the absolute path of the project root, which every
	// artifact URI is relative to. Empty leaves %SRCROOT% unresolved, which
	// is what uploads to a code-scanning service want: it resolves the
	// paths against its own checkout.
	SrcRoot string
}

// The types below cover the part of SARIF bflint writes. Structs, not maps,
// so that properties come out in a fixed order and the output is stable.
type sarifLog struct {
	Schema  string `json:"$schema"`
	Version string `json:"version"`
	Runs    []run  `json:"runs"`
}

type run struct {
	Tool               tool                        `json:"tool"`
	Invocations        []invocation                `json:"invocations"`
	OriginalURIBaseIDs map[string]artifactLocation `json:"originalUriBaseIds"`
	Results            []result                    `json:"results"`
	ColumnKind         string                      `json:"columnKind"`
	Properties         runProperties               `json:"properties"`
}

// runProperties carry what SARIF has no place for: how the run's SQL
// statements were read, counted rather than reported (see the JSON
// report's "coverage").
type runProperties struct {
	Coverage runCoverage `json:"bflint/coverage"`
}

type runCoverage struct {
	SQLFiles   int `json:"sqlFiles"`
	Statements int `json:"statements"`
	Parsed     int `json:"parsed"`
	FromTokens int `json:"fromTokens"`
	NotRead    int `json:"notRead"`
}

type tool struct {
	Driver driver `json:"driver"`
}

type driver struct {
	Name           string       `json:"name"`
	Version        string       `json:"version,omitempty"`
	InformationURI string       `json:"informationUri"`
	Rules          []descriptor `json:"rules"`
}

type descriptor struct {
	ID                   string                 `json:"id"`
	Name                 string                 `json:"name"`
	ShortDescription     *multiformat           `json:"shortDescription,omitempty"`
	FullDescription      *multiformat           `json:"fullDescription,omitempty"`
	Help                 *multiformat           `json:"help,omitempty"`
	HelpURI              string                 `json:"helpUri"`
	DefaultConfiguration reportingConfiguration `json:"defaultConfiguration"`
}

type multiformat struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown,omitempty"`
}

type reportingConfiguration struct {
	Level string `json:"level"`
}

type message struct {
	Text string `json:"text"`
}

type result struct {
	RuleID              string            `json:"ruleId"`
	RuleIndex           int               `json:"ruleIndex"`
	Level               string            `json:"level"`
	Message             message           `json:"message"`
	Locations           []location        `json:"locations"`
	RelatedLocations    []location        `json:"relatedLocations,omitempty"`
	PartialFingerprints map[string]string `json:"partialFingerprints"`
	// Only on suppressed results. SARIF would let an empty array say "not
	// suppressed", but some consumers test for the key rather than its
	// length and would hide every finding.
	Suppressions []suppression `json:"suppressions,omitempty"`
	// Only on results about a statement read from its tokens.
	Properties *resultProperties `json:"properties,omitempty"`
}

// resultProperties is a result's property bag.
type resultProperties struct {
	// Analysis is "tokens" for a finding about a SQL statement that did not
	// parse and was read from its tokens, a coarser reading.
	Analysis string `json:"bflint/analysis"`
}

type location struct {
	// ID and Message are set on related locations only.
	ID               *int             `json:"id,omitempty"`
	PhysicalLocation physicalLocation `json:"physicalLocation"`
	Message          *message         `json:"message,omitempty"`
}

type physicalLocation struct {
	ArtifactLocation artifactLocation `json:"artifactLocation"`
	Region           *region          `json:"region,omitempty"`
}

type artifactLocation struct {
	URI         string   `json:"uri,omitempty"`
	URIBaseID   string   `json:"uriBaseId,omitempty"`
	Description *message `json:"description,omitempty"`
}

type region struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn"`
	EndLine     int `json:"endLine,omitempty"`
	EndColumn   int `json:"endColumn,omitempty"`
}

type suppression struct {
	Kind          string `json:"kind"`
	Justification string `json:"justification,omitempty"`
}

type invocation struct {
	ExecutionSuccessful        bool           `json:"executionSuccessful"`
	ToolExecutionNotifications []notification `json:"toolExecutionNotifications,omitempty"`
}

type notification struct {
	Level          string         `json:"level"`
	Message        message        `json:"message"`
	Locations      []location     `json:"locations,omitempty"`
	AssociatedRule *ruleReference `json:"associatedRule,omitempty"`
}

type ruleReference struct {
	ID    string `json:"id"`
	Index int    `json:"index"`
}

// Write writes res as a SARIF log with one run, indented by two spaces.
func Write(w io.Writer, res *rules.Result, opts Options) error {
	base, err := srcRoot(opts.SrcRoot)
	if err != nil {
		return err
	}
	idx := newRuleIndex(res.Rules)
	prints := rules.Fingerprints(res.Findings)
	results := []result{}
	for i, f := range res.Findings {
		r := result{
			RuleID:              reporters.RuleCode(f.Rule),
			RuleIndex:           idx.of(f.Rule),
			Level:               level(reporters.EffectiveSeverity(f)),
			Message:             message{Text: reporters.MessageWithHelp(f)},
			Locations:           []location{findingLocation(res, f)},
			RelatedLocations:    relatedLocations(res, f),
			PartialFingerprints: map[string]string{FingerprintKey: prints[i]},
		}
		if f.Suppressed != nil {
			r.Suppressions = []suppression{{Kind: suppressionKind(f.Suppressed), Justification: f.Suppressed.Justification}}
		}
		if f.FromTokens {
			r.Properties = &resultProperties{Analysis: "tokens"}
		}
		results = append(results, r)
	}
	inv := invocation{ExecutionSuccessful: len(res.Errors) == 0}
	for _, e := range res.Errors {
		n := notification{Level: "error", Message: message{Text: e.Message}}
		if e.File != nil {
			n.Locations = []location{{PhysicalLocation: physicalLocation{ArtifactLocation: artifact(e.File.Name)}}}
		}
		if e.Rule != nil {
			n.AssociatedRule = &ruleReference{ID: e.Rule.Code, Index: idx.of(e.Rule)}
		}
		inv.ToolExecutionNotifications = append(inv.ToolExecutionNotifications, n)
	}
	log := sarifLog{
		Schema:  SchemaURI,
		Version: "2.1.0",
		Runs: []run{{
			Tool: tool{Driver: driver{
				Name:           "bflint",
				Version:        opts.ToolVersion,
				InformationURI: rules.ProjectURL,
				Rules:          idx.descriptors(),
			}},
			Invocations:        []invocation{inv},
			OriginalURIBaseIDs: map[string]artifactLocation{SrcRootID: base},
			Results:            results,
			// Declared although it is SARIF's default, because consumers
			// differ in what they assume when it is absent.
			ColumnKind: "utf16CodeUnits",
			Properties: runProperties{Coverage: runCoverage{SQLFiles: res.Coverage.Files, Statements: res.Coverage.Total(),
				Parsed: res.Coverage.Parsed(), FromTokens: res.Coverage.FromTokens(), NotRead: res.Coverage.NotRead()}},
		}},
	}
	return reporters.WriteJSON(w, log)
}

// ruleIndex numbers the rules of the log. A finding whose rule is not in
// Result.Rules (a hand-built result) gets its rule appended, so that every
// ruleIndex still points at a descriptor with the same id.
type ruleIndex struct {
	rules []*rules.Rule
	pos   map[string]int
}

func newRuleIndex(rs []*rules.Rule) *ruleIndex {
	idx := &ruleIndex{pos: map[string]int{}}
	for _, r := range rs {
		idx.of(r)
	}
	return idx
}

func (idx *ruleIndex) of(r *rules.Rule) int {
	if r == nil {
		return -1
	}
	if i, ok := idx.pos[r.Code]; ok {
		return i
	}
	idx.pos[r.Code] = len(idx.rules)
	idx.rules = append(idx.rules, r)
	return len(idx.rules) - 1
}

func (idx *ruleIndex) descriptors() []descriptor {
	out := make([]descriptor, 0, len(idx.rules))
	for _, r := range idx.rules {
		d := descriptor{
			ID:                   r.Code,
			Name:                 r.Name,
			HelpURI:              r.URL(),
			DefaultConfiguration: reportingConfiguration{Level: level(r.Severity)},
		}
		if r.Doc.Title != "" {
			d.ShortDescription = &multiformat{Text: r.Doc.Title}
		}
		if r.Doc.Why != "" {
			d.FullDescription = &multiformat{Text: r.Doc.Why}
			d.Help = &multiformat{Text: r.Doc.HelpText(), Markdown: r.Doc.HelpMarkdown()}
		}
		out = append(out, d)
	}
	return out
}

// help renders a rule's documentation twice: plain text for consoles and
// Markdown, with the examples in fenced blocks, for web viewers.
func findingLocation(res *rules.Result, f rules.Finding) location {
	start, end, hasEnd := reporters.Span(res.Fset, f)
	return spanLocation(reporters.FileName(f.File), start, end, hasEnd)
}

// relatedLocations are the places a finding names besides its own, each
// with an id unique within the result, as SARIF asks.
func relatedLocations(res *rules.Result, f rules.Finding) []location {
	var out []location
	for i, r := range f.Related {
		start, end, hasEnd := reporters.RelatedSpan(res.Fset, r)
		loc := spanLocation(reporters.FileName(r.File), start, end, hasEnd)
		id := i + 1
		loc.ID, loc.Message = &id, &message{Text: r.Message}
		out = append(out, loc)
	}
	return out
}

func spanLocation(file string, start, end reporters.Position, hasEnd bool) location {
	loc := location{PhysicalLocation: physicalLocation{ArtifactLocation: artifact(file)}}
	rg := &region{StartLine: start.Line, StartColumn: start.UTF16Column}
	if hasEnd {
		rg.EndLine, rg.EndColumn = end.Line, end.UTF16Column
	}
	loc.PhysicalLocation.Region = rg
	return loc
}

// artifact turns a repository-relative slash path into a relative URI
// reference: characters such as spaces, '%' or '#' are percent-encoded, and
// a first segment holding ':' is prefixed with "./" so that it is not read
// as a scheme.
func artifact(name string) artifactLocation {
	return artifactLocation{URI: (&url.URL{Path: name}).String(), URIBaseID: SrcRootID}
}

// srcRoot describes %SRCROOT%: a file URI ending in '/' when the root is
// known (SARIF resolves relative URIs against it, and without the slash the
// last segment would be replaced), else a description for the reader.
func srcRoot(root string) (artifactLocation, error) {
	if root == "" {
		return artifactLocation{Description: &message{Text: "The project root: the nearest folder holding .git at or above the linted path, else the folder bflint was run on."}}, nil
	}
	p := filepath.ToSlash(root)
	if !filepath.IsAbs(root) && !strings.HasPrefix(p, "/") {
		return artifactLocation{}, fmt.Errorf("sarif: source root %q is not an absolute path", root)
	}
	if !strings.HasPrefix(p, "/") {
		// A Windows drive path: file:///C:/...
		p = "/" + p
	}
	if !strings.HasSuffix(p, "/") {
		p += "/"
	}
	return artifactLocation{URI: (&url.URL{Scheme: "file", Path: p}).String()}, nil
}

// suppressionKind tells a bflint:ignore comment from a baseline: code
// scanning services show "inSource" suppressions as part of the file and
// "external" ones as decisions made elsewhere.
func suppressionKind(s *rules.Suppression) string {
	if s.External {
		return "external"
	}
	return "inSource"
}

func level(s rules.Severity) string {
	switch s {
	case rules.SeverityError:
		return "error"
	case rules.SeverityWarning:
		return "warning"
	}
	return "note"
}
