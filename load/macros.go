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
	eachMacroFile(project, func(src string) { jinja.ReadMacros(src, shapes) })
	l.macros[project] = shapes
	return shapes
}

// eachMacroFile calls visit with the text of each macro file of the dbt
// project (its macros folder, dbt's default macro-paths); a file that
// cannot be read, or is larger than maxMacroFile, is passed over.
func eachMacroFile(project string, visit func(src string)) {
	_ = filepath.WalkDir(filepath.Join(project, "macros"), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(strings.ToLower(path), ".sql") {
			return nil
		}
		if info, err := d.Info(); err != nil || !info.Mode().IsRegular() || info.Size() > maxMacroFile {
			return nil
		}
		if b, err := source.ReadRegular(path, maxMacroFile); err == nil {
			visit(string(b))
		}
		return nil
	})
}

// NamingVars returns the vars the dbt project's own generate_alias_name
// macro reads: dbt names every relation through that macro, so a var it
// reads, set on the command line, renames the tables a run writes.
func NamingVars(project string) []string {
	var out []string
	eachMacroFile(project, func(src string) {
		out = append(out, jinja.MacroVars(src, "generate_alias_name")...)
	})
	return out
}
