package bqetl

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/bflint/bflint/parser/sqlname"
	"go.yaml.in/yaml/v3"
)

// A bigquery-etl repository keeps one folder per table or view under
// sql/<project>/<dataset>/<name>/; the file there that defines the object
// says what it is. Those definitions and metadata.yaml's references are
// what lineage is built from where there is no dbt manifest.

// Definitions, in the order bqetl itself looks for them: the first one a
// folder holds defines the object.
var definitions = []struct {
	file string
	view bool
}{
	{"query.sql", false},
	{"query.py", false},
	{"script.sql", false},
	{"materialized_view.sql", true},
	{"view.sql", true},
}

// DefinitionFiles are the files that may define an object, in the order
// bqetl looks for them.
func DefinitionFiles() []string {
	out := make([]string, len(definitions))
	for i, d := range definitions {
		out[i] = d.file
	}
	return out
}

// Object is a table or view defined by a folder of the tree.
type Object struct {
	// Name is project.dataset.name.
	Name string
	// Dir is the folder, below the root as it was given.
	Dir string
	// Definition is the file that defines it (query.sql, view.sql, ...).
	Definition string
	// View is set for a view or materialized view: it holds no rows a
	// backfill must recompute (BigQuery refreshes a materialized view
	// itself when its base partitions change).
	View bool
}

// Project is the object's project, the first part of its name.
func (o Object) Project() string {
	project, _, _ := strings.Cut(o.Name, ".")
	return project
}

// Root returns the tree a table folder belongs to: the folder three levels
// up (sql/ of sql/<project>/<dataset>/<name>), when tableDir has that
// shape.
func Root(tableDir string) (string, bool) {
	root := filepath.Dir(filepath.Dir(filepath.Dir(tableDir)))
	if root == filepath.Dir(root) || filepath.Base(root) != "sql" {
		return "", false
	}
	return root, true
}

// ChecksName is the file of a table's data checks, which bqetl renders
// with the macros of CheckMacrosDir.
const ChecksName = "checks.sql"

// CheckMacrosDir is where a tree's data-check macros are: tests/checks
// beside its sql/ folder.
func CheckMacrosDir(root string) string {
	return filepath.Join(filepath.Dir(root), "tests", "checks")
}

// Objects lists the tables and views the tree at root defines, sorted by
// name. Folders that define nothing (user-defined functions, a dataset's
// own metadata) are skipped; a folder that cannot be read is an error.
func Objects(root string) ([]Object, error) {
	projects, err := os.ReadDir(root)
	if err != nil {
		return nil, err
	}
	var out []Object
	for _, p := range projects {
		if !p.IsDir() {
			continue
		}
		datasets, err := os.ReadDir(filepath.Join(root, p.Name()))
		if err != nil {
			return nil, err
		}
		for _, d := range datasets {
			if !d.IsDir() {
				continue
			}
			dir := filepath.Join(root, p.Name(), d.Name())
			tables, err := os.ReadDir(dir)
			if err != nil {
				return nil, err
			}
			for _, t := range tables {
				if !t.IsDir() {
					continue
				}
				if o, ok := objectIn(filepath.Join(dir, t.Name())); ok {
					o.Name = p.Name() + "." + d.Name() + "." + t.Name()
					out = append(out, o)
				}
			}
		}
	}
	slices.SortFunc(out, func(a, b Object) int { return strings.Compare(a.Name, b.Name) })
	return out, nil
}

func objectIn(dir string) (Object, bool) {
	for _, d := range definitions {
		if info, err := os.Stat(filepath.Join(dir, d.file)); err == nil && info.Mode().IsRegular() {
			return Object{Dir: dir, Definition: d.file, View: d.view}, true
		}
	}
	return Object{}, false
}

// References returns what metadata.yaml's references list for the
// definition (bqetl generates the list on its generated-sql branch), and
// whether the file has such a list, each name qualified as Qualify does
// against the object's project. A file without one, or that is not YAML,
// gives false: the definition must then be read.
func References(metadata []byte, definition, project string) ([]string, bool) {
	if !bytes.Contains(metadata, []byte("references:")) {
		return nil, false
	}
	var doc struct {
		References map[string][]string `yaml:"references"`
	}
	if yaml.Unmarshal(metadata, &doc) != nil {
		return nil, false
	}
	refs, ok := doc.References[definition]
	if !ok {
		return nil, false
	}
	out := make([]string, 0, len(refs))
	for _, r := range refs {
		// The generator keeps a time-travel clause with the name
		// ("t for system_time") and records federated reads
		// (external_query(...)), which are no tables.
		r, _, _ = strings.Cut(strings.ToLower(r), " ")
		if name, ok := Qualify(sqlname.Parse(r), project); ok && !strings.Contains(r, "(") {
			out = append(out, name)
		}
	}
	return out, true
}

// Qualify names a relation the way bqetl does: a name of three parts is
// complete, one of two (dataset.table) is in the project of the file that
// reads it; names are in lower case, as the tree's folders are. A bare
// name is a WITH query, a temporary table or a parameter of the script,
// and an INFORMATION_SCHEMA view describes the warehouse rather than
// holding data a backfill changes: neither is a table of the lineage, so
// ok is false.
func Qualify(r sqlname.Relation, project string) (string, bool) {
	if slices.ContainsFunc(r.Parts, func(p string) bool { return strings.EqualFold(p, "information_schema") }) {
		return "", false
	}
	switch len(r.Parts) {
	case 3:
		return strings.ToLower(strings.Join(r.Parts, ".")), true
	case 2:
		return project + "." + strings.ToLower(r.Parts[0]+"."+r.Parts[1]), true
	}
	return "", false
}
