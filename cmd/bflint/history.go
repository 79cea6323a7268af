package main

import (
	"bytes"
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/bflint/bflint/lineage"
	"github.com/bflint/bflint/parser/bqetl"
)

// gitHistory is the lineage.History of a bigquery-etl tree, read from the
// git repository it is in. Nothing runs until a rule asks; a tree outside
// git, or a shallow clone that does not reach back to the day asked,
// answers that it cannot tell.
type gitHistory struct {
	root string // the tree's sql folder

	once   sync.Once
	top    string // the repository's top folder, "" outside git
	prefix string // root, relative to top, slash-separated

	mu      sync.Mutex
	commits map[time.Time]string       // day -> last commit before it
	defined map[string]map[string]bool // commit -> name -> defined there
}

// gitHistoryOf is the history of the bigquery-etl tree at root as the git
// repository holding it tells, for load.Options.History.
func gitHistoryOf(root string) lineage.History {
	return &gitHistory{root: root, commits: map[time.Time]string{}, defined: map[string]map[string]bool{}}
}

func (h *gitHistory) locate() {
	abs, err := filepath.Abs(h.root)
	if err != nil {
		return
	}
	if resolved, err := filepath.EvalSymlinks(abs); err == nil {
		abs = resolved
	}
	out, err := git(abs, "rev-parse", "--show-toplevel")
	if err != nil {
		return
	}
	top := strings.TrimSpace(out)
	rel, err := filepath.Rel(top, abs)
	if err != nil || strings.HasPrefix(rel, "..") {
		return
	}
	h.top, h.prefix = top, strings.TrimPrefix(filepath.ToSlash(rel), ".")
}

// DefinedOn implements lineage.History.
func (h *gitHistory) DefinedOn(day time.Time, names []string) (map[string]bool, bool) {
	h.once.Do(h.locate)
	if h.top == "" {
		return nil, false
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	commit, err := h.commitBefore(day)
	if err != nil || commit == "" {
		return nil, false
	}
	known := h.defined[commit]
	if known == nil {
		known = map[string]bool{}
		h.defined[commit] = known
	}
	var unread []string
	for _, name := range names {
		if _, ok := known[name]; !ok {
			unread = append(unread, name)
		}
	}
	if err := h.read(commit, unread, known); err != nil {
		return nil, false
	}
	out := make(map[string]bool, len(names))
	for _, name := range names {
		out[name] = known[name]
	}
	return out, true
}

// commitBefore is the last commit of the checked-out branch's first-parent
// line made before day; "" when the history holds none.
func (h *gitHistory) commitBefore(day time.Time) (string, error) {
	if c, ok := h.commits[day]; ok {
		return c, nil
	}
	out, err := git(h.top, "rev-list", "-1", "--first-parent", "--before="+day.UTC().Format("2006-01-02 15:04:05 -0700"), "HEAD")
	if err != nil {
		return "", err
	}
	c := strings.TrimSpace(out)
	h.commits[day] = c
	return c, nil
}

// read records in known whether each of names was defined at commit: a
// folder holding one of the files that define an object, asked of one
// git cat-file for all of them.
func (h *gitHistory) read(commit string, names []string, known map[string]bool) error {
	if len(names) == 0 {
		return nil
	}
	files := bqetl.DefinitionFiles()
	var request bytes.Buffer
	// The tree itself first: a commit from before it was added (a tree
	// copied into another repository) says nothing about its tables.
	fmt.Fprintf(&request, "%s:%s\n", commit, h.prefix)
	for _, name := range names {
		for _, f := range files {
			fmt.Fprintf(&request, "%s:%s\n", commit, path.Join(h.prefix, strings.ReplaceAll(name, ".", "/"), f))
		}
	}
	out, err := gitWithInput(h.top, request.String(), "cat-file", "--batch-check")
	if err != nil {
		return err
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 1+len(names)*len(files) {
		return fmt.Errorf("git cat-file answered %d of %d names", len(lines), 1+len(names)*len(files))
	}
	if fields := strings.Fields(lines[0]); len(fields) != 3 || fields[1] != "tree" {
		return errNoTree
	}
	lines = lines[1:]
	for i, name := range names {
		for _, line := range lines[i*len(files) : (i+1)*len(files)] {
			if fields := strings.Fields(line); len(fields) == 3 && fields[1] == "blob" {
				known[name] = true
			}
		}
		if _, ok := known[name]; !ok {
			known[name] = false
		}
	}
	return nil
}

// errNoTree is the answer for a commit made before the tree was added.
var errNoTree = errors.New("the tree is not in this commit")
