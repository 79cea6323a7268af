package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"

	"github.com/bflint/bflint/parser/source"
	"github.com/bflint/bflint/rules"
	"github.com/bflint/bflint/rules/fix"
)

// maxFixRounds bounds --fix: a round's edits can make the next finding
// fixable (models added at the end of a list that is then reordered), and
// each round only moves the list closer to the rebuild order.
const maxFixRounds = 3

// applyFixes writes the suggested fixes of the active findings into their
// files, says on stderr what it changed in each, and returns how many
// files it changed. A file with a BF001 finding
// is left alone: its positions describe text the parser did not
// understand. Every file is checked before any is written, so a file that
// cannot be written stops the run with no file changed.
func applyFixes(res *rules.Result, root string, stderr io.Writer) (int, error) {
	broken := map[*source.File]bool{}
	for _, f := range res.Findings {
		if f.Rule.Code == "BF001" {
			broken[f.File] = true
		}
	}
	edits := map[*source.File][]fix.Edit{}
	// what are the fixes of each file as said to the user, each once: the
	// findings of one list often carry the same fix.
	what := map[*source.File][]string{}
	var files []*source.File
	for _, f := range res.Findings {
		if f.Suppressed != nil || len(f.Fixes) == 0 || broken[f.File] {
			continue
		}
		for _, sf := range f.Fixes {
			es, err := fix.Offsets(f.File, sf)
			if err != nil {
				return 0, internalErrorf("--fix: %v", err)
			}
			if _, ok := edits[f.File]; !ok {
				files = append(files, f.File)
			}
			edits[f.File] = append(edits[f.File], es...)
			if said := sf.Message + " (" + f.Rule.Code + ")"; !slices.Contains(what[f.File], said) {
				what[f.File] = append(what[f.File], said)
			}
		}
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Name < files[j].Name })
	type change struct {
		path, name string
		content    []byte
		mode       os.FileMode
		what       []string
	}
	var changes []change
	for _, f := range files {
		out, err := fix.Apply(f.Content, edits[f])
		if err != nil {
			fmt.Fprintf(stderr, "bflint: --fix: %s left as it is: %v\n", f.Name, err)
			continue
		}
		path := filepath.Join(root, filepath.FromSlash(f.Name))
		info, err := os.Stat(path)
		if err != nil {
			return 0, inputErrorf("--fix: %v", err)
		}
		if info.Mode().Perm()&0o222 == 0 {
			return 0, inputErrorf("--fix: %s is read-only; no file was changed. Make it writable, or run without --fix", f.Name)
		}
		disk, err := source.ReadRegular(path, source.MaxFileSize)
		if err != nil {
			return 0, inputErrorf("--fix: %v", err)
		}
		if !bytes.Equal(disk, f.Content) {
			return 0, inputErrorf("--fix: %s changed while bflint read it; no file was changed", f.Name)
		}
		changes = append(changes, change{path, f.Name, out, info.Mode().Perm(), what[f]})
	}
	for i, c := range changes {
		if err := writeAtomic(c.path, c.content, c.mode); err != nil {
			return i, inputErrorf("--fix: %v", err)
		}
		for _, w := range c.what {
			fmt.Fprintf(stderr, "bflint: --fix: %s: %s\n", c.name, w)
		}
	}
	return len(changes), nil
}

// writeAtomic replaces path by a file written beside it and renamed over
// it, so a reader or a crash sees the old plan or the new one, never half.
func writeAtomic(path string, content []byte, mode os.FileMode) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".bflint-*")
	if err != nil {
		return err
	}
	name := tmp.Name()
	_, err = tmp.Write(content)
	if err == nil {
		err = tmp.Chmod(mode)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(name, path)
	}
	if err != nil {
		os.Remove(name)
	}
	return err
}
