package load

import (
	"github.com/bflint/bflint/parser/source"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/bflint/bflint/parser/manifest"
	"github.com/bflint/bflint/parser/sqlparse/jinja"
)

// maxMacroFile bounds what is read of one macro file: macros are small,
// and a huge file in macros/ is not worth holding for shapes.
const maxMacroFile = 1 << 20

// macrosFor returns what is read of the own macros of the dbt project that
// holds dir, read once per project from its macros folder (dbt's default
// macro-paths); nil outside a dbt project. A macro file that cannot be
// read only leaves its macros unknown: they are then read by position, as
// without a project.
func (l *loader) macrosFor(dir string) map[string]jinja.Macro {
	project, ok := l.projects[dir]
	if !ok {
		project, _ = manifest.ProjectDir(dir, l.root)
		l.projects[dir] = project
	}
	if project == "" {
		return nil
	}
	if shapes, ok := l.macros[project]; ok {
		return shapes
	}
	shapes := map[string]jinja.Macro{}
	_ = filepath.WalkDir(filepath.Join(project, "macros"), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(strings.ToLower(path), ".sql") {
			return nil
		}
		if info, err := d.Info(); err != nil || !info.Mode().IsRegular() || info.Size() > maxMacroFile {
			return nil
		}
		if b, err := source.ReadRegular(path, maxMacroFile); err == nil {
			jinja.ReadMacros(string(b), shapes)
		}
		return nil
	})
	l.macros[project] = shapes
	return shapes
}
