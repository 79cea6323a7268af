package bqetl

import (
	"crypto/sha256"
	"fmt"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/bflint/bflint/internal/parallel"
	"github.com/bflint/bflint/parser/manifest"
	"github.com/bflint/bflint/parser/source"
	"github.com/bflint/bflint/parser/sqlparse"
)

// Lineage is the graph of a bigquery-etl tree, as a manifest lineage reads
// like a dbt one: every table and view is a model (materialized "table" or
// "view"), and every relation read that the tree does not define (the
// *_stable and *_live ingestion tables, external and other projects'
// tables) a source. Unique ids are the relations' names,
// project.dataset.name.
type Lineage struct {
	Manifest *manifest.Manifest
	// Objects are the tree's tables and views, sorted by name.
	Objects []Object
}

// ProjectName is the project name of a tree's lineage manifest, which
// tells it from a dbt manifest.
const ProjectName = "bigquery-etl"

// ParentsFrom is where an object's parents were read from. The lineage
// keeps it as the node's Type, which dbt gives only exposures and metrics,
// so that it survives the cache.
type ParentsFrom string

const (
	// FromReferences: metadata.yaml's references.
	FromReferences ParentsFrom = "references"
	// FromSQL: the definition's SQL, every statement read.
	FromSQL ParentsFrom = "sql"
	// FromPartialSQL: the definition's SQL, some statement or table
	// name of which could not be read (a name Jinja writes): parents may
	// be missing.
	FromPartialSQL ParentsFrom = "partial sql"
	// Unknown: a Python query or an unreadable file, which bflint does
	// not read; the object has no parents in the graph.
	Unknown ParentsFrom = "unknown"
)

// ParentsOf tells where the parents of the object with the name were read
// from; "" for a name the tree does not define.
func (l *Lineage) ParentsOf(name string) ParentsFrom {
	if n := l.Manifest.Node(name); n != nil && n.ResourceType == manifest.Model {
		return ParentsFrom(n.Type)
	}
	return ""
}

// ReadLineage builds the lineage of the tree at root. With references,
// an object whose metadata.yaml lists references for its definition takes
// its parents from there, as bqetl's own dependency graph does; without,
// or where there is none, they are read from the definition's SQL.
func ReadLineage(root string, references bool) (*Lineage, error) {
	return ReadLineageCached(root, references, "")
}

// ReadLineageCached is ReadLineage through the cache in cacheDir (see
// manifest.AssembleCached): the graph is used again while no definition or
// metadata.yaml of the tree has changed in name, size or modification
// time, which a run learns from one stat of each.
func ReadLineageCached(root string, references bool, cacheDir string) (*Lineage, error) {
	objects, err := Objects(root)
	if err != nil {
		return nil, err
	}
	if cacheDir == "" {
		return &Lineage{Manifest: assemble(root, objects, references), Objects: objects}, nil
	}
	h := sha256.New()
	fmt.Fprintf(h, "bqetl lineage v%d of %s references=%t\n", lineageVersion, root, references)
	for _, o := range objects {
		for _, name := range [...]string{o.Definition, MetadataName} {
			info, err := os.Stat(filepath.Join(o.Dir, name))
			if err != nil {
				fmt.Fprintf(h, "%s/%s -\n", o.Name, name)
				continue
			}
			fmt.Fprintf(h, "%s/%s %d %d\n", o.Name, name, info.Size(), info.ModTime().UnixNano())
		}
	}
	var sources [sha256.Size]byte
	h.Sum(sources[:0])
	m, err := manifest.AssembleCached(cacheDir, sources, func() (*manifest.Manifest, error) {
		return assemble(root, objects, references), nil
	})
	if err != nil {
		return nil, err
	}
	return &Lineage{Manifest: m, Objects: objects}, nil
}

// lineageVersion changes when assemble reads more of a tree, so that
// lineages cached by an earlier bflint are read again.
const lineageVersion = 3

func assemble(root string, objects []Object, references bool) *manifest.Manifest {
	parents := make([][]string, len(objects))
	from := make([]ParentsFrom, len(objects))
	materialized := make([]string, len(objects))
	strategy := make([]string, len(objects))
	union := make([]bool, len(objects))
	parallel.For(len(objects), func(i int) {
		meta, _ := source.ReadRegular(filepath.Join(objects[i].Dir, MetadataName), source.MaxFileSize)
		parents[i], from[i], union[i] = readObject(objects[i], meta, references)
		materialized[i], strategy[i] = materialization(objects[i], meta)
	})

	defined := make(map[string]bool, len(objects))
	// Names read from SQL and references are folded to lower case; a
	// folder may keep capitals (fx_share_of_private_URI_loads_v1), and
	// its readers' edges must reach the object the folder defines.
	named := make(map[string]string, len(objects))
	for _, o := range objects {
		defined[o.Name] = true
		named[strings.ToLower(o.Name)] = o.Name
	}
	for _, ps := range parents {
		for j, p := range ps {
			if name, ok := named[p]; ok {
				ps[j] = name
			}
		}
	}
	nodes := make([]*manifest.Node, 0, len(objects))
	sources := map[string]bool{}
	for i, o := range objects {
		n := relationNode(o.Name, manifest.Model)
		n.Type = string(from[i])
		n.Config.Materialized, n.Config.IncrementalStrategy = materialized[i], strategy[i]
		if union[i] {
			n.Union = UnionView
		}
		n.OriginalFilePath = filepath.ToSlash(filepath.Join(filepath.Base(root), strings.ReplaceAll(o.Name, ".", "/"), o.Definition))
		for _, p := range parents[i] {
			if p == o.Name {
				// A query reading its own earlier partitions (a
				// depends_on_past table) is no edge of the graph.
				continue
			}
			n.DependsOn.Nodes = append(n.DependsOn.Nodes, p)
			if !defined[p] && !sources[p] {
				sources[p] = true
				nodes = append(nodes, relationNode(p, manifest.Source))
			}
		}
		nodes = append(nodes, n)
	}
	return manifest.Assemble(ProjectName, "bigquery", nodes)
}

// materialization says how an object keeps its rows, in dbt's words:
// "view" for a view or materialized view; "incremental" for a table
// partitioned by time whose query writes one partition per run, which
// keeps every other partition as computed, so a correction upstream
// reaches it only through a backfill; "table" for a table its query
// writes whole on every run (date_partition_parameter: null, or no time
// partitioning), which the next scheduled run recomputes from corrected
// data by itself; Deprecated for a table no longer maintained;
// Unscheduled for a partitioned table no DAG of the tree runs. The
// strategy of an incremental table is dbt's word for what bqetl does with
// a run's rows: insert_overwrite (the partition replaced), or append
// (--append_table).
func materialization(o Object, meta []byte) (materialized, strategy string) {
	if o.View {
		return "view", ""
	}
	t := readTable(meta, func(int, int) token.Pos { return token.NoPos })
	switch {
	case t.Deprecated:
		return Deprecated, ""
	case t.Partitioning.V == "" || t.Null:
		return "table", ""
	case !t.Scheduled:
		return Unscheduled, ""
	case t.Appends.Set:
		return "incremental", "append"
	}
	return "incremental", "insert_overwrite"
}

// Deprecated is the materialization of a table its metadata.yaml marks
// deprecated: no longer maintained, it needs no backfill of its own, and
// lineage still shows it.
const Deprecated = "deprecated"

// Unscheduled is the materialization of a partitioned table whose
// metadata.yaml names no DAG (no scheduling.dag_name): its partitions are
// written by hand or by a job outside the tree, never by a bqetl run, so
// no backfill entry of the tree can be asked of it, and lineage still
// shows it.
const Unscheduled = "unscheduled"

// relationNode is the node of the relation project.dataset.name.
func relationNode(name, kind string) *manifest.Node {
	n := &manifest.Node{UniqueID: name, ResourceType: kind, Relation: name}
	parts := strings.SplitN(name, ".", 3)
	n.Name = parts[len(parts)-1]
	if len(parts) == 3 {
		n.Database, n.Schema = parts[0], parts[1]
	}
	if kind == manifest.Source {
		n.Identifier = n.Name
	}
	return n
}

// UnionView is the Union of a view node whose query unions different
// relations.
const UnionView = "union"

// IsUnionView reports whether a node of a tree's lineage is a view that
// unions the rows of different relations, as the per-app and per-channel
// views of a bigquery-etl tree do. Whether a table reading such a view
// reads a given source's rows depends on the values it filters on (the
// app, the channel), which bflint does not follow.
func IsUnionView(n *manifest.Node) bool { return n != nil && n.Union == UnionView }

// UnionViews is IsUnionView by unique id in m, the form lineage's
// RebuildAvoiding takes.
func UnionViews(m *manifest.Manifest) func(id string) bool {
	return func(id string) bool { return IsUnionView(m.Node(id)) }
}

// readObject reads what an object reads, by full name, and whether it is
// a view unioning different relations. Parents listed in metadata.yaml's
// references spare reading the SQL, except a view's, whose union only the
// SQL tells.
func readObject(o Object, meta []byte, references bool) (parents []string, from ParentsFrom, union bool) {
	listed := false
	if references {
		parents, listed = References(meta, o.Definition, o.Project())
	}
	var def *sqlparse.File
	if !listed || o.View {
		def = parseDefinition(o)
	}
	if def != nil && o.View {
		union = slices.ContainsFunc(def.Statements, (*sqlparse.Statement).UnionsRelations)
	}
	switch {
	case listed:
		return dedupe(parents), FromReferences, union
	case def == nil:
		return nil, Unknown, false
	}
	reads := def.Reads()
	for _, r := range reads.Relations {
		if name, ok := Qualify(r, o.Project()); ok {
			parents = append(parents, name)
		}
	}
	if reads.Unread > 0 || reads.Templated > 0 {
		return dedupe(parents), FromPartialSQL, union
	}
	return dedupe(parents), FromSQL, union
}

// parseDefinition parses the object's SQL definition; nil for a Python
// query or a file that cannot be read.
func parseDefinition(o Object) *sqlparse.File {
	if !strings.HasSuffix(o.Definition, ".sql") {
		return nil
	}
	text, err := source.ReadRegular(filepath.Join(o.Dir, o.Definition), source.MaxFileSize)
	if err != nil {
		return nil
	}
	return sqlparse.Parse(string(text), sqlparse.Options{ModelName: strings.TrimSuffix(o.Definition, ".sql")})
}

func dedupe(names []string) []string {
	slices.Sort(names)
	return slices.Compact(names)
}
