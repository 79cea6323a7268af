package plan

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/bflint/bflint/parser/suggest"
)

// PathRef is one file named by the plan, resolved against the plan's folder
// and confined to the project root.
type PathRef struct {
	Key   string  // the plan key, e.g. "staging.build"
	Value *String // the value as written
	Abs   string  // the resolved absolute path, when it resolved inside the root
	Rel   string  // Abs relative to the project root, slash-separated
	Err   error   // why the path cannot be used (rule BF003)
}

// References lists every file key of the plan that is set.
func (p *Plan) References() []*PathRef {
	var refs []*PathRef
	add := func(key string, s *String) {
		if s.Set {
			refs = append(refs, &PathRef{Key: key, Value: s})
		}
	}
	if r := p.Range; r != nil && r.Boundary != nil {
		add("range.boundary.evidence", &r.Boundary.Evidence)
	}
	if p.Rerun != nil {
		add("rerun.uniqueness_check", &p.Rerun.UniquenessCheck)
	}
	if p.Staging != nil {
		add("staging.build", &p.Staging.Build)
	}
	if p.Validation != nil {
		for i := range p.Validation.Checks {
			add(fmt.Sprintf("validation.checks[%d].sql", i), &p.Validation.Checks[i].SQL)
		}
	}
	if p.Publish != nil {
		add("publish.sql", &p.Publish.SQL)
	}
	if p.Rollback != nil {
		add("rollback.capture", &p.Rollback.Capture)
		add("rollback.sql", &p.Rollback.SQL)
	}
	if p.Downstream != nil {
		add("downstream.manifest", &p.Downstream.Manifest)
	}
	if p.Data != nil {
		add("data.suppression", &p.Data.Suppression)
	}
	return refs
}

// ResolvePaths resolves every file reference relative to planDir (absolute)
// and checks that it is a regular file inside root (absolute, symlinks
// evaluated). The results are kept in p.Paths.
func (p *Plan) ResolvePaths(planDir, root string) {
	p.Paths = p.References()
	for _, ref := range p.Paths {
		ref.Abs, ref.Rel, ref.Err = resolve(ref.Value.V, planDir, root)
	}
}

func resolve(value, planDir, root string) (abs, rel string, err error) {
	if strings.TrimSpace(value) == "" {
		return "", "", errors.New("is empty")
	}
	joined := filepath.FromSlash(value)
	if !filepath.IsAbs(joined) {
		joined = filepath.Join(planDir, joined)
	}
	joined = filepath.Clean(joined)
	if !within(root, joined) {
		return "", "", fmt.Errorf("resolves outside the project root; plans may only name files inside the repository")
	}
	real, err := filepath.EvalSymlinks(joined)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "", "", notFound(value, joined, planDir, root)
		}
		return "", "", fmt.Errorf("cannot be read: %v", stripPath(err))
	}
	if !within(root, real) {
		return "", "", fmt.Errorf("is a link that resolves outside the project root")
	}
	info, err := os.Stat(real)
	if err != nil {
		return "", "", fmt.Errorf("cannot be read: %v", stripPath(err))
	}
	if !info.Mode().IsRegular() {
		if info.IsDir() {
			return "", "", errors.New("is a directory, not a file")
		}
		return "", "", errors.New("is not a regular file")
	}
	r, _ := filepath.Rel(root, real)
	return real, filepath.ToSlash(r), nil
}

// notFound says a file is missing, where it was looked for (paths are
// read from the plan's folder), and which file was probably meant: a
// sibling with a close name, or the same path read from the project root,
// the usual slip of a plan written from the root into a subfolder.
func notFound(value, path, planDir, root string) error {
	at, note := "", ""
	if rel, err := filepath.Rel(root, path); err == nil && filepath.ToSlash(rel) != filepath.ToSlash(filepath.Clean(value)) {
		at, note = " at "+filepath.ToSlash(rel), " (paths in a plan are read from its folder)"
	}
	if !filepath.IsAbs(value) {
		fromRoot := filepath.Join(root, filepath.FromSlash(value))
		if info, err := os.Stat(fromRoot); err == nil && info.Mode().IsRegular() && within(root, fromRoot) {
			if fix, err := filepath.Rel(planDir, fromRoot); err == nil {
				return fmt.Errorf("does not exist%s (paths in a plan are read from its folder, not the project root); did you mean %q?", at, filepath.ToSlash(fix))
			}
		}
	}
	entries, err := os.ReadDir(filepath.Dir(path))
	if err != nil {
		return fmt.Errorf("does not exist%s, nor does its folder%s", at, note)
	}
	var names []string
	for _, e := range entries {
		if !e.IsDir() {
			names = append(names, e.Name())
		}
	}
	if s := suggest.Closest(filepath.Base(path), names); s != "" {
		return fmt.Errorf("does not exist%s%s; did you mean %q?", at, note, s)
	}
	return fmt.Errorf("does not exist%s%s", at, note)
}

func within(root, path string) bool {
	rel, err := filepath.Rel(root, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// stripPath drops the absolute path from an *fs.PathError so messages stay
// repository-relative.
func stripPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
