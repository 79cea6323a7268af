package main

import (
	"bytes"
	"errors"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/bflint/bflint/rules"
)

// changedFiles lists the files that differ from rev: those git diff names
// (the working tree against rev, so staged and unstaged edits count) and
// untracked files that are not ignored, which are new to the branch too.
// Names are relative to root with forward slashes, as the driver names
// files.
func changedFiles(root, rev string) (map[string]bool, error) {
	top, err := git(root, "rev-parse", "--show-toplevel")
	if err != nil {
		return nil, err
	}
	top = strings.TrimSpace(top)
	if real, err := filepath.EvalSymlinks(top); err == nil {
		// root has its symlinks resolved; the two must compare.
		top = real
	}
	// "--" makes git read rev as a revision only, so a missing one is
	// "bad revision" rather than a guess about paths; --end-of-options,
	// never as an option of its own.
	diff, err := git(top, "diff", "--name-only", "-z", "--end-of-options", rev, "--")
	if err != nil {
		return nil, err
	}
	untracked, err := git(top, "ls-files", "--others", "--exclude-standard", "-z")
	if err != nil {
		return nil, err
	}
	changed := map[string]bool{}
	for _, p := range strings.Split(diff+untracked, "\x00") {
		if p == "" {
			continue
		}
		abs := filepath.Join(top, filepath.FromSlash(p))
		rel, err := filepath.Rel(root, abs)
		if err != nil || strings.HasPrefix(rel, "..") {
			changed[filepath.ToSlash(abs)] = true
			continue
		}
		changed[filepath.ToSlash(rel)] = true
	}
	return changed, nil
}

// previousFiles returns what load.Options.Previous asks for: a changed
// file's content at rev, read with git show. An unchanged file has nothing
// to compare, and a file outside the repository, or one rev does not hold,
// no previous version: neither has one.
func previousFiles(root, rev string, changed map[string]bool) (func(path string) ([]byte, bool), error) {
	top, err := git(root, "rev-parse", "--show-toplevel")
	if err != nil {
		return nil, err
	}
	top = strings.TrimSpace(top)
	if real, err := filepath.EvalSymlinks(top); err == nil {
		top = real
	}
	return func(path string) ([]byte, bool) {
		if rel, err := filepath.Rel(root, path); err == nil && !changed[filepath.ToSlash(rel)] {
			return nil, false
		}
		rel, err := filepath.Rel(top, path)
		if err != nil || strings.HasPrefix(rel, "..") {
			return nil, false
		}
		out, err := git(top, "show", "--end-of-options", rev+":"+filepath.ToSlash(rel))
		if err != nil {
			return nil, false
		}
		return []byte(out), true
	}, nil
}

// git runs a git command in dir and returns its output; on failure the
// error is git's own message, which says best what is wrong (no
// repository, unknown revision).
func git(dir string, args ...string) (string, error) {
	return gitWithInput(dir, "", args...)
}

// gitWithInput is git with stdin, for the commands that read their
// requests from it.
func gitWithInput(dir, stdin string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		var exit *exec.ExitError
		if msg := strings.TrimSpace(stderr.String()); errors.As(err, &exit) && msg != "" {
			return "", errors.New(msg)
		}
		return "", err
	}
	return stdout.String(), nil
}

// keepChanged keeps the findings of the units that changed: a plan with
// every SQL file it references counts as changed when any of those files
// did, since plan-level findings have no changed line to attach to. A SQL
// file shared by several plans belongs to each, so its findings show when
// any of them changed.
func keepChanged(units []*rules.Unit, changed map[string]bool) rules.Processor {
	return rules.Processor{Name: "new-from-rev", Run: func(findings []rules.Finding) ([]rules.Finding, error) {
		keep := map[string]bool{}
		for _, u := range units {
			files := filesOf(u)
			for _, n := range files {
				if changed[n] {
					for _, m := range files {
						keep[m] = true
					}
					break
				}
			}
		}
		out := findings[:0]
		for _, f := range findings {
			if f.File != nil && keep[f.File.Name] {
				out = append(out, f)
			}
		}
		return out, nil
	}}
}
