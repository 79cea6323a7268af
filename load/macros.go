package load

import (
	"path/filepath"

	"github.com/bflint/bflint/lineage"
	"github.com/bflint/bflint/parser/dbtproject"
	"github.com/bflint/bflint/parser/manifest"
	"github.com/bflint/bflint/parser/plan"
	"github.com/bflint/bflint/parser/rangesem"
	"github.com/bflint/bflint/parser/source"
	"github.com/bflint/bflint/parser/sqlparse/jinja"
	"github.com/bflint/bflint/rules"
)

// projectFor returns the dbt project that holds dir, opened once per run
// (its dbt_project.yml, vars and macros); nil outside a dbt project.
func (l *loader) projectFor(dir string) *dbtproject.Project {
	project := l.projectDirOf(dir)
	if project == "" {
		return nil
	}
	p, ok := l.projects[project]
	if !ok {
		p = dbtproject.Open(project, dbtproject.Options{ReadSQL: l.readSQL, MacroFiles: &l.macroFiles, Boundary: l.boundary(project)})
		l.projects[project] = p
	}
	return p
}

// readSQL reads a SQL file of a dbt project, from what the run has read
// ahead when it holds the file.
func (l *loader) readSQL(path string) ([]byte, error) {
	l.contentsMu.Lock()
	r, ok := l.contents[path]
	l.contentsMu.Unlock()
	if ok {
		return r.content, r.err
	}
	return source.ReadRegular(path, source.MaxFileSize)
}

// startProjects starts reading the nodes of every dbt project that holds
// one of paths and has no manifest, all at once: the files of each then
// wait only for their own project, and the serial parts of reading one
// (walking its folders, assembling its nodes) overlap with the others'.
func (l *loader) startProjects(paths []string, skip map[string]bool) {
	started := map[*dbtproject.Project]bool{}
	for _, path := range paths {
		dir := filepath.Dir(path)
		if skip[path] || l.manifestIn(dir) != "" {
			continue
		}
		if p := l.projectFor(dir); p != nil && !started[p] {
			started[p] = true
			go p.Nodes()
		}
	}
}

// projectDBT is the dbt project that holds dir as its own files describe
// it, the lineage of a project with no manifest (dbt's target/ is not
// committed, so a fresh clone, a hook or a CI job has none); nil outside a
// dbt project. With edges it is the whole graph, which plans need;
// without, the nodes and their config, all a model's own SQL needs, read
// at a fraction of the cost. Each is read once per project.
func (l *loader) projectDBT(dir string, edges bool) *rules.DBT {
	p := l.projectFor(dir)
	if p == nil {
		return nil
	}
	key := projectKey{p.Dir, edges}
	if d, ok := l.projectGraphs[key]; ok {
		return d
	}
	m := p.Nodes()
	if edges {
		m = p.Graph()
	}
	d := &rules.DBT{Path: displayName(l.root, filepath.Join(p.Dir, dbtproject.FileName)), Manifest: m, Graph: lineage.New(m), Project: p, ProjectDir: p.Dir}
	l.projectGraphs[key] = d
	return d
}

// targetRange reads how a run of the dbt model a plan targets chooses its
// partitions, from the model's file; nil when the target is no model of
// a dbt project whose files are here.
func (l *loader) targetRange(p *plan.Plan, d *rules.DBT) *rules.TargetRange {
	if d == nil || d.Graph == nil || d.ProjectDir == "" || !p.Target.Set {
		return nil
	}
	id, err := d.Graph.Resolve(p.Target.V)
	if err != nil {
		return nil
	}
	n := d.Manifest.Node(id)
	if n == nil || n.ResourceType != manifest.Model || n.OriginalFilePath == "" {
		return nil
	}
	path := filepath.Join(d.ProjectDir, filepath.FromSlash(n.OriginalFilePath))
	content, err := readFile(path)
	if err != nil {
		return nil
	}
	var opts jinja.Options
	if proj := l.projectFor(filepath.Dir(path)); proj != nil {
		opts.Macros, opts.Vars, opts.Memo = proj.Macros, proj.Vars, &proj.Memo
	}
	sem := rangesem.Model(string(content), opts, n.Config)
	f := source.Add(l.fset, displayName(l.root, path), content)
	return &rules.TargetRange{Node: n, File: f, Pos: f.Pos(max(sem.At, 0)), Semantics: sem}
}

// projectKey names a project's lineage with or without its edges.
type projectKey struct {
	dir   string
	edges bool
}

// NamingVars returns the vars the dbt project's own generate_alias_name
// macro reads: dbt names every relation through that macro, so a var it
// reads, set on the command line, renames the tables a run writes.
func NamingVars(project string) []string {
	return dbtproject.Open(project, dbtproject.Options{}).MacroVars("generate_alias_name")
}

// boundary is the folder a project's dbt_project.yml may name folders in:
// the git work tree around it, else the root of the run, which holds it.
func (l *loader) boundary(project string) string {
	tree := dbtproject.WorkTree(project)
	if tree != project {
		return tree
	}
	if root, err := filepath.Abs(l.root); err == nil && dbtproject.Within(root, project) {
		return root
	}
	return project
}
