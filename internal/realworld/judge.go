// Package realworld compares bflint's JSON reports on real repositories with
// judgements kept as data: hazards.tsv (hazards found by reading the code,
// and safe controls) and findings.tsv (bflint findings judged true or
// false). scripts/realworld.sh runs it when BFLINT_REALWORLD_JUDGED names
// the folder of those two files.
//
//	judge -dir testdata/realworld [-unjudged FILE] [-matches FILE] NAME=REPORT.json ...
//
// NAME is the repository as the judged files name it (gitlab-analytics,
// spellbook, ...); only the repositories given are compared. It prints,
// per hazard class, how many judged hazards a finding of the class's rules
// reaches (recall) and which safe rows draw one (false positives); per
// rule, how many findings were judged true or false and how many are not
// judged yet (precision over the judged ones). With -unjudged the findings
// not judged yet are written to FILE in the columns of findings.tsv, with
// bflint's message after them, ready to be judged; with -matches each
// judged row of hazards.tsv is written with the findings that reach it.
package realworld

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// classRule says which findings reach a hazard of a class.
type classRule struct {
	// codes are the rules whose findings count.
	codes []string
	// folder matches a finding anywhere in the hazard's folder, not only
	// in its file: a bigquery-etl table's metadata.yaml, query.sql and
	// backfill.yaml are one table, and a rule may report on another of
	// them than the one the hazard was recorded at.
	folder bool
	// need holds, for some codes, what their message must say for the
	// finding to count at all: BF801 counts for a window only when it
	// names the dates left stale.
	need map[string]*regexp.Regexp
	// cause holds, for some codes, how their message names the class's
	// cause: BF111 says whether the clock or a high-water mark makes a
	// model unfit for a range. A hazard reached by a finding that names
	// another cause is still found (a model can have both, and the rule
	// names one), and counted apart; a safe row only counts as flagged
	// by a finding that names the class's cause.
	cause map[string]*regexp.Regexp
}

// classes maps each hazard class of hazards.tsv to the rules that find it.
var classes = map[string]classRule{
	"range-clock":          {codes: []string{"BF111", "BF112"}, cause: map[string]*regexp.Regexp{"BF111": clock}},
	"range-watermark":      {codes: []string{"BF111"}, cause: map[string]*regexp.Regexp{"BF111": watermark}},
	"bqetl-clock":          {codes: []string{"BF112"}, folder: true},
	"downstream-window":    {codes: []string{"BF809", "BF801"}, folder: true, need: map[string]*regexp.Regexp{"BF801": dateRange}},
	"append-folder-config": {codes: []string{"BF201"}},
	"append-model":         {codes: []string{"BF201"}},
	"append-macro":         {codes: []string{"BF201"}},
	"bqetl-append":         {codes: []string{"BF201"}, folder: true},
	"config-typo":          {codes: []string{"BF005"}},
	"scd2-cte":             {codes: []string{"BF701", "BF702", "BF703", "BF704"}},
	"scd2-direct":          {codes: []string{"BF701", "BF702", "BF703", "BF704"}},
}

// excluded rules are not judged: BF002 says a statement did not parse,
// which is coverage, not a hazard.
var excluded = map[string]bool{"BF002": true}

// inventory rules report one finding per model of a project-wide list;
// their unjudged findings are counted, not listed one by one.
var inventory = map[string]bool{"BF111": true}

var (
	// dateRange is two dates joined by "..", a dash, "to", "through" or
	// "until".
	dateRange = regexp.MustCompile(`\d{4}-\d{2}-\d{2}\s*(\.\.|–|—|-|\bto\b|\bthrough\b|\buntil\b)\s*\d{4}-\d{2}-\d{2}`)
	clock     = regexp.MustCompile(`(?i)\bclock\b`)
	watermark = regexp.MustCompile(`(?i)high-water|high water|watermark`)
)

// Hazard is one row of hazards.tsv.
type Hazard struct {
	Repo, Path string
	Line       int
	Class      string
	Safe       bool
	Reason     string
}

// Judgement is one row of findings.tsv.
type Judgement struct {
	Repo, Path string
	Line       int
	Code       string
	True       bool
	Reason     string
}

// Finding is one finding of a report, with the repository it came from.
type Finding struct {
	Repo      string `json:"-"`
	Code      string `json:"code"`
	Name      string `json:"name"`
	Severity  string `json:"severity"`
	Message   string `json:"message"`
	File      string `json:"file"`
	Line      int    `json:"line"`
	Inventory bool   `json:"inventory"`
}

type key struct {
	repo, path string
	line       int
	code       string
}

func (f Finding) key() key   { return key{f.Repo, f.File, f.Line, f.Code} }
func (j Judgement) key() key { return key{j.Repo, j.Path, j.Line, j.Code} }

// at says whether f is a finding of one of the class's codes at the
// hazard's place, whether its message says what the class needs, and
// whether it names the class's cause.
func at(h Hazard, f Finding) (place, says, cause bool) {
	c, ok := classes[h.Class]
	if !ok || f.Repo != h.Repo || !slices.Contains(c.codes, f.Code) {
		return false, false, false
	}
	if f.File != h.Path && (!c.folder || path.Dir(f.File) != path.Dir(h.Path)) {
		return false, false, false
	}
	need, named := c.need[f.Code], c.cause[f.Code]
	return true, need == nil || need.MatchString(f.Message), named == nil || named.MatchString(f.Message)
}

// reaches says whether f is a finding of the hazard's class at its place.
func reaches(h Hazard, f Finding) bool {
	place, says, _ := at(h, f)
	return place && says
}

// names says whether f, reaching h, names the cause of h's class.
func names(h Hazard, f Finding) bool {
	_, _, cause := at(h, f)
	return cause
}

// nearMiss is a finding of the class's codes at the hazard's place whose
// message does not say what the class needs (a BF801 with no range):
// shown beside a missed hazard.
func nearMiss(h Hazard, f Finding) bool {
	place, says, _ := at(h, f)
	return place && !says
}

// readTSV reads a tab-separated file with a header, checking the header
// starts with want; rows keep the header's width.
func readTSV(name string, want []string) ([][]string, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	header := strings.Split(lines[0], "\t")
	if len(header) < len(want) || !slices.Equal(header[:len(want)], want) {
		return nil, fmt.Errorf("%s: header %q, want columns %q first", name, header, want)
	}
	var rows [][]string
	for i, l := range lines[1:] {
		if strings.TrimSpace(l) == "" || strings.HasPrefix(l, "#") {
			continue
		}
		row := strings.Split(l, "\t")
		if len(row) != len(header) {
			return nil, fmt.Errorf("%s:%d: %d columns, want %d", name, i+2, len(row), len(header))
		}
		rows = append(rows, row)
	}
	return rows, nil
}

// ReadHazards reads hazards.tsv.
func ReadHazards(name string) ([]Hazard, error) {
	rows, err := readTSV(name, []string{"repo", "path", "line", "class", "verdict", "reason"})
	if err != nil {
		return nil, err
	}
	var hs []Hazard
	for i, r := range rows {
		line, err := strconv.Atoi(r[2])
		if err != nil {
			return nil, fmt.Errorf("%s: row %d: line %q", name, i+1, r[2])
		}
		if _, ok := classes[r[3]]; !ok {
			return nil, fmt.Errorf("%s: row %d: unknown class %q", name, i+1, r[3])
		}
		if r[4] != "hazard" && r[4] != "safe" {
			return nil, fmt.Errorf("%s: row %d: verdict %q, want hazard or safe", name, i+1, r[4])
		}
		hs = append(hs, Hazard{Repo: r[0], Path: r[1], Line: line, Class: r[3], Safe: r[4] == "safe", Reason: r[5]})
	}
	return hs, nil
}

// ReadJudgements reads findings.tsv.
func ReadJudgements(name string) ([]Judgement, error) {
	rows, err := readTSV(name, []string{"repo", "path", "line", "code", "verdict", "reason"})
	if err != nil {
		return nil, err
	}
	var js []Judgement
	for i, r := range rows {
		line, err := strconv.Atoi(r[2])
		if err != nil {
			return nil, fmt.Errorf("%s: row %d: line %q", name, i+1, r[2])
		}
		if r[4] != "true" && r[4] != "false" {
			return nil, fmt.Errorf("%s: row %d: verdict %q, want true or false", name, i+1, r[4])
		}
		js = append(js, Judgement{Repo: r[0], Path: r[1], Line: line, Code: r[3], True: r[4] == "true", Reason: r[5]})
	}
	return js, nil
}

// ReadReport reads the findings of one bflint JSON report, leaving out
// the excluded rules.
func ReadReport(repo string, r io.Reader) ([]Finding, error) {
	var rep struct {
		Findings []Finding `json:"findings"`
	}
	if err := json.NewDecoder(r).Decode(&rep); err != nil {
		return nil, err
	}
	var fs []Finding
	for _, f := range rep.Findings {
		if excluded[f.Code] {
			continue
		}
		f.Repo = repo
		f.File = filepath.ToSlash(f.File)
		fs = append(fs, f)
	}
	return fs, nil
}

// ClassResult is the recall of one class.
type ClassResult struct {
	Class          string
	Hazards, Found int
	// SameLine counts the hazards found with a finding at their very line.
	SameLine int
	// OtherCause lists the hazards found only by findings that name
	// another cause than the class's.
	OtherCause     []Match
	Safe, Flagged  int
	Missed         []Hazard
	NearMisses     map[int][]Finding // by index into Missed
	FalsePositives []Match
	FoundAt        []Match
}

// Match is a judged row and the findings that reach it.
type Match struct {
	Hazard   Hazard
	Findings []Finding
}

// RuleResult is the precision of one rule.
type RuleResult struct {
	Code                  string
	True, False, Unjudged int
	Stale                 int
}

// Result is the whole comparison.
type Result struct {
	Repos    []string
	Classes  []ClassResult
	Rules    []RuleResult
	Falses   []Judgement // judged false and reported now
	Unjudged []Finding
	Stale    []Judgement // judged, but reported no more
}

// Compare matches the findings of the given repositories with the judged
// rows; rows of other repositories are left out.
func Compare(repos []string, hazards []Hazard, judged []Judgement, findings []Finding) Result {
	res := Result{Repos: repos}
	byClass := map[string]*ClassResult{}
	for _, h := range hazards {
		if !slices.Contains(repos, h.Repo) {
			continue
		}
		cr := byClass[h.Class]
		if cr == nil {
			cr = &ClassResult{Class: h.Class, NearMisses: map[int][]Finding{}}
			byClass[h.Class] = cr
		}
		var hits, near []Finding
		for _, f := range findings {
			if reaches(h, f) {
				hits = append(hits, f)
			} else if nearMiss(h, f) {
				near = append(near, f)
			}
		}
		named := func(f Finding) bool { return names(h, f) }
		switch {
		case h.Safe:
			cr.Safe++
			if flagged := slices.DeleteFunc(slices.Clone(hits), func(f Finding) bool { return !named(f) }); len(flagged) > 0 {
				cr.Flagged++
				cr.FalsePositives = append(cr.FalsePositives, Match{h, flagged})
			}
		case len(hits) > 0:
			cr.Hazards++
			cr.Found++
			if slices.ContainsFunc(hits, func(f Finding) bool { return f.Line == h.Line }) {
				cr.SameLine++
			}
			if !slices.ContainsFunc(hits, named) {
				cr.OtherCause = append(cr.OtherCause, Match{h, hits})
			}
			cr.FoundAt = append(cr.FoundAt, Match{h, hits})
		default:
			cr.Hazards++
			if len(near) > 0 {
				cr.NearMisses[len(cr.Missed)] = near
			}
			cr.Missed = append(cr.Missed, h)
		}
	}
	for _, c := range sortedKeys(byClass) {
		res.Classes = append(res.Classes, *byClass[c])
	}

	verdict := map[key]Judgement{}
	for _, j := range judged {
		if slices.Contains(repos, j.Repo) {
			verdict[j.key()] = j
		}
	}
	byRule := map[string]*RuleResult{}
	reported := map[key]bool{}
	for _, f := range findings {
		rr := byRule[f.Code]
		if rr == nil {
			rr = &RuleResult{Code: f.Code}
			byRule[f.Code] = rr
		}
		k := f.key()
		j, ok := verdict[k]
		switch {
		case !ok:
			rr.Unjudged++
			res.Unjudged = append(res.Unjudged, f)
		case j.True:
			rr.True++
		default:
			rr.False++
			if !reported[k] {
				res.Falses = append(res.Falses, j)
			}
		}
		reported[k] = true
	}
	for _, j := range judged {
		if !slices.Contains(repos, j.Repo) || reported[j.key()] {
			continue
		}
		rr := byRule[j.Code]
		if rr == nil {
			rr = &RuleResult{Code: j.Code}
			byRule[j.Code] = rr
		}
		rr.Stale++
		res.Stale = append(res.Stale, j)
	}
	for _, c := range sortedKeys(byRule) {
		res.Rules = append(res.Rules, *byRule[c])
	}
	return res
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

func pct(a, b int) string {
	if b == 0 {
		return "-"
	}
	return fmt.Sprintf("%.0f%%", 100*float64(a)/float64(b))
}

// headline is the first line of a message, cut to 160 characters.
func headline(msg string) string {
	msg, _, _ = strings.Cut(msg, "\n")
	if r := []rune(msg); len(r) > 160 {
		msg = string(r[:157]) + "..."
	}
	return msg
}

func lines(fs []Finding) string {
	var s []string
	for _, f := range fs {
		s = append(s, fmt.Sprintf("%s %s:%d", f.Code, f.File, f.Line))
	}
	return strings.Join(s, ", ")
}

// Print writes the comparison for a reader.
func Print(w io.Writer, res Result) {
	fmt.Fprintf(w, "== judged (%s)\n", strings.Join(res.Repos, ", "))
	fmt.Fprintf(w, "  hazards found per class (by a finding of the class's rules in the hazard's file; at line: one at its very line; other cause: found only by findings naming another cause):\n")
	fmt.Fprintf(w, "    %-22s %8s %7s %8s %12s %13s  %s\n", "class", "found", "recall", "at line", "other cause", "safe flagged", "rules")
	var found, total, same, other, safe, flagged int
	for _, c := range res.Classes {
		codes := strings.Join(classes[c.Class].codes, " ")
		fmt.Fprintf(w, "    %-22s %8s %7s %8d %12d %13s  %s\n", c.Class, fmt.Sprintf("%d/%d", c.Found, c.Hazards), pct(c.Found, c.Hazards), c.SameLine, len(c.OtherCause), fmt.Sprintf("%d/%d", c.Flagged, c.Safe), codes)
		found, total, same, other, safe, flagged = found+c.Found, total+c.Hazards, same+c.SameLine, other+len(c.OtherCause), safe+c.Safe, flagged+c.Flagged
	}
	fmt.Fprintf(w, "    %-22s %8s %7s %8d %12d %13s\n", "all", fmt.Sprintf("%d/%d", found, total), pct(found, total), same, other, fmt.Sprintf("%d/%d", flagged, safe))
	for _, c := range res.Classes {
		for _, m := range c.FalsePositives {
			fmt.Fprintf(w, "  false positive (%s, judged safe): %s %s:%d: %s\n", c.Class, m.Hazard.Repo, m.Hazard.Path, m.Hazard.Line, lines(m.Findings))
		}
	}
	for _, c := range res.Classes {
		for _, m := range c.OtherCause {
			fmt.Fprintf(w, "  found, naming another cause (%s): %s %s:%d: %s\n", c.Class, m.Hazard.Repo, m.Hazard.Path, m.Hazard.Line, lines(m.Findings))
		}
	}
	for _, c := range res.Classes {
		for i, h := range c.Missed {
			fmt.Fprintf(w, "  missed (%s): %s %s:%d", c.Class, h.Repo, h.Path, h.Line)
			if near := c.NearMisses[i]; len(near) > 0 {
				fmt.Fprintf(w, " (without what the class needs in its message: %s)", lines(near))
			}
			fmt.Fprintln(w)
		}
	}
	fmt.Fprintf(w, "  findings per rule (judged in findings.tsv; precision over the judged ones):\n")
	fmt.Fprintf(w, "    %-6s %6s %6s %9s %10s\n", "rule", "true", "false", "unjudged", "precision")
	var t, f, u int
	for _, r := range res.Rules {
		stale := ""
		if r.Stale > 0 {
			stale = fmt.Sprintf("  (%d judged, no longer reported)", r.Stale)
		}
		fmt.Fprintf(w, "    %-6s %6d %6d %9d %10s%s\n", r.Code, r.True, r.False, r.Unjudged, pct(r.True, r.True+r.False), stale)
		t, f, u = t+r.True, f+r.False, u+r.Unjudged
	}
	fmt.Fprintf(w, "    %-6s %6d %6d %9d %10s\n", "all", t, f, u, pct(t, t+f))
	for _, j := range res.Falses {
		fmt.Fprintf(w, "  false finding: %s %s %s:%d: %s\n", j.Code, j.Repo, j.Path, j.Line, j.Reason)
	}
	for _, j := range res.Stale {
		fmt.Fprintf(w, "  judged, no longer reported: %s %s %s:%d\n", j.Code, j.Repo, j.Path, j.Line)
	}
	counted := map[string]int{}
	for _, f := range res.Unjudged {
		if f.Inventory || inventory[f.Code] {
			counted[f.Code]++
			continue
		}
		fmt.Fprintf(w, "  unjudged: %s %s %s:%d: %s\n", f.Code, f.Repo, f.File, f.Line, headline(f.Message))
	}
	for _, c := range sortedKeys(counted) {
		fmt.Fprintf(w, "  unjudged: %d %s findings (an inventory: counted here, listed in the unjudged file)\n", counted[c], c)
	}
}

// WriteMatches writes every judged row of hazards.tsv with the findings
// that reach it (code and line), or none.
func WriteMatches(w io.Writer, res Result) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, "repo\tpath\tline\tclass\tverdict\tfindings")
	row := func(h Hazard, verdict string, fs []Finding) {
		var s []string
		for _, f := range fs {
			s = append(s, fmt.Sprintf("%s:%d", f.Code, f.Line))
		}
		fmt.Fprintf(bw, "%s\t%s\t%d\t%s\t%s\t%s\n", h.Repo, h.Path, h.Line, h.Class, verdict, strings.Join(s, " "))
	}
	for _, c := range res.Classes {
		for _, m := range c.FoundAt {
			row(m.Hazard, "hazard", m.Findings)
		}
		for _, h := range c.Missed {
			row(h, "hazard", nil)
		}
		for _, m := range c.FalsePositives {
			row(m.Hazard, "safe", m.Findings)
		}
	}
	return bw.Flush()
}

// WriteUnjudged writes the unjudged findings in the columns of
// findings.tsv, verdict and reason empty, bflint's message last.
func WriteUnjudged(w io.Writer, fs []Finding) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, "repo\tpath\tline\tcode\tverdict\treason\tmessage")
	for _, f := range fs {
		msg := strings.NewReplacer("\t", " ", "\n", " ").Replace(f.Message)
		fmt.Fprintf(bw, "%s\t%s\t%d\t%s\t\t\t%s\n", f.Repo, f.File, f.Line, f.Code, msg)
	}
	return bw.Flush()
}

// Run runs the comparison with the command line args (see the package
// documentation), printing to stdout.
func Run(args []string, stdout io.Writer) error {
	fl := flag.NewFlagSet("judge", flag.ContinueOnError)
	dir := fl.String("dir", "testdata/realworld", "folder of hazards.tsv and findings.tsv")
	unjudged := fl.String("unjudged", "", "write the findings not judged yet to this file")
	matches := fl.String("matches", "", "write each judged hazard with the findings that reach it to this file")
	if err := fl.Parse(args); err != nil {
		return err
	}
	if fl.NArg() == 0 {
		return errors.New("usage: judge -dir DIR [-unjudged FILE] [-matches FILE] NAME=REPORT.json ...")
	}
	hazards, err := ReadHazards(filepath.Join(*dir, "hazards.tsv"))
	if err != nil {
		return err
	}
	judged, err := ReadJudgements(filepath.Join(*dir, "findings.tsv"))
	if err != nil {
		return err
	}
	var repos []string
	var findings []Finding
	for _, a := range fl.Args() {
		name, file, ok := strings.Cut(a, "=")
		if !ok || name == "" || file == "" {
			return fmt.Errorf("%q: want NAME=REPORT.json", a)
		}
		f, err := os.Open(file)
		if err != nil {
			return err
		}
		fs, err := ReadReport(name, f)
		f.Close()
		if err != nil {
			return fmt.Errorf("%s: %w", file, err)
		}
		repos = append(repos, name)
		findings = append(findings, fs...)
	}
	res := Compare(repos, hazards, judged, findings)
	Print(stdout, res)
	if *unjudged != "" {
		if err := writeFile(*unjudged, func(w io.Writer) error { return WriteUnjudged(w, res.Unjudged) }); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "  the %d unjudged findings are in %s\n", len(res.Unjudged), *unjudged)
	}
	if *matches != "" {
		if err := writeFile(*matches, func(w io.Writer) error { return WriteMatches(w, res) }); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "  each judged hazard with the findings that reach it is in %s\n", *matches)
	}
	return nil
}

func writeFile(name string, write func(io.Writer) error) error {
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
