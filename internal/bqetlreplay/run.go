package bqetlreplay

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Finding is one finding of a replayed entry. Where says whether it is
// on the replayed entry ("entry"), on an older entry of the same file
// ("older"), or in another file ("file"). Line is counted from the
// entry's date key (1) in its own file, from the file's start elsewhere.
type Finding struct {
	Path, Date, Where, Rule string
	Line                    int
	Message                 string
}

func (f Finding) key() string {
	return strings.Join([]string{f.Path, f.Date, f.Rule, strconv.Itoa(f.Line)}, "\t")
}

// report is the part of bflint's JSON report the replay reads.
type report struct {
	Findings []struct {
		Code    string `json:"code"`
		Message string `json:"message"`
		File    string `json:"file"`
		Line    int    `json:"line"`
	} `json:"findings"`
	Errors []struct {
		Message string `json:"message"`
	} `json:"errors"`
}

// Run is the program: flags in args, a summary on w.
func Run(args []string, w io.Writer) error {
	fl := flag.NewFlagSet("bqetlreplay", flag.ContinueOnError)
	bin := fl.String("bflint", "", "the bflint binary")
	gitDir := fl.String("git", "", "the git directory of a bigquery-etl clone or mirror")
	ref := fl.String("ref", "generated-sql", "the branch whose history is replayed")
	out := fl.String("out", "", "the folder for findings.tsv, clean.tsv, sample.tsv and the scratch tree")
	judged := fl.String("judged", "", "judged sample and clean entries (TSV)")
	sample := fl.Int("sample", 0, "write a sample of N findings spread over the rules")
	if err := fl.Parse(args); err != nil {
		return err
	}
	if *bin == "" || *gitDir == "" || *out == "" {
		return errors.New("-bflint, -git and -out are required")
	}
	g := repo{dir: *gitDir, work: filepath.Join(*out, "tree"), index: filepath.Join(*out, "tree.index")}
	props, err := g.proposals(*ref)
	if err != nil {
		return err
	}
	var (
		findings []Finding
		clean    []string
		failures []string
	)
	checkedOut := ""
	for _, p := range props {
		if p.commit != checkedOut {
			if err := g.checkout(p.commit, checkedOut == ""); err != nil {
				return err
			}
			checkedOut = p.commit
		}
		found, err := replayEntry(*bin, g.work, p)
		if err != nil {
			failures = append(failures, p.path+" "+p.date+": "+err.Error())
			continue
		}
		findings = append(findings, found...)
		if !hasReviewed(found) {
			clean = append(clean, p.path+"\t"+p.date)
		}
	}
	slices.SortFunc(findings, func(a, b Finding) int { return strings.Compare(a.key(), b.key()) })
	slices.Sort(clean)
	if err := writeFindings(filepath.Join(*out, "findings.tsv"), findings); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(*out, "clean.tsv"), []byte(strings.Join(clean, "\n")+"\n"), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(w, "%d entries replayed, each on the tree of the first %s commit that held it; %d with no finding\n", len(props), *ref, len(clean))
	for _, f := range failures {
		fmt.Fprintln(w, "failed:", f)
	}
	summarize(w, findings)
	reviewed := reviewedFindings(findings)
	if *sample > 0 {
		if err := writeFindings(filepath.Join(*out, "sample.tsv"), pick(reviewed, *sample)); err != nil {
			return err
		}
	}
	if *judged != "" {
		return compare(w, *judged, reviewed, clean)
	}
	return nil
}

// replayEntry lints one entry in the checked-out tree, its file as the
// pull request left it, and puts the file back.
func replayEntry(bin, tree string, p proposal) (found []Finding, err error) {
	path := filepath.Join(tree, filepath.FromSlash(p.path))
	original, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	defer func() {
		if werr := os.WriteFile(path, original, 0o644); err == nil {
			err = werr
		}
	}()
	r, ok := Review(string(original), p.date)
	if !ok {
		return nil, fmt.Errorf("no entry %s in %s at %s", p.date, p.path, p.commit)
	}
	if err := os.WriteFile(path, []byte(r.Text), 0o644); err != nil {
		return nil, err
	}
	rep, err := lint(bin, tree, p.path, p.date)
	if err != nil {
		return nil, err
	}
	for _, f := range rep.Findings {
		got := Finding{Path: f.File, Date: p.date, Rule: f.Code, Line: f.Line, Message: firstLine(f.Message), Where: "file"}
		if f.File == p.path {
			got.Where = "older"
			if f.Line >= r.First && f.Line <= r.Last {
				got.Where = "entry"
			}
			// Counted from the entry's date key, a line that stays
			// where it is in the entry however the file grows.
			got.Line = f.Line - r.First + 1
		}
		found = append(found, got)
	}
	return found, nil
}

// lint runs bflint on one backfill.yaml with the clock on date.
func lint(bin, tree, rel, date string) (report, error) {
	cmd := exec.Command(bin, "--now", date, "--format", "json", "--fail-on", "never", rel)
	cmd.Dir = tree
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return report{}, fmt.Errorf("%v: %s", err, strings.TrimSpace(stderr.String()))
	}
	var rep report
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		return report{}, err
	}
	for _, e := range rep.Errors {
		return rep, errors.New(e.Message)
	}
	return rep, nil
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return strings.ReplaceAll(s, "\t", " ")
}

// reviewed are the findings a reviewer of the entry would read: on the
// entry itself or in another file, not on older entries.
func reviewedFindings(all []Finding) []Finding {
	var out []Finding
	for _, f := range all {
		if f.Where != "older" {
			out = append(out, f)
		}
	}
	return out
}

func hasReviewed(found []Finding) bool { return len(reviewedFindings(found)) > 0 }

func summarize(w io.Writer, findings []Finding) {
	per := map[string][3]int{}
	for _, f := range findings {
		c := per[f.Rule]
		switch f.Where {
		case "entry":
			c[0]++
		case "file":
			c[1]++
		default:
			c[2]++
		}
		per[f.Rule] = c
	}
	rules := make([]string, 0, len(per))
	for r := range per {
		rules = append(rules, r)
	}
	slices.Sort(rules)
	fmt.Fprintf(w, "%-7s %8s %8s %8s\n", "rule", "entry", "file", "older")
	for _, r := range rules {
		c := per[r]
		fmt.Fprintf(w, "%-7s %8d %8d %8d\n", r, c[0], c[1], c[2])
	}
}

// pick chooses n findings spread over the rules: round robin over the
// rules, each rule's findings in an order fixed by their hash, one per
// entry of a rule until every entry has had one.
func pick(findings []Finding, n int) []Finding {
	byRule := map[string][]Finding{}
	for _, f := range findings {
		byRule[f.Rule] = append(byRule[f.Rule], f)
	}
	var rules []string
	for r, fs := range byRule {
		rules = append(rules, r)
		slices.SortFunc(fs, func(a, b Finding) int { return strings.Compare(hash(a), hash(b)) })
	}
	slices.Sort(rules)
	var out []Finding
	seen := map[string]bool{}
	for len(out) < n {
		added := false
		for _, r := range rules {
			for i, f := range byRule[r] {
				entry := f.Path + f.Date
				if seen[entry] && i < len(byRule[r])-1 {
					continue
				}
				out = append(out, f)
				seen[entry] = true
				byRule[r] = slices.Delete(byRule[r], i, i+1)
				added = true
				break
			}
			if len(out) == n {
				break
			}
		}
		if !added {
			break
		}
	}
	return out
}

func hash(f Finding) string {
	s := sha256.Sum256([]byte(f.key()))
	return fmt.Sprintf("%x", s)
}

func writeFindings(path string, found []Finding) error {
	var b strings.Builder
	b.WriteString("path\tentry\twhere\trule\tline\tmessage\n")
	for _, f := range found {
		fmt.Fprintf(&b, "%s\t%s\t%s\t%s\t%d\t%s\n", f.Path, f.Date, f.Where, f.Rule, f.Line, f.Message)
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}

// compare reads the judged file: rows "path entry rule line verdict
// reason" with verdict accepted or rejected for findings, and rule "-"
// with verdict clean for entries judged to need no finding.
func compare(w io.Writer, judgedPath string, findings []Finding, clean []string) error {
	f, err := os.Open(judgedPath)
	if err != nil {
		return err
	}
	defer f.Close()
	reported := map[string]bool{}
	onEntry := map[string]int{}
	for _, x := range findings {
		reported[x.key()] = true
		onEntry[x.Path+"\t"+x.Date]++
	}
	var accepted, rejected, gone, cleanOK, cleanFlagged int
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") || strings.HasPrefix(line, "path\t") {
			continue
		}
		c := strings.Split(line, "\t")
		if len(c) < 6 {
			return fmt.Errorf("%s:%d: want 6 columns (path, entry, rule, line, verdict, reason), got %d", judgedPath, n, len(c))
		}
		if c[2] == "-" {
			if k := onEntry[c[0]+"\t"+c[1]]; k > 0 {
				cleanFlagged++
				fmt.Fprintf(w, "judged clean, now %d findings: %s %s\n", k, c[0], c[1])
			} else {
				cleanOK++
			}
			continue
		}
		if !reported[strings.Join(c[:4], "\t")] {
			gone++
			fmt.Fprintf(w, "judged, no longer reported: %s\n", strings.Join(c[:4], " "))
			continue
		}
		switch c[4] {
		case "accepted":
			accepted++
		case "rejected":
			rejected++
			fmt.Fprintf(w, "rejected: %s: %s\n", strings.Join(c[:4], " "), c[5])
		default:
			return fmt.Errorf("%s:%d: verdict %q is neither accepted nor rejected", judgedPath, n, c[4])
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	if total := accepted + rejected; total > 0 {
		fmt.Fprintf(w, "judged sample: %d of %d findings accepted (%.1f%%), %d no longer reported\n", accepted, total, 100*float64(accepted)/float64(total), gone)
	}
	fmt.Fprintf(w, "entries judged clean: %d with no finding, %d with findings (%d entries replayed clean in all)\n", cleanOK, cleanFlagged, len(clean))
	return nil
}
