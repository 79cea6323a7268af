// Package ruletest runs bflint the way the CLI does, for tests of rules and
// reporters: discovery, loading and every rule, at a fixed clock.
package ruletest

import (
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bflint/bflint/lineage"
	"github.com/bflint/bflint/load"
	"github.com/bflint/bflint/parser/config"
	"github.com/bflint/bflint/rules"
)

// Now is the clock of every test run, so date rules are reproducible.
var Now = time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)

// Lint lints root (a folder, which is also the project root) with the
// rules of reg, skipping the doublestar globs in exclude. A nil cfg means
// the defaults. Internal errors fail the test: a rule must never crash.
func Lint(t testing.TB, root string, reg *rules.Registry, cfg *config.Config, exclude ...string) *rules.Result {
	t.Helper()
	root, err := filepath.Abs(root)
	if err != nil {
		t.Fatal(err)
	}
	if real, err := filepath.EvalSymlinks(root); err == nil {
		root = real
	}
	if cfg == nil {
		cfg = &config.Config{}
	}
	disc, err := load.Discover([]string{root}, root, exclude, load.Auto)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	res := rules.Run(fset, load.Units(fset, disc, load.Options{Root: root, Config: cfg, Streamed: true, Previous: previous, History: history}), &rules.Settings{Registry: reg, Config: cfg, Now: Now, Jobs: 2})
	for _, e := range res.Errors {
		t.Errorf("internal error in %s: %s", e.File.Name, e.Message)
	}
	return res
}

// previous stands for --new-from-rev in fixtures: a file's version at the
// base revision is the file beside it named with ".before" added.
func previous(path string) ([]byte, bool) {
	content, err := os.ReadFile(path + ".before")
	return content, err == nil
}

// history stands for git in fixtures: a history.txt beside a tree's sql
// folder lists, one per line, the day a table's folder was first committed
// and the table ("2026-04-15 shop-prod.orders_derived.orders_v2"); a table
// not listed was there from the start. A tree without the file has no
// history.
func history(root string) lineage.History {
	content, err := os.ReadFile(filepath.Join(filepath.Dir(root), "history.txt"))
	if err != nil {
		return nil
	}
	created := createdOn{}
	for _, line := range strings.Split(string(content), "\n") {
		day, name, ok := strings.Cut(strings.TrimSpace(line), " ")
		if t, err := time.Parse(time.DateOnly, day); ok && err == nil {
			created[strings.TrimSpace(name)] = t
		}
	}
	return created
}

// createdOn is a fixture's history: the day each listed table was created.
type createdOn map[string]time.Time

func (c createdOn) DefinedOn(day time.Time, names []string) (map[string]bool, bool) {
	out := make(map[string]bool, len(names))
	for _, name := range names {
		t, listed := c[name]
		out[name] = !listed || t.Before(day)
	}
	return out, true
}
