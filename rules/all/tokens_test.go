package all

import (
	"fmt"
	"go/token"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/bflint/bflint/load"
	"github.com/bflint/bflint/parser/config"
	"github.com/bflint/bflint/rules"
	"github.com/bflint/bflint/rules/files"
	"github.com/bflint/bflint/rules/ruletest"
)

// tokenRules are the rules that also read statements from their tokens.
var tokenRules = Registry().TokenReaders()

// TestBF002NamesTheTokenReaders checks that BF002's documentation lists the
// rules that read tokens, as its findings do from the registry.
func TestBF002NamesTheTokenReaders(t *testing.T) {
	want := "(" + strings.Join(rules.CodeGroups(tokenRules), ", ") + ")"
	if want != "(BF102, BF112, BF201, BF204, BF302, BF504, BF701-BF704)" {
		t.Errorf("token readers are %s", want)
	}
	if doc := files.SQLUnparsed.Doc.Why; !strings.Contains(doc, want) {
		t.Errorf("BF002's documentation does not list the token readers %s: %s", want, doc)
	}
}

// tokenPathExceptions are the findings where the token path knowingly
// answers otherwise than the parse tree on the fixtures, keyed
// "+folder/file:line CODE" for a finding only the token path gives and
// "-..." for one only the parse tree gives, with why. A listed difference
// that no longer occurs fails the test too, so the list stays true.
//
// None is known on today's fixtures. The token path reads the structure of
// a statement (what it writes, its FROM items and which conditions belong
// to which query) from tokens, and each condition through the parser on its
// own, so it is coarser only in structure: WITH names are matched across
// the whole statement rather than by scope; the branches of a UNION inside
// a scalar subquery are not marked scalar; a condition that does not parse
// even alone is read for names, times and plain comparisons only, and the
// rules then decline to report an absence in it (BF701, BF704, an open
// bound of BF102). A fixture that shows such a difference is listed here
// with that reason, never skipped.
var tokenPathExceptions = map[string]string{}

// TestTokenPathAgrees reads every statement of the fixtures of the rules
// that have a token path twice, from its parse tree and from its tokens,
// and checks that those rules fire the same (same rule, same line) both
// ways, except where tokenPathExceptions says why not.
func TestTokenPathAgrees(t *testing.T) {
	reg := Registry()
	seen := map[string]bool{}
	fromTokens := 0
	for _, code := range tokenRules {
		dir := filepath.Join(fixtureRoot, code)
		runs := append([]string{dir}, configuredSubdirs(t, absDir(t, dir))...)
		for _, run := range runs {
			parsed, _ := findingLines(t, reg, run, false)
			tokens, n := findingLines(t, reg, run, true)
			fromTokens += n
			for k, n := range parsed {
				for ; n > tokens[k]; n-- {
					checkException(t, "-"+k, seen)
				}
			}
			for k, n := range tokens {
				for ; n > parsed[k]; n-- {
					checkException(t, "+"+k, seen)
				}
			}
		}
	}
	// Agreement means nothing if the token runs read nothing from tokens.
	if fromTokens == 0 {
		t.Error("no finding of the token runs came from tokens: Settings.TokensOnly had no effect")
	}
	for k, why := range tokenPathExceptions {
		if !seen[k] {
			t.Errorf("listed token-path difference %s no longer occurs (%s): remove it from tokenPathExceptions", k, why)
		}
	}
}

func checkException(t *testing.T, key string, seen map[string]bool) {
	t.Helper()
	if _, ok := tokenPathExceptions[key]; ok {
		seen[key] = true
		return
	}
	t.Errorf("%s: the token path and the parse tree disagree (%s)", key[1:], map[byte]string{'+': "only the token path fires", '-': "only the parse tree fires"}[key[0]])
}

func absDir(t *testing.T, dir string) string {
	t.Helper()
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	return abs
}

// findingLines lints dir as lintDir does, reading every statement from
// its tokens when tokensOnly is set, and counts the findings of the token
// rules by "folder/file:line CODE"; fromTokens counts those marked as read
// from tokens.
func findingLines(t *testing.T, reg *rules.Registry, dir string, tokensOnly bool) (lines map[string]int, fromTokens int) {
	t.Helper()
	root := absDir(t, dir)
	cfg := &config.Config{}
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
	disc, err := load.Discover([]string{root}, root, exclude, load.Auto)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	res := rules.Run(fset, load.Units(fset, disc, load.Options{Root: root, Config: cfg}),
		&rules.Settings{Registry: reg, Config: cfg, Now: ruletest.Now, Jobs: 2, TokensOnly: tokensOnly})
	for _, e := range res.Errors {
		t.Errorf("internal error in %s (tokens only: %v): %s", e.File.Name, tokensOnly, e.Message)
	}
	fixtures := absDir(t, fixtureRoot)
	out := map[string]int{}
	for _, f := range res.Findings {
		if !slices.Contains(tokenRules, f.Rule.Code) || f.Suppressed != nil {
			continue
		}
		if f.FromTokens != strings.HasSuffix(f.Message, rules.TokensNote) {
			t.Errorf("%s: %s finding marked FromTokens=%v, message says otherwise: %s", f.File.Name, f.Rule.Code, f.FromTokens, f.Message)
		}
		if f.FromTokens {
			fromTokens++
		}
		rel, _ := filepath.Rel(fixtures, filepath.Join(root, f.File.Name))
		out[fmt.Sprintf("%s:%d %s", filepath.ToSlash(rel), res.Fset.Position(f.Pos).Line, f.Rule.Code)]++
	}
	return out, fromTokens
}
