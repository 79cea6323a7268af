package dbtproject

import (
	"path/filepath"
	"strings"

	"github.com/bflint/bflint/parser/manifest"
	"github.com/bflint/bflint/parser/sqlname"
	"github.com/bflint/bflint/parser/sqlparse/jinja"
)

// seeds makes a node of each CSV file of the seed folders.
func (r *reader) seeds(dirs []string, props *properties, tree *folder) {
	for _, root := range dirs {
		r.p.walk(root, []string{".csv"}, func(path string) {
			rel, _ := filepath.Rel(root, path)
			parts := strings.Split(filepath.ToSlash(rel), "/")
			name := strings.TrimSuffix(parts[len(parts)-1], filepath.Ext(path))
			c := config{}
			tree.resolve(c, r.p.Name, parts[:len(parts)-1], name)
			c.merge(props.config[name])
			if !c.enabled() {
				return
			}
			if n := r.node(manifest.Seed, name, c, path); n != nil {
				n.Config.Materialized = "seed"
			}
		})
	}
}

// sources makes a node of each table of the declared sources, named as
// the warehouse names it: database.schema.identifier. Without edges, only
// the sources a source() call of the project may name are kept: a
// project that declares every table of a warehouse (tens of thousands)
// reads a few.
func (r *reader) sources(props *properties, files []*sqlFile) {
	named := r.namedSources(files, props)
	for _, s := range props.sources {
		if !s.enabled || !named(s.source, s.table) {
			continue
		}
		id := manifest.Source + "." + r.p.Name + "." + s.source + "." + s.table
		if r.nodesByID[id] != nil {
			continue
		}
		n := &manifest.Node{UniqueID: id, ResourceType: manifest.Source, Name: s.table, PackageName: r.p.Name,
			Database: s.database, Schema: s.schema, Identifier: s.identifier}
		var parts []string
		for _, p := range []string{s.database, s.schema, s.identifier} {
			if p != "" {
				parts = append(parts, p)
			}
		}
		n.Relation = sqlname.Relation{Parts: parts}.Name()
		if rel, err := filepath.Rel(r.p.Dir, s.file); err == nil {
			n.OriginalFilePath = filepath.ToSlash(rel)
		}
		r.nodesByID[id] = n
	}
}

// exposures makes a node of each exposure, reading what it depends on.
func (r *reader) exposures(props *properties) {
	for _, e := range props.exposures {
		if !e.enabledFlag {
			continue
		}
		id := manifest.Exposure + "." + r.p.Name + "." + e.name
		if r.nodesByID[id] != nil {
			continue
		}
		n := &manifest.Node{UniqueID: id, ResourceType: manifest.Exposure, Name: e.name, PackageName: r.p.Name, Type: e.kind,
			Owner: manifest.Owner{Name: e.owner[0], Email: e.owner[1]}}
		if rel, err := filepath.Rel(r.p.Dir, e.file); err == nil {
			n.OriginalFilePath = filepath.ToSlash(rel)
		}
		r.nodesByID[id] = n
		for _, d := range e.dependsOn {
			text := "{{ " + d + " }}"
			for _, rc := range jinja.RelationCalls(text, jinja.Regions(text), r.env()) {
				rc.Offset = 0
				r.pending[id] = append(r.pending[id], call{rc, e.file})
			}
		}
	}
}

// namedSources says which declared sources the project's source() calls
// may name: those written with literals, and every table of a literal name
// whatever its source (a macro's source(chain, 'transactions') names it
// once its arguments are bound). A call that names neither with a literal
// is left to the lineage, Graph, which keeps every source.
func (r *reader) namedSources(files []*sqlFile, props *properties) func(source, table string) bool {
	if r.edges {
		return func(string, string) bool { return true }
	}
	exact, tables := map[[2]string]bool{}, map[string]bool{}
	add := func(calls []jinja.RelationCall) {
		for _, c := range calls {
			if len(c.Partial) != 2 {
				continue
			}
			switch s, t := c.Partial[0], c.Partial[1]; {
			case s != "" && t != "":
				exact[[2]string{s, t}] = true
			case t != "":
				tables[t] = true
			}
		}
	}
	for _, f := range files {
		add(f.sources)
	}
	for _, m := range r.p.Macros {
		add(sourceCalls(m.Body, jinja.Regions(m.Body)))
	}
	for _, e := range props.exposures {
		for _, d := range e.dependsOn {
			add(sourceCalls("{{ "+d+" }}", jinja.Regions("{{ "+d+" }}")))
		}
	}
	for _, s := range props.snapshots {
		add(sourceCalls("{{ "+s.relation+" }}", jinja.Regions("{{ "+s.relation+" }}")))
	}
	return func(source, table string) bool { return exact[[2]string{source, table}] || tables[table] }
}
