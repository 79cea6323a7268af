package main

import (
	"bytes"
	"fmt"
	"github.com/bflint/bflint/internal/outfile"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

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
		path := filepath.FromSlash(f.Name)
		if !filepath.IsAbs(path) {
			path = filepath.Join(root, path)
		}
		info, err := os.Stat(path)
		if err != nil {
			return 0, inputErrorf("--fix: %v", err)
		}
		if info.Mode().Perm()&0o222 == 0 {
			return 0, inputErrorf("--fix: %s is read-only; no file was changed. Make it writable, or run without --fix", f.Name)
		}
		if real, err := filepath.EvalSymlinks(path); err == nil && real != path && !within(root, real) {
			return 0, inputErrorf("--fix: %s is a link to %s, outside the project; no file was changed. Fix the file it points at from its own project", f.Name, real)
		}
		disk, err := source.ReadRegular(path, source.MaxFileSize)
		if err != nil {
			return 0, inputErrorf("--fix: %v", err)
		}
		if source.IsUTF16(disk) {
			return 0, inputErrorf("--fix: %s is UTF-16 text, which bflint reads but --fix does not write; no file was changed. Convert it to UTF-8 (iconv -f UTF-16 -t UTF-8) to have it fixed", f.Name)
		}
		// The plan was read without its byte-order mark; the file keeps
		// it, and keeps its line endings.
		bom := bytes.HasPrefix(disk, utf8BOM)
		if !bytes.Equal(bytes.TrimPrefix(disk, utf8BOM), f.Content) {
			return 0, inputErrorf("--fix: %s changed while bflint read it; no file was changed", f.Name)
		}
		if bytes.Contains(disk, []byte("\r\n")) {
			out = bytes.ReplaceAll(bytes.ReplaceAll(out, []byte("\r\n"), []byte("\n")), []byte("\n"), []byte("\r\n"))
		}
		if bom {
			out = append(slices.Clip(utf8BOM), out...)
		}
		changes = append(changes, change{path, f.Name, out, info.Mode().Perm(), what[f]})
	}
	// Every file is written beside itself first, and only once all are
	// does any take the place of the plan it fixes: a failure before then
	// leaves every plan as it was.
	pending := make([]*outfile.Pending, 0, len(changes))
	for _, c := range changes {
		p, err := outfile.Prepare(c.path, c.content, c.mode)
		if err != nil {
			for _, done := range pending {
				done.Abort()
			}
			return 0, inputErrorf("--fix: %v; no file was changed", err)
		}
		pending = append(pending, p)
	}
	for i, c := range changes {
		if err := pending[i].Commit(); err != nil {
			for _, left := range pending[i+1:] {
				left.Abort()
			}
			return i, inputErrorf("--fix: %v", err)
		}
		for _, w := range c.what {
			fmt.Fprintf(stderr, "bflint: --fix: %s: %s\n", c.name, w)
		}
	}
	return len(changes), nil
}

var utf8BOM = []byte("\xef\xbb\xbf")

// within reports whether path is root or inside it.
func within(root, path string) bool {
	rel, err := filepath.Rel(root, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../")
}
