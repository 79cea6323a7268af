package all

import (
	"fmt"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/bflint/bflint/parser/config"
	"github.com/bflint/bflint/rules"
	"github.com/bflint/bflint/rules/ruletest"
)

const fixtureRoot = "../../testdata/rules"

// want is one expectation comment: a finding of code on line whose message
// matches pattern, with the given severity when one is written
// ("BF403:error").
type want struct {
	file     string
	line     int
	code     string
	severity string
	pattern  *regexp.Regexp
	matched  bool
	// related marks a "related CODE "regexp"" comment: a finding of code
	// points at this line as a related place, with a matching message.
	related bool
}

var wantComment = regexp.MustCompile(`(?:#|--)\s*(want|related)\s+(.*)$`)
var wantItem = regexp.MustCompile(`^\s*(BF\d{3})(?::(error|warning|info))?(?:\s+("(?:[^"\\]|\\.)*"))?`)

// parseWants reads "want [+N|-N] CODE[:severity] ["regexp"] ..." comments
// of a fixture, and "related [+N|-N] CODE ["regexp"]" comments on the
// places findings name as related.
func parseWants(t *testing.T, name string, content []byte) []*want {
	var out []*want
	for i, line := range strings.Split(string(content), "\n") {
		m := wantComment.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		kind, rest, target := m[1], m[2], i+1
		if strings.HasPrefix(rest, "+") || strings.HasPrefix(rest, "-") {
			fields := strings.SplitN(rest, " ", 2)
			n, err := strconv.Atoi(fields[0])
			if err != nil || len(fields) < 2 {
				t.Fatalf("%s:%d: malformed want offset", name, i+1)
			}
			target, rest = i+1+n, fields[1]
		}
		for strings.TrimSpace(rest) != "" {
			im := wantItem.FindStringSubmatch(rest)
			if im == nil {
				t.Fatalf("%s:%d: malformed want comment %q", name, i+1, rest)
			}
			pat := ".*"
			if im[3] != "" {
				s, err := strconv.Unquote(im[3])
				if err != nil {
					t.Fatalf("%s:%d: %v", name, i+1, err)
				}
				pat = s
			}
			out = append(out, &want{file: name, line: target, code: im[1], severity: im[2], pattern: regexp.MustCompile(pat), related: kind == "related"})
			rest = rest[len(im[0]):]
		}
	}
	return out
}

// TestFixtures runs every rule over testdata/rules/<CODE>/ and compares the
// findings of that code with the want comments in the fixture files.
func TestFixtures(t *testing.T) {
	reg := Registry()
	dirs, err := os.ReadDir(fixtureRoot)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		code := d.Name()
		t.Run(code, func(t *testing.T) {
			if reg.Lookup(code) == nil {
				t.Fatalf("fixture folder %s names no registered rule", code)
			}
			checkFixtureDir(t, reg, code, filepath.Join(fixtureRoot, code))
		})
	}
}

// lintDir lints dir as one run. A subfolder with its own configuration is
// left out: it is a run of its own, with that configuration.
func lintDir(t *testing.T, reg *rules.Registry, dir string) (*rules.Result, string) {
	t.Helper()
	root, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	var cfg *config.Config
	if path := filepath.Join(root, config.FileName); fileExists(path) {
		var errs []error
		cfg, errs = config.Load(token.NewFileSet(), path, config.FileName)
		if len(errs) > 0 {
			t.Fatalf("fixture config: %v", errs)
		}
	}
	var exclude []string
	for _, sub := range configuredSubdirs(t, root) {
		rel, _ := filepath.Rel(root, sub)
		exclude = append(exclude, filepath.ToSlash(rel)+"/**")
	}
	return ruletest.Lint(t, root, reg, cfg, exclude...), root
}

func configuredSubdirs(t *testing.T, root string) []string {
	var out []string
	filepath.WalkDir(root, func(p string, e os.DirEntry, err error) error {
		if err == nil && e.IsDir() && p != root && fileExists(filepath.Join(p, config.FileName)) {
			out = append(out, p)
			return filepath.SkipDir
		}
		return err
	})
	return out
}

func fileExists(p string) bool {
	info, err := os.Stat(p)
	return err == nil && info.Mode().IsRegular()
}

func checkFixtureDir(t *testing.T, reg *rules.Registry, code, dir string) {
	with, without := checkFixtureRun(t, reg, code, dir)
	if with == 0 || without == 0 {
		t.Errorf("%s needs at least one fixture (plan or SQL file) that fires and one that stays silent (have %d and %d)", code, with, without)
	}
}

// checkFixtureRun lints dir, and each configured subfolder as a run of its
// own, comparing findings with the want comments. It returns how many plans
// expect the rule to fire and how many expect silence.
func checkFixtureRun(t *testing.T, reg *rules.Registry, code, dir string) (plansWith, plansWithout int) {
	root, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	subdirs := configuredSubdirs(t, root)
	for _, sub := range subdirs {
		w, wo := checkFixtureRun(t, reg, code, sub)
		plansWith += w
		plansWithout += wo
	}
	var wants []*want
	own := 0 // files to lint outside the configured subfolders
	err = filepath.WalkDir(root, func(p string, e os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.IsDir() {
			if p != root && fileExists(filepath.Join(p, config.FileName)) {
				return filepath.SkipDir
			}
			return nil
		}
		content, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		ws := parseWants(t, filepath.ToSlash(rel), content)
		wants = append(wants, ws...)
		if ext := filepath.Ext(p); (ext == ".yaml" || ext == ".yml" || ext == ".sql") && filepath.Base(p) != config.FileName {
			own++
		}
		if strings.Contains(p, ".backfill.y") || filepath.Base(p) == "backfill.yaml" || strings.HasSuffix(p, ".sql") {
			if hasCode(ws, code) {
				plansWith++
			} else {
				plansWithout++
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if own == 0 {
		// Only configured subfolders: linting the folder itself finds
		// nothing, which bflint rejects as a mistyped path.
		return plansWith, plansWithout
	}
	res, _ := lintDir(t, reg, root)
	for _, f := range res.Findings {
		if f.Rule.Code != code || f.Suppressed != nil {
			continue
		}
		pos := res.Fset.Position(f.Pos)
		if !matchWant(wants, false, f.File.Name, pos.Line, code, f.Severity.String(), f.Text()) {
			t.Errorf("%s:%d:%d: unexpected %s (%s): %s", f.File.Name, pos.Line, pos.Column, code, f.Severity, f.Text())
		}
		for _, r := range f.Related {
			rpos := res.Fset.Position(r.Pos)
			if !matchWant(wants, true, r.File.Name, rpos.Line, code, "", r.Message) {
				t.Errorf("%s:%d:%d: unexpected place related to %s at %s:%d: %s", r.File.Name, rpos.Line, rpos.Column, code, f.File.Name, pos.Line, r.Message)
			}
		}
	}
	for _, w := range wants {
		if w.code == code && !w.matched {
			what := "expected"
			if w.related {
				what = "expected a place related to"
			}
			t.Errorf("%s:%d: %s %s matching %q, got none", w.file, w.line, what, w.code, w.pattern)
		}
	}
	return plansWith, plansWithout
}

func hasCode(ws []*want, code string) bool {
	for _, w := range ws {
		if w.code == code && !w.related {
			return true
		}
	}
	return false
}

func matchWant(ws []*want, related bool, file string, line int, code, severity, msg string) bool {
	for _, w := range ws {
		if !w.matched && w.related == related && w.file == file && w.line == line && w.code == code &&
			(w.severity == "" || w.severity == severity) && w.pattern.MatchString(msg) {
			w.matched = true
			return true
		}
	}
	return false
}

// TestEveryRuleHasFixtures keeps the catalogue honest: a rule without
// fixtures may be a rule that cannot fire.
func TestEveryRuleHasFixtures(t *testing.T) {
	for _, r := range Registry().All() {
		if _, err := os.Stat(filepath.Join(fixtureRoot, r.Code)); err != nil {
			t.Errorf("rule %s (%s) has no fixtures in %s", r.Code, r.Name, fmt.Sprint(filepath.Join("testdata/rules", r.Code)))
		}
	}
}
