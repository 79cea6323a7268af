package load

import (
	"bytes"
	"cmp"
	"os"
	"path/filepath"
	"strings"

	"github.com/bflint/bflint/lineage"
	"github.com/bflint/bflint/parser/bqetl"
	"github.com/bflint/bflint/parser/source"
	"github.com/bflint/bflint/parser/sqlname"
	"github.com/bflint/bflint/parser/sqlparse"
	"github.com/bflint/bflint/parser/sqlparse/jinja"
	"github.com/bflint/bflint/parser/window"
	"github.com/bflint/bflint/rules"
)

// isBqetlFile reports whether path is a bigquery-etl backfill.yaml: the
// name bqetl gives it, with the table's metadata.yaml beside it or in a
// table folder of a tree (sql/<project>/<dataset>/<table>): a generated
// table's metadata.yaml exists only where the generated files are, so on
// the main branch its entries stand alone.
func isBqetlFile(path string) bool {
	if filepath.Base(path) != bqetl.FileName {
		return false
	}
	if _, inTree := bqetl.Root(filepath.Dir(path)); inTree {
		return true
	}
	info, err := os.Stat(filepath.Join(filepath.Dir(path), bqetl.MetadataName))
	return err == nil && info.Mode().IsRegular()
}

// isBqetlPlan reports whether the plan file at path holds bigquery-etl
// entries, as format reads plan files.
func isBqetlPlan(path string, format PlanFormat) bool {
	switch format {
	case FormatBflint:
		return false
	case FormatBqetl:
		name := strings.ToLower(filepath.Base(path))
		return !strings.HasSuffix(name, ".backfill.yaml") && !strings.HasSuffix(name, ".backfill.yml")
	}
	return isBqetlFile(path)
}

// readBqetl reads a backfill.yaml with its table's metadata.yaml into one
// plan per entry. A metadata.yaml that cannot be read leaves the table's
// settings unknown; the entries are still read.
func (l *loader) readBqetl(path string) []loadedPlan {
	dir := filepath.Dir(path)
	content, err := readFile(path)
	f := source.Add(l.fset, displayName(l.root, path), content)
	if err != nil {
		return []loadedPlan{{unit: &rules.Unit{File: f, ReadError: err}, dir: dir}}
	}
	var meta *source.File
	metaPath := filepath.Join(dir, bqetl.MetadataName)
	if mc, err := readFile(metaPath); err == nil {
		meta = source.Add(l.fset, displayName(l.root, metaPath), mc)
	}
	table := bqetl.ReadTable(meta)
	directives := rules.YAMLDirectives(f)
	plans := bqetl.Plans(bqetl.ReadFile(f), table, filepath.ToSlash(dir))
	if l.previous != nil {
		if before, ok := l.previous(path); ok {
			bqetl.SetBefore(plans, bqetl.ReadFile(source.Add(l.fset, displayName(l.root, path)+" (before)", before)))
		}
	}
	if table.DependsOnPast.V || table.Partitioning.V != "" && !table.Null {
		def, content, name := readDefinition(dir)
		if table.DependsOnPast.V {
			bqetl.SetReadsItself(plans, def)
		}
		if table.Partitioning.V != "" && !table.Null && name == "query.sql" {
			bqetl.SetClock(plans, def, source.Add(l.fset, displayName(l.root, filepath.Join(dir, name)), content))
		}
	}
	tree := l.tree(dir)
	out := make([]loadedPlan, len(plans))
	for i, p := range plans {
		out[i] = loadedPlan{unit: &rules.Unit{File: f, Plan: p, DBT: tree}, dir: dir}
	}
	// A directive belongs to the entry it stands in (or just above): each
	// entry is a unit of its own, where another entry's directive would
	// match nothing.
	for _, d := range directives {
		owner := 0
		for i, p := range plans {
			if p.Key.IsValid() && p.Key <= d.From {
				owner = i
			}
		}
		out[owner].unit.Directives = append(out[owner].unit.Directives, d)
	}
	return out
}

// tree is the lineage of the bigquery-etl tree a table folder belongs to,
// read once per run: from metadata.yaml's references where bqetl generated
// them, else from each table's and view's SQL. nil when the folder is not
// in such a tree.
func (l *loader) tree(tableDir string) *rules.DBT {
	root, ok := bqetl.Root(tableDir)
	if !ok {
		return nil
	}
	if d, ok := l.trees[root]; ok {
		return d
	}
	d := &rules.DBT{Path: displayName(l.root, root)}
	lin, err := bqetl.ReadLineageCached(root, true, l.cacheDir)
	if err != nil {
		d.Err = source.Cause(err)
	} else {
		d.Manifest = lin.Manifest
		d.Graph = lineage.New(lin.Manifest)
		d.Windows = lineage.NewWindows(func(id string) map[string]window.Window { return bqetl.ReadWindows(root, lin.Manifest, id) })
		d.QueryNames = lineage.NewPerNode(func(id string) bqetl.QueryNames { return bqetl.ReadQueryNames(root, lin.Manifest, id) })
		if l.history != nil {
			d.History = l.history(root)
		}
	}
	l.trees[root] = d
	return d
}

// treeFor is the lineage of the bigquery-etl tree a plan in dir targets
// with a table's full name (project.dataset.table): the sql folder of dir
// or of a folder above it, up to the project root, holding that table.
// nil when there is none.
func (l *loader) treeFor(dir, target string) *rules.DBT {
	parts := strings.Split(strings.Trim(target, "`"), ".")
	if len(parts) != 3 {
		return nil
	}
	for d := dir; ; d = filepath.Dir(d) {
		table := filepath.Join(d, "sql", parts[0], parts[1], parts[2])
		if info, err := os.Stat(table); err == nil && info.IsDir() {
			return l.tree(table)
		}
		if d == l.root || filepath.Dir(d) == d || !strings.HasPrefix(d, l.root) {
			return nil
		}
	}
}

// readDefinition parses the table's query.sql or script.sql, for what the
// entries' rules ask of it, returning its content and file name too; nil
// when it has neither or cannot be read.
func readDefinition(dir string) (def *sqlparse.File, content []byte, name string) {
	for _, name := range []string{"query.sql", "script.sql"} {
		if content, err := readFile(filepath.Join(dir, name)); err == nil {
			return sqlparse.Parse(string(content), sqlparse.Options{ModelName: strings.TrimSuffix(name, ".sql")}), content, name
		}
	}
	return nil, nil, ""
}

// bqetlQuery reads, for a bigquery-etl query.sql, its table and from
// its metadata.yaml what bqetl does with its rows: whether it appends
// them (--append_table), and the date parameter it binds when each run
// writes one partition. nil for any other file.
func (l *loader) bqetlQuery(path string) *rules.BqetlQuery {
	dir := filepath.Dir(path)
	if filepath.Base(path) != "query.sql" {
		return nil
	}
	if _, ok := bqetl.Root(dir); !ok {
		return nil
	}
	table := filepath.Base(dir)
	dataset := filepath.Base(filepath.Dir(dir))
	project := filepath.Base(filepath.Dir(filepath.Dir(dir)))
	q := &rules.BqetlQuery{Table: sqlname.Relation{Parts: []string{project, dataset, table}, Offset: -1}}
	metaPath := filepath.Join(dir, bqetl.MetadataName)
	meta, err := readFile(metaPath)
	if err != nil || !bytes.Contains(meta, []byte("partitioning")) && !bytes.Contains(meta, []byte("append")) {
		return q
	}
	t := bqetl.ReadTable(source.Add(l.fset, displayName(l.root, metaPath), meta))
	if t.Appends.Set {
		q.Appends = t.Appends.Key
	}
	q.Partition, q.Grain = t.Field.V, strings.ToLower(t.Partitioning.V)
	if t.Partitioning.V != "" && !t.Null && !t.Deprecated {
		q.DateParameter = cmp.Or(t.DateParameter.V, "submission_date")
	}
	return q
}

// bqetlChecks returns the macros a bigquery-etl table's checks.sql calls
// (is_unique, not_null, min_row_count, ...), which bqetl renders its
// checks with: the *.jinja files of tests/checks beside the tree's sql/
// folder. nil for any other file, or a tree without them.
func (l *loader) bqetlChecks(path string) map[string]jinja.Macro {
	if filepath.Base(path) != bqetl.ChecksName {
		return nil
	}
	root, ok := bqetl.Root(filepath.Dir(path))
	if !ok {
		return nil
	}
	l.checkMacrosMu.Lock()
	defer l.checkMacrosMu.Unlock()
	if macros, read := l.checkMacros[root]; read {
		return macros
	}
	var macros map[string]jinja.Macro
	dir := bqetl.CheckMacrosDir(root)
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if e.IsDir() || filepath.Ext(e.Name()) != ".jinja" {
			continue
		}
		// A macro file that cannot be read leaves its checks unread,
		// which coverage counts.
		if content, err := readFile(filepath.Join(dir, e.Name())); err == nil {
			if macros == nil {
				macros = map[string]jinja.Macro{}
			}
			jinja.ReadMacros(string(content), macros)
		}
	}
	if l.checkMacros == nil {
		l.checkMacros = map[string]map[string]jinja.Macro{}
	}
	l.checkMacros[root] = macros
	return macros
}
