package dbtproject

import (
	"cmp"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"unsafe"

	"github.com/bflint/bflint/internal/parallel"
	"github.com/bflint/bflint/parser/manifest"
	"github.com/bflint/bflint/parser/source"
	"github.com/bflint/bflint/parser/sqlname"
	"github.com/bflint/bflint/parser/sqlparse/jinja"
)

// sqlFile is what a model or snapshot file says, read once.
type sqlFile struct {
	path string
	// folders are the file's folders below its resource path, which
	// dbt_project.yml configures; name is the file's name without .sql.
	folders []string
	name    string
	kind    string // manifest.Model or manifest.Snapshot
	python  bool
	configs []jinja.ConfigKey
	refs    []jinja.RelationCall
	// snapshots are the {% snapshot %} blocks of a snapshot file.
	snapshots []snapshotBlock
	// placed are the nodes the file defines, each with the part of the
	// file that is its template.
	placed []placed
	// sources are the source() calls written in the file.
	sources []jinja.RelationCall
	err     error
}

// placed is a node defined by a file, from start to end (-1: the end).
type placed struct {
	id         string
	start, end int
}

type snapshotBlock struct {
	name string
	// start and end delimit the block, body its text between the tags.
	start, end, body int
}

// readSQL reads the model and snapshot files of the resource folders, in
// parallel, keeping what configures each rather than its text.
func (r *reader) readSQL(ps paths) []*sqlFile {
	var files []*sqlFile
	add := func(roots []string, kind string, exts []string) {
		for _, root := range roots {
			r.p.walk(root, exts, func(path string) {
				rel, _ := filepath.Rel(root, path)
				parts := strings.Split(filepath.ToSlash(rel), "/")
				ext := filepath.Ext(path)
				files = append(files, &sqlFile{path: path, folders: parts[:len(parts)-1], name: strings.TrimSuffix(parts[len(parts)-1], ext),
					kind: kind, python: strings.EqualFold(ext, ".py")})
			})
		}
	}
	add(ps.models, manifest.Model, []string{".sql", ".py"})
	add(ps.snapshots, manifest.Snapshot, []string{".sql"})
	parallel.For(len(files), func(i int) { files[i].scan(r.p.opts.ReadSQL, r.p.Macros, r.p.Vars) })
	return files
}

// readRelations reads the ref() and source() calls of every node the
// files define, in parallel, and queues them for link.
func (r *reader) readRelations(files []*sqlFile) {
	opts := jinja.Options{Macros: r.p.Macros, Vars: r.p.Vars}
	parallel.For(len(files), func(i int) {
		if f := files[i]; len(f.placed) > 0 {
			f.readRelations(opts, r.p.opts.ReadSQL)
		}
	})
	for _, f := range files {
		for _, pl := range f.placed {
			for _, rc := range f.refs {
				if rc.Offset >= pl.start && (pl.end < 0 || rc.Offset < pl.end) {
					r.pending[pl.id] = append(r.pending[pl.id], call{rc, f.path})
				}
			}
		}
	}
}

// env is what names mean when the project's files are read: the vars
// dbt_project.yml sets.
func (r *reader) env() jinja.Env { return jinja.Env{Vars: r.p.Vars} }

var (
	snapshotTag = regexp.MustCompile(`^snapshot\s+([A-Za-z_][A-Za-z0-9_]*)\s*$`)
	// pythonRef and pythonConfig read a Python model's dbt.ref("x"),
	// dbt.source("s", "t") and dbt.config(...), which Jinja does not write.
	pythonRelation = regexp.MustCompile(`\bdbt\.(ref|source)\(\s*(['"][^'"]+['"])\s*(?:,\s*(['"][^'"]+['"])\s*)?\)`)
	pythonConfig   = regexp.MustCompile(`\bdbt\.config\(`)
)

// scan reads what configures the nodes a file defines: its config()
// calls and, in a snapshot file, its snapshot blocks.
func (f *sqlFile) scan(read func(string) ([]byte, error), macros map[string]jinja.Macro, vars map[string]jinja.Value) {
	b, err := read(f.path)
	if err != nil {
		f.err = source.Cause(err)
		return
	}
	// The bytes are the run's copy of the file, never written to, and
	// what the scan keeps is detached from them: no second copy is made.
	f.scanText(unsafe.String(unsafe.SliceData(b), len(b)), macros, vars)
}

// scanText is scan of the file's text.
func (f *sqlFile) scanText(src string, macros map[string]jinja.Macro, vars map[string]jinja.Value) {
	if f.python {
		if loc := pythonConfig.FindStringIndex(src); loc != nil {
			// dbt.config(...) takes keyword arguments as config() does.
			end := strings.IndexByte(src[loc[0]:], ')')
			if end > 0 {
				call := "{{ config(" + src[loc[1]:loc[0]+end] + ") }}"
				for _, k := range jinja.ConfigKeys(call, jinja.Regions(call)) {
					k.Call, k.At = loc[0], loc[0]
					f.configs = append(f.configs, k)
				}
			}
		}
		return
	}
	if !strings.Contains(src, "{") {
		return
	}
	regions := jinja.Regions(src)
	// A macro the model calls may configure it; the model's own config()
	// comes after, and wins.
	// What is kept outlives the scan: a project holds every model's
	// config for the run, and a substring would hold its whole file.
	f.configs = detachedKeys(append(jinja.MacroConfigKeys(src, regions, macros, vars), jinja.ConfigKeys(src, regions)...))
	f.sources = detachedCalls(sourceCalls(src, regions))
	if f.kind != manifest.Snapshot {
		return
	}
	var open *snapshotBlock
	for _, rg := range regions {
		if !rg.Tag {
			continue
		}
		if m := snapshotTag.FindStringSubmatch(rg.Inner); m != nil {
			open = &snapshotBlock{name: m[1], start: rg.Start, body: rg.End}
		} else if rg.Inner == "endsnapshot" && open != nil {
			open.end = rg.End
			f.snapshots = append(f.snapshots, *open)
			open = nil
		}
	}
}

// detachedKeys copies the text of keys out of the file they were read
// from.
func detachedKeys(keys []jinja.ConfigKey) []jinja.ConfigKey {
	for i := range keys {
		keys[i].Key = strings.Clone(keys[i].Key)
		keys[i].Value = detachedValue(keys[i].Value)
	}
	return keys
}

func detachedValue(v jinja.Value) jinja.Value {
	v.Text = strings.Clone(v.Text)
	if v.Items != nil {
		items := make([]jinja.Value, len(v.Items))
		for i, it := range v.Items {
			items[i] = detachedValue(it)
		}
		v.Items = items
	}
	if v.Keys != nil {
		keys := make([]string, len(v.Keys))
		for i, k := range v.Keys {
			keys[i] = strings.Clone(k)
		}
		v.Keys = keys
	}
	return v
}

// detachedCalls copies the text of calls out of the file they were read
// from.
func detachedCalls(calls []jinja.RelationCall) []jinja.RelationCall {
	for i := range calls {
		c := &calls[i]
		c.Kind, c.Text = strings.Clone(c.Kind), strings.Clone(c.Text)
		for _, args := range [][]string{c.Args, c.Partial} {
			for j := range args {
				args[j] = strings.Clone(args[j])
			}
		}
	}
	return calls
}

// sourceCalls are the source() calls written in a template, their
// arguments evaluated where they are literals.
func sourceCalls(src string, regions []jinja.Region) []jinja.RelationCall {
	if !strings.Contains(src, "source") {
		return nil
	}
	var out []jinja.RelationCall
	for _, rc := range jinja.RelationCalls(src, regions, jinja.Env{}) {
		if rc.Kind == "source" {
			out = append(out, rc)
		}
	}
	return out
}

// readRelations reads the file's ref() and source() calls, as dbt
// renders the template of each node it defines.
func (f *sqlFile) readRelations(opts jinja.Options, read func(string) ([]byte, error)) {
	b, err := read(f.path)
	if err != nil {
		return // reported when the file was scanned
	}
	src := string(b)
	switch {
	case f.python:
		for _, m := range pythonRelation.FindAllStringSubmatchIndex(src, -1) {
			rc := jinja.RelationCall{Kind: src[m[2]:m[3]], Known: true, Offset: m[0], Text: src[m[0]:m[1]]}
			for _, g := range [][2]int{{m[4], m[5]}, {m[6], m[7]}} {
				if g[0] >= 0 {
					rc.Args = append(rc.Args, src[g[0]+1:g[1]-1])
				}
			}
			f.refs = append(f.refs, rc)
		}
	case f.kind == manifest.Snapshot:
		// A snapshot's block is the template dbt renders for it.
		for _, s := range f.snapshots {
			body := src[s.body:max(s.body, strings.LastIndex(src[:s.end], "{%"))]
			for _, rc := range jinja.TemplateRelations(body, opts) {
				rc.Offset += s.body
				f.refs = append(f.refs, rc)
			}
		}
	case strings.Contains(src, "{"):
		f.refs = relations(src, jinja.Regions(src), opts)
	}
	f.refs = detachedCalls(f.refs)
}

// relations are the ref() and source() calls of a model. Most models call
// them with literals and nothing else: their calls are read as written;
// a model with block tags, a project macro or a call whose arguments are
// not literals is rendered to find them.
func relations(src string, regions []jinja.Region, opts jinja.Options) []jinja.RelationCall {
	if !strings.Contains(src, "{%") {
		isProjectMacro := func(name string) bool { _, project := opts.Macros[name]; return project }
		literal := len(jinja.CallsOf(src, regions, isProjectMacro)) == 0
		if literal {
			calls := jinja.RelationCalls(src, regions, jinja.Env{Vars: opts.Vars})
			for _, rc := range calls {
				literal = literal && rc.Known
			}
			if literal {
				return calls
			}
		}
	}
	return jinja.TemplateRelations(src, opts)
}

// nodes makes a node of each model and snapshot, its config resolved as
// dbt resolves it: dbt_project.yml's folders from the top down, then the
// properties files, then config() in the file, each key of a later source
// winning. A node whose config says enabled: false does not exist.
func (r *reader) nodes(files []*sqlFile, props *properties, models, snapshots *folder) {
	r.nodesByID = map[string]*manifest.Node{}
	r.byName = map[string]string{}
	r.pending = map[string][]call{}
	for _, f := range files {
		if f.err != nil {
			r.problem(f.path, 0, "cannot be read: %v", f.err)
			continue
		}
		if f.kind == manifest.Snapshot {
			for _, s := range f.snapshots {
				r.addNode(f, manifest.Snapshot, s.name, snapshots, props, s.start, s.end)
			}
			continue
		}
		r.addNode(f, manifest.Model, f.name, models, props, 0, -1)
	}
	for _, s := range props.snapshots {
		// A snapshot defined in YAML (dbt 1.9) reads the relation it names.
		c := config{}
		snapshots.resolve(c, r.p.Name, nil, s.name)
		c.merge(props.config[s.name])
		if !c.enabled() {
			continue
		}
		n := r.node(manifest.Snapshot, s.name, c, s.file)
		if n == nil {
			continue
		}
		regions := jinja.Regions("{{ " + s.relation + " }}")
		for _, rc := range jinja.RelationCalls("{{ "+s.relation+" }}", regions, r.env()) {
			rc.Offset = 0
			r.pending[n.UniqueID] = append(r.pending[n.UniqueID], call{rc, s.file})
		}
	}
}

// addNode adds the node a file (or a snapshot block of it, from start to
// end; end -1 for the whole file) defines.
func (r *reader) addNode(f *sqlFile, kind, name string, tree *folder, props *properties, start, end int) {
	within := func(offset int) bool { return offset >= start && (end < 0 || offset < end) }
	c := config{}
	tree.resolve(c, r.p.Name, f.folders, name)
	c.merge(props.config[name])
	for _, k := range f.configs {
		if within(k.Call) {
			c[k.Key] = setting{k.Value, f.path, 0}
		}
	}
	if !c.enabled() {
		return
	}
	n := r.node(kind, name, c, f.path)
	if n == nil {
		return
	}
	f.placed = append(f.placed, placed{n.UniqueID, start, end})
}

// node adds a node of the project by name; nil when a node of the same
// name was added before (dbt refuses such a project; the first is kept).
func (r *reader) node(kind, name string, c config, file string) *manifest.Node {
	id := kind + "." + r.p.Name + "." + name
	if r.nodesByID[id] != nil || r.byName[name] != "" {
		return nil
	}
	n := &manifest.Node{UniqueID: id, ResourceType: kind, Name: name, PackageName: r.p.Name, Config: c.manifestConfig()}
	n.Alias = cmp.Or(c.text("alias"), name)
	n.Database, n.Schema = c.text("database"), c.text("schema")
	if kind == manifest.Snapshot {
		// A snapshot's target schema is used as written.
		n.Database, n.Schema = cmp.Or(c.text("target_database"), n.Database), cmp.Or(c.text("target_schema"), n.Schema)
	}
	if n.Config.Materialized == "" && kind == manifest.Snapshot {
		n.Config.Materialized = "snapshot"
	}
	if rel, err := filepath.Rel(r.p.Dir, file); err == nil {
		n.OriginalFilePath = filepath.ToSlash(rel)
	}
	n.Relation = relationName(n)
	r.nodesByID[id] = n
	r.byName[name] = id
	return n
}

// relationName is the relation a node builds, as its config names it: a
// custom schema is taken as the schema (the projects bflint was measured
// on name schemas so in production), and what the profile decides (the
// target's database and schema) is left out. Ephemeral models build none.
func relationName(n *manifest.Node) string {
	if n.Config.Materialized == "ephemeral" {
		return ""
	}
	var parts []string
	for _, p := range []string{n.Database, n.Schema, n.Alias} {
		if p != "" {
			parts = append(parts, p)
		}
	}
	return sqlname.Relation{Parts: parts}.Name()
}

// link resolves every node's ref() and source() calls into edges; a call
// no node answers is listed as unresolved.
func (r *reader) link() {
	sources := map[string]string{}
	for id, n := range r.nodesByID {
		if n.ResourceType == manifest.Source {
			parts := strings.SplitN(id, ".", 4)
			sources[parts[2]+"."+parts[3]] = id
		}
	}
	ids := make([]string, 0, len(r.pending))
	for id := range r.pending {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		n := r.nodesByID[id]
		for _, c := range r.pending[id] {
			parent, why := r.answer(c.RelationCall, sources)
			if parent == "" {
				r.p.Unresolved = append(r.p.Unresolved, Unresolved{File: c.file, Offset: c.Offset, Call: c.Text, Why: why})
				continue
			}
			if parent != id {
				n.DependsOn.Nodes = append(n.DependsOn.Nodes, parent)
			}
		}
	}
}

// answer is the node a ref() or source() names, or why there is none.
func (r *reader) answer(c jinja.RelationCall, sources map[string]string) (string, string) {
	if !c.Known {
		return "", "its arguments are not literals bflint can read"
	}
	if c.Kind == "source" {
		if id := sources[c.Args[0]+"."+c.Args[1]]; id != "" {
			return id, ""
		}
		return "", "no properties file of the project declares this source"
	}
	name := c.Args[len(c.Args)-1]
	if len(c.Args) == 2 && c.Args[0] != r.p.Name {
		return "", "it names a node of package " + c.Args[0] + ", which is not read"
	}
	if id := r.byName[name]; id != "" {
		return id, ""
	}
	return "", "no model, seed or snapshot of the project has this name"
}
