package rules

import (
	"go/token"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sync"

	"github.com/bflint/bflint/lineage"
	"github.com/bflint/bflint/parser/bqetl"
	"github.com/bflint/bflint/parser/dbtproject"
	"github.com/bflint/bflint/parser/manifest"
	"github.com/bflint/bflint/parser/plan"
	"github.com/bflint/bflint/parser/rangesem"
	"github.com/bflint/bflint/parser/source"
	"github.com/bflint/bflint/parser/sqlname"
	"github.com/bflint/bflint/parser/sqlparse"
)

// Unit is what rules run on: one plan with the files it references, or one
// standalone SQL file. Units are independent, so they run in parallel.
type Unit struct {
	File *source.File
	Plan *plan.Plan // nil for a standalone SQL file
	// SQL are the unit's SQL files, parsed once for every rule: those a
	// plan references, or the standalone file itself.
	SQL []*SQLFile
	// ReadError is set when the file could not be read; the unit then only
	// carries that finding.
	ReadError error
	// Directives are the bflint:ignore comments of the unit's files.
	Directives []*Directive
	// Context marks a plan read only for the run's plan set (see
	// load.Discovered.Context): no rule runs on it and nothing is reported.
	Context bool
	// Definitions are what the run's SQL files say about the relations
	// they build; the same for every unit of a run, nil when none was read.
	Definitions *Definitions

	// DBT is the dbt project the unit belongs to, nil outside one.
	DBT *DBT
	// TargetRange is how a run of the dbt model the plan targets chooses
	// its partitions; nil when the target is no model whose file is here.
	TargetRange *TargetRange
	// Parse, set on a streamed unit, parses its SQL file; Run calls it
	// just before the unit's rules, and after them lets go of it, of the
	// parse and of the unit's dbt project (DBT, SQLFile.Project).
	Parse func()

	facts map[any]any
}

// DBT is a dbt project's artifacts as a run loads them, once per manifest:
// the manifest, its lineage graph and the catalog.json beside it, or why
// they could not be read.
type DBT struct {
	Path       string // the manifest, as shown to the user
	Manifest   *manifest.Manifest
	Err        error
	Graph      *lineage.Graph
	Catalog    *manifest.Catalog
	CatalogErr error
	// History is what the project held on earlier days, nil when it is
	// not in version control (or is a dbt project, which has none here).
	History lineage.History
	// Project is the dbt project read from its own files when it has no
	// manifest (dbt's target/ is not committed): Manifest and Graph are
	// then its graph, and Path its dbt_project.yml. nil for a manifest.
	Project *dbtproject.Project
	// Windows are how the nodes read their parents' partitions, for a
	// bigquery-etl tree; nil for a dbt project, whose windows bflint
	// does not read.
	Windows *lineage.Windows
	// QueryNames are what the query of each bigquery-etl table or view
	// names (bqetl.ReadQueryNames); nil for a dbt project.
	QueryNames *lineage.PerNode[bqetl.QueryNames]
	// ProjectDir is the dbt project's folder, absolute, against which its
	// nodes' original_file_path values are relative; "" for a
	// bigquery-etl tree.
	ProjectDir string
	// Open reads a file of the project (path absolute) and places it in
	// the run's file set; nil when the loader offers none. The loader
	// reads files; rules ask it through OpenFile.
	Open func(path string) (*source.File, error)

	openedMu sync.Mutex
	opened   []*source.File

	filesOnce sync.Once
	files     map[string]string // original_file_path to unique_id
}

// OpenFile reads a file of the project (path absolute) so that a finding
// can point into it; os.ErrNotExist when the loader offers no reading.
func (d *DBT) OpenFile(path string) (*source.File, error) {
	if d == nil || d.Open == nil {
		return nil, os.ErrNotExist
	}
	f, err := d.Open(path)
	if f != nil {
		d.openedMu.Lock()
		if !slices.Contains(d.opened, f) {
			d.opened = append(d.opened, f)
		}
		d.openedMu.Unlock()
	}
	return f, err
}

// openedAt returns the file OpenFile read that holds pos, or nil.
func (d *DBT) openedAt(pos token.Pos) *source.File {
	d.openedMu.Lock()
	defer d.openedMu.Unlock()
	for _, f := range d.opened {
		if f.Contains(pos) {
			return f
		}
	}
	return nil
}

// ModelAt returns the model or snapshot of the project's own package whose
// file is path (absolute), nil when none is: the node whose resolved
// config (config() in the file, properties files, dbt_project.yml) the
// rules judge the file's SQL by.
func (d *DBT) ModelAt(path string) *manifest.Node {
	if d == nil || d.Manifest == nil || d.ProjectDir == "" {
		return nil
	}
	m := d.Manifest
	d.filesOnce.Do(func() {
		d.files = map[string]string{}
		for i, id := range m.IDs() {
			if kind, defined := m.ResourceTypeAt(i); !defined || kind != manifest.Model && kind != manifest.Snapshot {
				continue
			}
			n, ok := m.Peek(i)
			if ok && n.OriginalFilePath != "" && (m.ProjectName == "" || n.PackageName == m.ProjectName) {
				d.files[n.OriginalFilePath] = id
			}
		}
	})
	rel, err := filepath.Rel(d.ProjectDir, path)
	if err != nil {
		return nil
	}
	id, ok := d.files[filepath.ToSlash(rel)]
	if !ok {
		return nil
	}
	return m.Node(id)
}

// Fact returns what compute derives from the unit, computing it once: the
// rules of a family often need the same analysis, and a unit's rules run
// one after another, so no lock is needed.
func (u *Unit) Fact(key any, compute func() any) any {
	if v, ok := u.facts[key]; ok {
		return v
	}
	if u.facts == nil {
		u.facts = map[any]any{}
	}
	v := compute()
	u.facts[key] = v
	return v
}

// Manifest is the unit's dbt manifest, nil when none was found or it could
// not be read.
func (u *Unit) Manifest() *manifest.Manifest {
	if u.DBT == nil {
		return nil
	}
	return u.DBT.Manifest
}

// Lineage is the graph of the unit's manifest, nil without one.
func (u *Unit) Lineage() *lineage.Graph {
	if u.DBT == nil {
		return nil
	}
	return u.DBT.Graph
}

// Catalog is the catalog.json beside the unit's manifest, nil when there is
// none or it could not be read.
func (u *Unit) Catalog() *manifest.Catalog {
	if u.DBT == nil {
		return nil
	}
	return u.DBT.Catalog
}

// ManifestError says why the manifest found for the unit, or the catalog
// beside it, cannot be used, with the path of the file; nil when both are
// absent or loaded.
func (u *Unit) ManifestError() (file string, err error) {
	switch {
	case u.DBT == nil:
		return "", nil
	case u.DBT.Err != nil:
		return u.DBT.Path, u.DBT.Err
	case u.DBT.CatalogErr != nil:
		return path.Join(path.Dir(u.DBT.Path), "catalog.json"), u.DBT.CatalogErr
	}
	return "", nil
}

// SQLFile is a parsed SQL file and the plan keys that name it ("staging.build",
// "publish.sql"); a standalone file has no keys.
type SQLFile struct {
	Keys   []string
	Source *source.File
	Parsed *sqlparse.File
	// Model is the dbt model or snapshot the file defines, with its config
	// resolved as dbt resolves it (config() in the file, properties files,
	// dbt_project.yml), from the manifest or the project's own files; nil
	// for SQL that is no node of a dbt project.
	Model *manifest.Node
	// Range is how a run of Model, or of a bigquery-etl query, chooses
	// the partitions it computes; nil for other SQL.
	Range *rangesem.Semantics
	// Bqetl is set for a bigquery-etl query (query.sql in a tree): its
	// table and what bqetl does with its rows.
	Bqetl *BqetlQuery
	// Project is the dbt project the file is in, read from its own files
	// for its macros and config; nil outside one.
	Project *dbtproject.Project

	// keySet is Keys as a set, made on the first Has of a file named by
	// many keys: one query run by every check of a plan is asked about
	// once per check.
	keySet   map[string]bool
	keysOnce sync.Once
}

// TargetRange is the range semantics of a plan's target model.
type TargetRange struct {
	Node *manifest.Node
	// File is the model's file, which the plan's findings may point
	// into, and Pos what in it decides the range (its start when nothing
	// in the file does).
	File      *source.File
	Pos       token.Pos
	Semantics rangesem.Semantics
}

// BqetlQuery is a bigquery-etl query and what its table's metadata.yaml
// makes bqetl do with its rows.
type BqetlQuery struct {
	Table sqlname.Relation
	// Appends is the --append_table argument in metadata.yaml, which
	// makes bqetl append the rows rather than replace what a run writes;
	// NoPos without one.
	Appends token.Pos
	// DateParameter is the query parameter bqetl binds to the date of
	// the partition a run writes (submission_date unless
	// date_partition_parameter names another); "" for a query that
	// writes its whole table on every run.
	DateParameter string
	// Partition is bigquery.time_partitioning.field and Grain its type
	// (day, month, hour); both "" for a table not partitioned by time.
	Partition, Grain string
}

// Has reports whether the plan names the file under key.
func (f *SQLFile) Has(key string) bool {
	if len(f.Keys) <= 8 {
		return slices.Contains(f.Keys, key)
	}
	f.keysOnce.Do(func() {
		f.keySet = make(map[string]bool, len(f.Keys))
		for _, k := range f.Keys {
			f.keySet[k] = true
		}
	})
	return f.keySet[key]
}

// Pos converts an offset of the file's text to a position.
func (f *SQLFile) Pos(offset int) token.Pos { return f.Source.Pos(offset) }

// fileOf returns the file of the unit that holds pos, or nil.
func (u *Unit) fileOf(pos token.Pos) *source.File {
	if u.File.Contains(pos) {
		return u.File
	}
	for _, f := range u.SQL {
		if f.Source.Contains(pos) {
			return f.Source
		}
	}
	if tr := u.TargetRange; tr != nil && tr.File.Contains(pos) {
		return tr.File
	}
	if u.DBT != nil {
		if f := u.DBT.openedAt(pos); f != nil {
			return f
		}
	}
	if u.Plan != nil && u.Plan.Origin != nil {
		for _, f := range u.Plan.Origin.Sources {
			if f.Contains(pos) {
				return f
			}
		}
	}
	return nil
}

// Linted leaves out the context units: what the run lints and reports.
func Linted(units []*Unit) []*Unit {
	out := make([]*Unit, 0, len(units))
	for _, u := range units {
		if !u.Context {
			out = append(out, u)
		}
	}
	return out
}

// Inputs count what a run linted, for the summary line: a check that
// passes must say what it looked at.
type Inputs struct {
	// Plans are bflint plans; Entries are bigquery-etl backfill.yaml
	// entries, each linted as a plan.
	Plans, Entries int
	// DBTManifests, DBTProjects (read from their own files, with no
	// manifest) and BqetlTrees are the lineages the plans and SQL files
	// were checked against.
	DBTManifests, DBTProjects, BqetlTrees int
}

// InputsOf counts the plans, entries and lineages of the linted units.
func InputsOf(units []*Unit) Inputs {
	var in Inputs
	lineages := map[*manifest.Manifest]bool{}
	projects := map[*dbtproject.Project]bool{}
	for _, u := range units {
		if u.Plan != nil {
			if bqetl.Of(u.Plan) != nil {
				in.Entries++
			} else {
				in.Plans++
			}
		}
		switch m := u.Manifest(); {
		case m == nil:
		case u.DBT.Project != nil:
			// A project's nodes and its graph are one lineage.
			if !projects[u.DBT.Project] {
				projects[u.DBT.Project] = true
				in.DBTProjects++
			}
		case !lineages[m]:
			lineages[m] = true
			if m.ProjectName == bqetl.ProjectName {
				in.BqetlTrees++
			} else {
				in.DBTManifests++
			}
		}
	}
	return in
}
