// Package load finds what a run lints (plans, SQL files, the dbt manifests
// they belong to) and reads it into the units rules run on: each file read
// and parsed once, however many plans name it.
package load

import (
	"bytes"
	"fmt"
	"go/token"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/bflint/bflint/internal/parallel"
	"github.com/bflint/bflint/lineage"
	"github.com/bflint/bflint/parser/config"
	"github.com/bflint/bflint/parser/dbtproject"
	"github.com/bflint/bflint/parser/plan"
	"github.com/bflint/bflint/parser/rangesem"
	"github.com/bflint/bflint/parser/source"
	"github.com/bflint/bflint/parser/sqlparse"
	"github.com/bflint/bflint/parser/sqlparse/jinja"
	"github.com/bflint/bflint/rules"
)

// maxFileSize bounds what bflint reads of one file; a larger file is
// reported, never silently skipped.
const maxFileSize = source.MaxFileSize

// Options say where a run's files come from.
type Options struct {
	Root   string // the project root, absolute
	Config *config.Config
	// Manifest is the --manifest flag: the dbt manifest for files whose
	// plan names none.
	Manifest string
	// CacheDir is where decoded manifests are cached (manifest.LoadCached);
	// "" reads every manifest afresh.
	CacheDir string
	// Previous returns a changed file's content at the revision
	// --new-from-rev names (path absolute); false when the file is
	// unchanged or did not exist there; nil without that flag.
	// bigquery-etl entries are compared with it.
	Previous func(path string) ([]byte, bool)
	// History returns what version control holds of the bigquery-etl tree
	// at root (its sql folder) on earlier days; nil, or a nil History,
	// when nothing is known (the command reads it from git).
	History func(root string) lineage.History
	// PlanFormat is how plan files are read (see PlanFormat).
	PlanFormat PlanFormat
	// Streamed defers the parse of each standalone SQL file to Run, just
	// before its unit's rules, and drops it after them: a run over
	// thousands of files then holds a few parse trees at a time instead
	// of all of them. Such units go through Run once: after it they hold
	// neither their parse and text nor their dbt project.
	Streamed bool
}

// Units reads the discovered files into units. Plans are parsed and their
// file references resolved; a SQL file that a plan references belongs to
// that plan's unit and is not linted again on its own. Each SQL file is
// read and parsed once, however many plans name it.
func Units(fset *token.FileSet, d *Discovered, opts Options) []*rules.Unit {
	l := &loader{fset: fset, root: opts.Root, cfg: opts.Config, manifestFlag: opts.Manifest, cacheDir: opts.CacheDir,
		parsed: map[string]*rules.SQLFile{}, manifests: map[string]*rules.DBT{}, manifestDirs: map[string]string{},
		projects: map[string]*dbtproject.Project{}, projectDirs: map[string]string{}, projectManifests: map[string]string{}, projectGraphs: map[projectKey]*rules.DBT{},
		trees: map[string]*rules.DBT{}, vars: map[*source.File][]string{}, previous: opts.Previous, history: opts.History, format: opts.PlanFormat,
		workers: make(chan struct{}, runtime.GOMAXPROCS(0))}
	l.contents = readAll(d.SQL)
	go sqlparse.Prepare()
	// SQL files parse in the background while the walk goes on; what
	// reads a parse (directives, the plan's copies) waits for them all.
	var afterParse []func()
	var defining []definingFile
	root := opts.Root
	var units []*rules.Unit
	referenced := map[string]bool{}
	for _, lp := range l.plans(d) {
		u, p := lp.unit, lp.unit.Plan
		units = append(units, u)
		if u.ReadError != nil || u.Context {
			continue
		}
		// A bigquery-etl entry comes with its tree's lineage.
		m := u.DBT
		if m == nil {
			mpath, named := l.manifestIn(lp.dir), false
			for _, ref := range p.Paths {
				if ref.Key == "downstream.manifest" {
					mpath, named = ref.Abs, true // "" when the plan's own reference is broken (BF003)
				}
			}
			switch {
			case mpath != "":
				m = l.manifest(mpath)
			case !named:
				m = l.projectDBT(lp.dir, true)
			}
			if m == nil && !named && p.Target.Set {
				m = l.treeFor(lp.dir, p.Target.V)
			}
			u.DBT = m
			u.TargetRange = l.targetRange(p, m)
		}
		byPath := map[string]*rules.SQLFile{}
		for _, ref := range p.Paths {
			if ref.Err != nil || ref.Key == "downstream.manifest" {
				continue
			}
			referenced[ref.Abs] = true
			sf := byPath[ref.Abs]
			if sf == nil {
				shared, err := l.sql(ref.Abs, m)
				if err != nil {
					ref.Err = fmt.Errorf("cannot be read: %v", err)
					continue
				}
				// The keys are the plan's own; the parse is shared.
				sf = &rules.SQLFile{Source: shared.Source, Model: shared.Model}
				byPath[ref.Abs] = sf
				u.SQL = append(u.SQL, sf)
				afterParse = append(afterParse, func() {
					sf.Parsed = shared.Parsed
					u.Directives = append(u.Directives, rules.SQLDirectives(sf)...)
				})
			}
			sf.Keys = append(sf.Keys, ref.Key)
		}
	}
	l.startProjects(d.SQL, referenced)
	for _, path := range d.SQL {
		if referenced[path] {
			continue
		}
		var m *rules.DBT
		if mpath := l.manifestIn(filepath.Dir(path)); mpath != "" {
			m = l.manifest(mpath)
		} else {
			m = l.projectDBT(filepath.Dir(path), false)
		}
		if opts.Streamed {
			sf, parse, defines, err := l.read(path, m, true)
			if err != nil {
				f := source.Add(fset, displayName(root, path), nil)
				units = append(units, &rules.Unit{File: f, ReadError: unreadable(path, err)})
				continue
			}
			if defines {
				defining = append(defining, definingFile{sf, parse})
			}
			u := &rules.Unit{File: sf.Source, SQL: []*rules.SQLFile{sf}, DBT: m}
			u.Parse = func() {
				if sf.Parsed == nil { // a file read for definitions is parsed already
					if err := restore(sf.Source, path); err != nil {
						u.ReadError = err
						return
					}
					sf.Parsed = parse()
				}
				u.Directives = rules.SQLDirectives(sf)
			}
			units = append(units, u)
			continue
		}
		sf, err := l.sql(path, m)
		if err != nil {
			f := source.Add(fset, displayName(root, path), nil)
			units = append(units, &rules.Unit{File: f, ReadError: unreadable(path, err)})
			continue
		}
		u := &rules.Unit{File: sf.Source, SQL: []*rules.SQLFile{sf}, DBT: m}
		units = append(units, u)
		afterParse = append(afterParse, func() { u.Directives = rules.SQLDirectives(sf) })
	}
	l.parsing.Wait()
	for _, f := range afterParse {
		f()
	}
	defs := definitions(units, defining, l.vars)
	for _, u := range units {
		u.Definitions = defs
	}
	// A manifest's lineage opens project files through the loader
	// (DBT.Open), and a plan keeps its lineage to the end of the run: the
	// loader's caches would keep every project, lineage and manifest with
	// it, where one read for standalone files only can go once its last
	// file is linted (rules.Run). bigquery-etl trees are read for plans,
	// which keep them anyway.
	clear(l.projects)
	clear(l.projectGraphs)
	clear(l.manifests)
	l.contentsMu.Lock()
	l.contents = nil
	l.contentsMu.Unlock()
	return units
}

type loadedPlan struct {
	unit *rules.Unit
	dir  string // the plan's folder, absolute
}

// plans reads the discovered plans, then the context plans: one that
// references a SQL file of the run is linted with it, as if it had been
// given; the others only join the plan set. Linted plans come first, in
// path order.
func (l *loader) plans(d *Discovered) []loadedPlan {
	var linted, context []loadedPlan
	for _, path := range d.Plans {
		linted = append(linted, l.readPlans(path)...)
	}
	lintedSQL := make(map[string]bool, len(d.SQL))
	for _, path := range d.SQL {
		lintedSQL[path] = true
	}
	for _, path := range d.Context {
		for _, lp := range l.readPlans(path) {
			if lp.unit.ReadError == nil && slices.ContainsFunc(lp.unit.Plan.Paths, func(ref *plan.PathRef) bool {
				return ref.Err == nil && lintedSQL[ref.Abs]
			}) {
				linted = append(linted, lp)
				continue
			}
			lp.unit.Context = true
			context = append(context, lp)
		}
	}
	slices.SortStableFunc(linted, func(a, b loadedPlan) int { return strings.Compare(a.unit.File.Name, b.unit.File.Name) })
	return append(linted, context...)
}

// readPlans reads the plans of one file: a bflint plan, or the entries of
// a bqetl backfill.yaml, one plan each.
func (l *loader) readPlans(path string) []loadedPlan {
	if isBqetlPlan(path, l.format) {
		return l.readBqetl(path)
	}
	return []loadedPlan{l.readPlan(path)}
}

// readPlan reads and parses one plan and resolves the files it names.
func (l *loader) readPlan(path string) loadedPlan {
	content, err := readFile(path)
	f := source.Add(l.fset, displayName(l.root, path), content)
	u := &rules.Unit{File: f, Plan: &plan.Plan{File: f}, ReadError: err}
	if err == nil {
		u.Plan = plan.Parse(f)
		u.Plan.ResolvePaths(filepath.Dir(path), l.root)
		u.Directives = rules.YAMLDirectives(f)
	}
	return loadedPlan{unit: u, dir: filepath.Dir(path)}
}

type loader struct {
	fset         *token.FileSet
	root         string
	cfg          *config.Config
	manifestFlag string
	cacheDir     string
	parsed       map[string]*rules.SQLFile
	manifests    map[string]*rules.DBT
	parsing      sync.WaitGroup
	workers      chan struct{} // one token per parse running at once
	manifestDirs map[string]string
	// contents are the discovered SQL files, read ahead in parallel. A
	// file's entry goes once its source is made: from then on the source
	// holds the text, and drops it once nothing will show it, which an
	// entry left here would prevent. A dbt project's reading asks for
	// files from its own goroutines, hence the lock.
	contents   map[string]readResult
	contentsMu sync.Mutex
	// vars are the dbt vars each SQL file read reads, by file.
	vars map[*source.File][]string
	// projects are the dbt projects of the run by folder, projectDirs the
	// project folder of each folder asked about ("" outside one), and
	// projectGraphs the lineages read from projects' own files.
	projects    map[string]*dbtproject.Project
	macroFiles  dbtproject.MacroFiles
	projectDirs map[string]string
	// projectManifests are the manifests found in each project folder,
	// "" for none.
	projectManifests map[string]string
	projectGraphs    map[projectKey]*rules.DBT
	// trees are the lineages of bigquery-etl trees, by sql/ folder.
	trees map[string]*rules.DBT
	// opened are the project files rules asked to read (DBT.Open).
	opened   map[string]openedFile
	openedMu sync.Mutex
	// checkMacros are the data-check macros of bigquery-etl trees, by sql/
	// folder, read when a checks.sql first asks.
	checkMacros   map[string]map[string]jinja.Macro
	checkMacrosMu sync.Mutex
	history       func(root string) lineage.History
	previous      func(path string) ([]byte, bool)
	format        PlanFormat
}

// manifestIn is manifestFor, asked once per folder: a project's SQL
// files share a few folders, and the search stats every folder above.
func (l *loader) manifestIn(dir string) string {
	path, ok := l.manifestDirs[dir]
	if !ok {
		path = l.manifestFor(dir)
		l.manifestDirs[dir] = path
	}
	return path
}

type readResult struct {
	content []byte
	err     error
}

// readAll reads the files at paths in parallel: the loop that registers
// them in the file set is serial.
func readAll(paths []string) map[string]readResult {
	results := make([]readResult, len(paths))
	parallel.For(len(paths), func(i int) {
		r := &results[i]
		r.content, r.err = readFile(paths[i])
	})
	out := make(map[string]readResult, len(paths))
	for i, p := range paths {
		out[p] = results[i]
	}
	return out
}

// sql reads a SQL file and starts its parse, once per run and manifest:
// ref() reads differently under a different manifest. The returned file's
// Parsed is set once l.parsing is done.
func (l *loader) sql(path string, m *rules.DBT) (*rules.SQLFile, error) {
	key := path
	if m != nil {
		key += "\x00" + m.Path
	}
	if sf, ok := l.parsed[key]; ok {
		return sf, nil
	}
	sf, parse, _, err := l.read(path, m, false)
	if err != nil {
		return nil, err
	}
	l.parsed[key] = sf
	l.parsing.Add(1)
	go func() {
		defer l.parsing.Done()
		l.workers <- struct{}{}
		defer func() { <-l.workers }()
		sf.Parsed = parse()
	}()
	return sf, nil
}

// read reads a SQL file into the file set and returns the parse to run,
// and whether the file may define versions (mayDefineVersions). A file read
// for later, unless it may define versions, which the load parses, does not
// keep its content: its parse restores it (restore) first.
func (l *loader) read(path string, m *rules.DBT, later bool) (*rules.SQLFile, func() *sqlparse.File, bool, error) {
	l.contentsMu.Lock()
	r, ok := l.contents[path]
	delete(l.contents, path)
	l.contentsMu.Unlock()
	if !ok {
		r.content, r.err = readFile(path)
	}
	content, err := r.content, r.err
	if err != nil {
		return nil, nil, false, err
	}
	defines := mayDefineVersions(content)
	var f *source.File
	if later && !defines {
		f = source.AddReleased(l.fset, displayName(l.root, path), content)
	} else {
		f = source.Add(l.fset, displayName(l.root, path), content)
	}
	if bytes.Contains(content, []byte("var(")) {
		// A dbt model's vars are read from its text, which needs no
		// parse: BF106 compares a command's --vars with the range.
		l.vars[f] = jinja.VarNames(content)
	}
	opts := sqlparse.Options{
		ModelName:    strings.TrimSuffix(filepath.Base(path), filepath.Ext(path)),
		PostgresOnly: l.cfg != nil && l.cfg.Dialect.Set && l.cfg.Dialect.V == "postgres",
		Resolve:      resolver(m),
	}
	sf := &rules.SQLFile{Source: f, Bqetl: l.bqetlQuery(path)}
	var memo *jinja.Memo
	if p := l.projectFor(filepath.Dir(path)); p != nil {
		sf.Project = p
		opts.Macros, opts.Vars, memo = p.Macros, p.Vars, &p.Memo
		if n := m.ModelAt(path); n != nil {
			sf.Model = n
			opts.AppendsUnlessFiltered = n.Config.AppendsUnlessFiltered()
			opts.Materialized = n.Config.Materialized
		}
	} else if checks := l.bqetlChecks(path); checks != nil {
		opts.Macros = checks
	}
	return sf, func() *sqlparse.File {
		if sf.Model != nil {
			// How a run of the model chooses its partitions, read while
			// the file is read.
			r := rangesem.Model(f.Text(), jinja.Options{Macros: opts.Macros, Vars: opts.Vars, Memo: memo}, sf.Model.Config)
			sf.Range = &r
		}
		parsed := sqlparse.Parse(f.Text(), opts)
		if q := sf.Bqetl; q != nil {
			r := rangesem.Query(parsed, q.DateParameter)
			sf.Range = &r
		}
		return parsed
	}, defines, nil
}

// restore gives f, registered by read for later, its content again.
func restore(f *source.File, path string) error {
	if f.Content != nil {
		return nil
	}
	content, err := readFile(path)
	if err != nil {
		return err
	}
	return f.Restore(content)
}

// unreadable is the read error of a listed path: a folder the walk could
// not enter is listed too, and says so.
func unreadable(path string, err error) error {
	if info, statErr := os.Lstat(path); statErr == nil && info.IsDir() {
		return &source.UnlistedFolder{Err: err}
	}
	return err
}

func readFile(path string) ([]byte, error) {
	content, err := source.ReadRegular(path, maxFileSize)
	if err != nil {
		return nil, source.Cause(err)
	}
	if text, ok := source.FromUTF16(content); ok {
		return text, nil
	}
	return bytes.TrimPrefix(content, []byte("\xef\xbb\xbf")), nil
}

func displayName(root, path string) string {
	rel, err := filepath.Rel(root, path)
	if err != nil || strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(path)
	}
	return filepath.ToSlash(rel)
}
