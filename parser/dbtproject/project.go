// Package dbtproject reads a dbt project from its own files, the way dbt
// parses it but without dbt, a warehouse or a manifest: dbt_project.yml
// (resource paths and folder config), properties files (model config,
// sources, exposures, snapshots), the models, snapshots and seeds, and the
// project's macros. The result is a manifest like the one dbt writes, so
// lineage, the rules and every command read a fresh clone (where dbt's
// target/ is not committed) as they read a project dbt has parsed.
//
// What cannot be known without running dbt is left out and listed, never
// guessed: a ref() whose argument is not a literal, a node of a package
// that is not installed, a value Jinja renders.
package dbtproject

import (
	"cmp"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/bflint/bflint/internal/parallel"
	"github.com/bflint/bflint/parser/manifest"
	"github.com/bflint/bflint/parser/source"
	"github.com/bflint/bflint/parser/sqlparse/jinja"
	"go.yaml.in/yaml/v3"
)

// FileName is the file that makes a folder a dbt project.
const FileName = "dbt_project.yml"

// maxFile bounds what is read of one project file; a larger one is a
// problem of the project, listed.
const maxFile = source.MaxFileSize

// Project is a dbt project read from its files.
type Project struct {
	// Dir is the project folder, absolute.
	Dir  string
	Name string
	// Macros are the project's own macros (its macro-paths), by name.
	Macros map[string]jinja.Macro
	// Vars are the vars dbt_project.yml sets for the project, their
	// Jinja rendered where it can be (env_var() takes its default).
	Vars map[string]jinja.Value
	// Unresolved are the ref() and source() calls no node answers.
	Unresolved []Unresolved
	// Problems are project files that could not be read.
	Problems []Problem
	// Memo keeps what reading the project's models' incremental filters
	// learns of its macros, for the models read after.
	Memo jinja.Memo

	// nodes and graph are what Nodes and Graph read; root and paths what
	// reading them needs of dbt_project.yml.
	nodes, graph         *manifest.Manifest
	nodesOnce, graphOnce sync.Once
	root                 *yaml.Node
	paths                paths
	opts                 Options
	// listed are the files below each folder walked (walk).
	listed   map[string][]string
	listedMu sync.Mutex
}

// Unresolved is a ref() or source() of a project file that names no node
// of the project: its argument is not a literal, or it names a package's
// node or a source the project does not declare.
type Unresolved struct {
	File   string // absolute
	Offset int
	Call   string // the call as written
	Why    string
}

// Problem is a project file bflint could not read as dbt would.
type Problem struct {
	File string // absolute
	Line int    // 0 when the file as a whole
	Msg  string
}

// paths are a project's resource folders, absolute.
type paths struct {
	models, snapshots, seeds, macros []string
}

// Options say how a project is read.
type Options struct {
	// ReadSQL reads a model or snapshot file, absolute path, as a caller
	// that has read it already hands it over; nil reads it from disk.
	ReadSQL func(path string) ([]byte, error)
	// MacroFiles, when set, shares the macro files read among the
	// projects of a run: sibling projects often read one macro folder.
	MacroFiles *MacroFiles
	// Boundary is the folder, absolute, that the folders dbt_project.yml
	// names must stay in: a project may read a folder above its own (a
	// repository's shared macros), never one outside the repository,
	// which a hostile file could make the whole file system. "" is the
	// git work tree around the project, else the project's folder.
	Boundary string
}

// MacroFiles are macro files read, by path; safe for concurrent use.
type MacroFiles struct {
	mu    sync.Mutex
	files map[string]macroFile
}

type macroFile struct {
	macros map[string]jinja.Macro
	err    error
}

// read reads the macro file at path, once.
func (mf *MacroFiles) read(path string) macroFile {
	if mf != nil {
		mf.mu.Lock()
		f, ok := mf.files[path]
		mf.mu.Unlock()
		if ok {
			return f
		}
	}
	var f macroFile
	if b, err := source.ReadRegular(path, maxFile); err != nil {
		f.err = source.Cause(err)
	} else {
		f.macros = map[string]jinja.Macro{}
		jinja.ReadMacros(string(b), f.macros)
	}
	if mf != nil {
		mf.mu.Lock()
		if mf.files == nil {
			mf.files = map[string]macroFile{}
		}
		mf.files[path] = f
		mf.mu.Unlock()
	}
	return f
}

// Open reads what reading any model of the project needs: dbt_project.yml
// (its name, paths, vars) and the project's macros. The rest is read on
// the first call of Nodes or Graph. A dbt_project.yml that cannot be read
// gives dbt's default paths and a problem; nothing stops the reading.
func Open(dir string, opts Options) *Project {
	if opts.ReadSQL == nil {
		opts.ReadSQL = func(path string) ([]byte, error) { return source.ReadRegular(path, maxFile) }
	}
	if opts.Boundary == "" {
		opts.Boundary = WorkTree(dir)
	}
	p := &Project{Dir: dir, Macros: map[string]jinja.Macro{}, opts: opts}
	r := &reader{p: p}
	p.root = r.readProjectFile()
	p.paths = r.resourcePaths(p.root)
	r.readMacros(p.paths.macros)
	return p
}

// Nodes reads the project's models, snapshots, seeds, sources and
// exposures, each with its config resolved, once: what reading a model's
// SQL needs (the relation a ref() names, the model's config), without the
// edges Graph reads, at a fraction of the cost. It is safe for concurrent
// use.
func (p *Project) Nodes() *manifest.Manifest {
	p.nodesOnce.Do(func() { p.nodes = p.read(false) })
	return p.nodes
}

// Graph is Nodes with the edges between them: each node's parents from
// the ref() and source() calls of its template, read as dbt renders it.
// Unresolved is set once it returns. It is safe for concurrent use.
func (p *Project) Graph() *manifest.Manifest {
	p.graphOnce.Do(func() {
		p.graph = p.read(true)
		slices.SortFunc(p.Unresolved, func(a, b Unresolved) int {
			return cmp.Or(strings.Compare(a.File, b.File), a.Offset-b.Offset)
		})
	})
	return p.graph
}

// read reads the project's nodes, with their edges or without.
func (p *Project) read(edges bool) *manifest.Manifest {
	r := &reader{p: p, projectFile: filepath.Join(p.Dir, FileName), edges: edges}
	file := r.projectFile
	modelTree, snapshotTree, seedTree := readFolder(section(p.root, "models"), file), readFolder(section(p.root, "snapshots"), file), readFolder(section(p.root, "seeds"), file)
	props := r.readProperties(slices.Concat(p.paths.models, p.paths.snapshots, p.paths.seeds))
	files := r.readSQL(p.paths)
	r.nodes(files, props, modelTree, snapshotTree)
	r.seeds(p.paths.seeds, props, seedTree)
	r.sources(props, files)
	r.exposures(props)
	if edges {
		r.readRelations(files)
		r.link()
	}
	return r.assemble()
}

// assemble makes a manifest of the nodes read, which it then owns.
func (r *reader) assemble() *manifest.Manifest {
	nodes := make([]*manifest.Node, 0, len(r.nodesByID))
	for _, n := range r.nodesByID {
		nodes = append(nodes, n)
	}
	return manifest.Assemble(r.p.Name, "", nodes)
}

// reader holds what reading one project collects.
type reader struct {
	p           *Project
	projectFile string
	// edges is set when the reading is for the graph, with its edges.
	edges     bool
	nodesByID map[string]*manifest.Node
	// byName finds the models, snapshots and seeds ref() names.
	byName map[string]string
	// pending are the ref() and source() calls of each node, resolved once
	// every node is known.
	pending map[string][]call
}

// call is a ref() or source() of a node, with where it was written.
type call struct {
	jinja.RelationCall
	file string
}

func (r *reader) problem(file string, line int, format string, args ...any) {
	r.p.Problems = append(r.p.Problems, Problem{File: file, Line: line, Msg: fmt.Sprintf(format, args...)})
}

// readProjectFile parses dbt_project.yml; nil when it cannot be read.
func (r *reader) readProjectFile() *yaml.Node {
	r.projectFile = filepath.Join(r.p.Dir, FileName)
	root := r.readYAML(r.projectFile)
	if root != nil {
		if n := section(root, "name"); n != nil && n.Kind == yaml.ScalarNode {
			r.p.Name = n.Value
		}
	}
	if r.p.Name == "" {
		r.p.Name = filepath.Base(r.p.Dir)
	}
	r.p.Vars = readVars(section(root, "vars"), r.p.Name)
	return root
}

// readVars reads the vars of dbt_project.yml that apply to the project:
// the global ones and those scoped to it by name.
func readVars(n *yaml.Node, project string) map[string]jinja.Value {
	vars := map[string]jinja.Value{}
	set := func(m *yaml.Node) {
		for i := 0; m != nil && m.Kind == yaml.MappingNode && i+1 < len(m.Content); i += 2 {
			k, v := m.Content[i].Value, yamlValue(m.Content[i+1])
			if v.Kind == jinja.String {
				if text, ok := jinja.Text(v.Text, jinja.Env{}); ok {
					v.Text = text
				} else {
					v = jinja.Value{}
				}
			}
			if v.Kind != jinja.Dict || k != project {
				vars[k] = v
			}
		}
	}
	set(n)
	set(section(n, project))
	return vars
}

// readYAML parses a YAML file into its document's root mapping; nil, with
// a problem, when it cannot be read, and nil when it is empty.
func (r *reader) readYAML(path string) *yaml.Node {
	b, err := source.ReadRegular(path, maxFile)
	if err != nil {
		r.problem(path, 0, "cannot be read: %v", source.Cause(err))
		return nil
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		r.problem(path, 0, "is not valid YAML: %v", err)
		return nil
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil
	}
	return doc.Content[0]
}

// section returns the value of a key of a mapping, nil when absent.
func section(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			v := m.Content[i+1]
			if v.Kind == yaml.AliasNode {
				v = v.Alias
			}
			return v
		}
	}
	return nil
}

// resourcePaths reads the resource folders, with dbt's defaults and its
// older names for them (source-paths, data-paths).
func (r *reader) resourcePaths(root *yaml.Node) paths {
	list := func(defaults []string, keys ...string) []string {
		for _, k := range keys {
			if n := section(root, k); n != nil {
				var out []string
				for _, v := range yamlValue(n).Strings() {
					if strings.Contains(v, "{{") {
						continue
					}
					path := filepath.Clean(filepath.Join(r.p.Dir, filepath.FromSlash(v)))
					if !Within(r.p.opts.Boundary, path) {
						r.problem(r.projectFile, n.Line, "%s names %q, outside the repository: that folder is not read", k, v)
						continue
					}
					out = append(out, path)
				}
				return out
			}
		}
		out := make([]string, len(defaults))
		for i, d := range defaults {
			out[i] = filepath.Join(r.p.Dir, d)
		}
		return out
	}
	return paths{
		models:    list([]string{"models"}, "model-paths", "source-paths"),
		snapshots: list([]string{"snapshots"}, "snapshot-paths"),
		seeds:     list([]string{"seeds"}, "seed-paths", "data-paths"),
		macros:    list([]string{"macros"}, "macro-paths"),
	}
}

// WorkTree returns the git work tree around dir (the nearest folder above
// it holding .git), or dir itself outside one.
func WorkTree(dir string) string {
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			return dir
		}
	}
}

// Within reports whether path is folder or below it.
func Within(folder, path string) bool {
	rel, err := filepath.Rel(folder, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// walk calls visit for each regular file below dir whose name ends in one
// of exts, skipping dbt's installed packages and build output. A folder is
// walked once: the models, their properties and the seeds are read from
// the same folders, by Nodes and again by Graph.
func (p *Project) walk(dir string, exts []string, visit func(path string)) {
	for _, path := range p.files(dir) {
		lower := strings.ToLower(filepath.Base(path))
		for _, ext := range exts {
			if strings.HasSuffix(lower, ext) {
				visit(path)
				break
			}
		}
	}
}

// files lists the regular files below dir in the order a walk visits
// them, once per folder.
func (p *Project) files(dir string) []string {
	p.listedMu.Lock()
	defer p.listedMu.Unlock()
	if files, ok := p.listed[dir]; ok {
		return files
	}
	var files []string
	_ = filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if name := d.Name(); path != dir && (name == "dbt_packages" || name == "dbt_modules" || name == "target" || strings.HasPrefix(name, ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Type().IsRegular() {
			files = append(files, path)
		}
		return nil
	})
	if p.listed == nil {
		p.listed = map[string][]string{}
	}
	p.listed[dir] = files
	return files
}

// readMacros reads the macro files of dirs in parallel; their macros are
// added in the order the files are walked, as dbt's last definition of a
// name wins.
func (r *reader) readMacros(dirs []string) {
	var paths []string
	for _, dir := range dirs {
		r.p.walk(dir, []string{".sql", ".jinja"}, func(path string) { paths = append(paths, path) })
	}
	files := make([]macroFile, len(paths))
	parallel.For(len(paths), func(i int) { files[i] = r.p.opts.MacroFiles.read(paths[i]) })
	for i, f := range files {
		if f.err != nil {
			r.problem(paths[i], 0, "cannot be read: %v", f.err)
			continue
		}
		maps.Copy(r.p.Macros, f.macros)
	}
}

// MacroVars returns the vars the project macro name reads with var(), each
// once, in the order first read; nil when the project has no such macro.
func (p *Project) MacroVars(name string) []string {
	m, ok := p.Macros[name]
	if !ok {
		return nil
	}
	return jinja.VarNames([]byte(m.Body))
}
