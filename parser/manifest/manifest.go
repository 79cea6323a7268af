// Package manifest reads the parts of a dbt manifest.json (schema v7 to v12,
// and the dbt 2.0 "Fusion" variant that still declares v12) that lineage and
// the rules need: every graph node with its relation, materialisation,
// incremental and snapshot configuration, the edges between nodes, and the
// optional catalog.json column lists.
//
// Manifests are produced by many dbt versions and adapters, so the decoder is
// tolerant of everything it does not use (unknown keys, missing project_name,
// empty strategies, repeated edges) and strict only about the shape of what
// it does use: a manifest it cannot trust is an error with a byte offset,
// never a partial graph.
package manifest

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
)

// Resource types whose nodes lineage distinguishes. Other values (future
// dbt resource types) are kept verbatim in Node.ResourceType.
const (
	Model         = "model"
	Snapshot      = "snapshot"
	Seed          = "seed"
	Source        = "source"
	Test          = "test"
	UnitTest      = "unit_test"
	Analysis      = "analysis"
	Operation     = "operation"
	Exposure      = "exposure"
	Metric        = "metric"
	SemanticModel = "semantic_model"
	SavedQuery    = "saved_query"
	Function      = "function"
)

// NewestSchemaVersion is the newest manifest schema this package was checked
// against. Newer manifests are still read (dbt grows the schema additively);
// a caller may mention the difference to the user.
const NewestSchemaVersion = 12

// Manifest is the decoded graph. It is read-only once returned, and safe
// for concurrent use.
type Manifest struct {
	// Path is the file Load read, as it was passed; empty after Decode.
	// Its parent's parent is usually the dbt project root
	// (project/target/manifest.json), against which the root package's
	// original_file_path values are relative.
	Path string
	// SchemaURL is metadata.dbt_schema_version as written, and SchemaVersion
	// the N of its ".../manifest/vN.json" (0 when absent or not in that form).
	SchemaURL     string
	SchemaVersion int
	DBTVersion    string
	ProjectName   string // empty in manifests older than schema v10
	AdapterType   string

	// ids holds every unique_id the manifest mentions, defined by a
	// section or only named by an edge, sorted; the slices below are
	// indexed like it, and sorting positions sorts ids. A binary search
	// finds an id: a map of them would cost more to build, on a manifest
	// read from the cache, than the few thousand look-ups of a run.
	ids []string
	// kinds holds each defined node's resource type, so that a node's kind
	// is known without decoding the node.
	kinds []string
	// undefined holds the positions of the ids that no section defines,
	// ascending.
	undefined []int32
	nodes     []atomic.Pointer[Node]
	// records holds the nodes of a manifest read from the cache, each
	// decoded on its first use (most are never looked at); nil when every
	// node is decoded.
	records           *records
	children, parents adjacency
}

// adjacency lists edges by position: those of position i are
// list[start[i]:start[i+1]], ascending.
type adjacency struct {
	start, list []int32
}

func (a adjacency) of(i int) []int32 {
	return a.list[a.start[i]:a.start[i+1]:a.start[i+1]]
}

// Node is one entry of any graph section: nodes (models, snapshots, seeds,
// tests, unit tests, analyses, operations), sources, exposures, metrics,
// semantic models, saved queries, functions and unit_tests. Fields that a
// resource type does not have stay empty.
type Node struct {
	UniqueID     string `json:"-"`
	ResourceType string `json:"resource_type"`
	Name         string `json:"name"`
	PackageName  string `json:"package_name"`
	Database     string `json:"database"`
	Schema       string `json:"schema"`
	Alias        string `json:"alias"`
	Identifier   string `json:"identifier"`
	// Relation is relation_name as dbt recorded it, empty when it did not;
	// RelationName fills the gap for old manifests.
	Relation string `json:"relation_name"`
	// OriginalFilePath is relative to the root of the node's package.
	OriginalFilePath string   `json:"original_file_path"`
	Checksum         Checksum `json:"checksum"`
	// Version is set on versioned models, whose unique_id has a fourth
	// part (model.pkg.name.v2) while Name stays the same for all versions.
	Version       ModelVersion `json:"version"`
	LatestVersion ModelVersion `json:"latest_version"`
	Config        Config       `json:"config"`
	DependsOn     DependsOn    `json:"depends_on"`
	// Owner and Type (dashboard, notebook, ...) describe exposures; Type
	// is also a metric's kind.
	Owner Owner  `json:"owner"`
	Type  string `json:"type"`
	// Union is set on a bigquery-etl view whose query is a UNION of
	// queries reading different relations (see
	// sqlparse.Statement.UnionsRelations); dbt records nothing of the kind.
	Union string `json:"-"`
}

// Config holds the node configuration keys that decide how a backfill
// rewrites the node's relation.
type Config struct {
	Materialized        string      `json:"materialized"`
	IncrementalStrategy string      `json:"incremental_strategy"`
	UniqueKey           StringList  `json:"unique_key"`
	EventTime           string      `json:"event_time"`
	BatchSize           string      `json:"batch_size"`
	PartitionBy         PartitionBy `json:"partition_by"`
	// Strategy is the snapshot strategy: timestamp or check.
	Strategy                string                  `json:"strategy"`
	SnapshotMetaColumnNames SnapshotMetaColumnNames `json:"snapshot_meta_column_names"`
	// DBTValidToCurrent is the SQL expression a snapshot stores in its
	// valid-to column for current rows; empty means they hold NULL.
	DBTValidToCurrent string `json:"dbt_valid_to_current"`
}

// AppendsUnlessFiltered reports whether a model so configured inserts its
// rows again on every run unless its incremental filter leaves out those
// already loaded: incremental with incremental_strategy append, or with
// merge, delete+insert or the adapter's default and no unique_key, since
// nothing then says which rows to replace.
func (c Config) AppendsUnlessFiltered() bool {
	if !strings.EqualFold(strings.TrimSpace(c.Materialized), "incremental") {
		return false
	}
	switch strings.ToLower(strings.TrimSpace(c.IncrementalStrategy)) {
	case "append":
		return true
	case "merge", "delete+insert", "":
		for _, k := range c.UniqueKey {
			if strings.TrimSpace(k) != "" {
				return false
			}
		}
		return true
	}
	return false
}

// SnapshotMetaColumnNames renames the columns dbt adds to a snapshot (dbt
// 1.9+). Empty fields keep dbt's default name.
type SnapshotMetaColumnNames struct {
	ValidFrom string `json:"dbt_valid_from"`
	ValidTo   string `json:"dbt_valid_to"`
	SCDID     string `json:"dbt_scd_id"`
	UpdatedAt string `json:"dbt_updated_at"`
	IsDeleted string `json:"dbt_is_deleted"`
}

// DependsOn lists the unique_ids a node reads, each once, sorted.
type DependsOn struct {
	Nodes []string `json:"nodes"`
}

// Owner is an exposure's owner.
type Owner struct {
	Name  string `json:"name"`
	Email string `json:"email"`
}

// Node returns the node, source, exposure or other entry with the unique_id,
// or nil.
func (m *Manifest) Node(id string) *Node {
	i, ok := m.Index(id)
	if !ok {
		return nil
	}
	return m.NodeAt(i)
}

// IDs returns every unique_id the manifest mentions, those that only an edge
// names (see Unresolved) included, sorted. Positions in it index NodeAt,
// ResourceTypeAt and ChildrenAt. The slice is shared: callers must not
// modify it.
func (m *Manifest) IDs() []string { return m.ids }

// Index returns the position of id in IDs.
func (m *Manifest) Index(id string) (int, bool) {
	return slices.BinarySearch(m.ids, id)
}

// NodeAt returns the node at position i of IDs, nil for an id no section
// defines. It is safe for concurrent use, and returns the same *Node every
// time.
func (m *Manifest) NodeAt(i int) *Node {
	if n := m.nodes[i].Load(); n != nil || m.records == nil || !m.defined(i) {
		return n
	}
	n := new(Node)
	m.records.decode(i, n)
	if m.nodes[i].CompareAndSwap(nil, n) {
		return n
	}
	return m.nodes[i].Load()
}

// Peek returns a copy of the node at position i of IDs, false for an id no
// section defines. It suits a pass over many nodes that keeps none of them:
// on a manifest read from the cache, NodeAt keeps every node it decodes,
// while Peek decodes the node again on each call and keeps nothing.
func (m *Manifest) Peek(i int) (Node, bool) {
	var n Node
	switch p := m.nodes[i].Load(); {
	case p != nil:
		n = *p
	case m.records == nil || !m.defined(i):
		return n, false
	default:
		m.records.decode(i, &n)
	}
	return n, true
}

// ResourceTypeAt returns the resource type of the node at position i of IDs
// and whether a section defines it, without decoding the rest of the node.
func (m *Manifest) ResourceTypeAt(i int) (kind string, defined bool) {
	return m.kinds[i], m.defined(i)
}

// ChildrenAt returns the positions in IDs of the unique_ids that read the
// one at position i directly, ascending. The slice is shared: callers must
// not modify it.
func (m *Manifest) ChildrenAt(i int) []int32 { return m.children.of(i) }

// ParentsAt is Parents by index, for walks up the graph.
func (m *Manifest) ParentsAt(i int) []int32 { return m.parents.of(i) }

func (m *Manifest) defined(i int) bool {
	_, found := slices.BinarySearch(m.undefined, int32(i))
	return !found
}

// Nodes returns every entry of every section, sorted by unique_id.
func (m *Manifest) Nodes() []*Node {
	out := make([]*Node, 0, len(m.ids)-len(m.undefined))
	for i := range m.ids {
		if n := m.NodeAt(i); n != nil {
			out = append(out, n)
		}
	}
	return out
}

// Snapshots returns the snapshot nodes, sorted by unique_id.
func (m *Manifest) Snapshots() []*Node {
	var out []*Node
	for i, kind := range m.kinds {
		if kind == Snapshot && m.defined(i) {
			out = append(out, m.NodeAt(i))
		}
	}
	return out
}

// Children returns the unique_ids that read id directly, each once, sorted.
func (m *Manifest) Children(id string) []string { return m.idsAt(id, m.children) }

// Parents returns the unique_ids that id reads directly, each once, sorted.
func (m *Manifest) Parents(id string) []string { return m.idsAt(id, m.parents) }

// idsAt returns the ids adjacent to id, nil when there are none.
func (m *Manifest) idsAt(id string, a adjacency) []string {
	i, ok := m.Index(id)
	if !ok {
		return nil
	}
	positions := a.of(i)
	if len(positions) == 0 {
		return nil
	}
	out := make([]string, len(positions))
	for j, p := range positions {
		out[j] = m.ids[p]
	}
	return out
}

// Unresolved returns the unique_ids that child_map, parent_map or a
// depends_on list mention but no section defines, sorted. dbt never writes
// such ids; they point at a hand-edited or truncated-then-repaired manifest,
// and lineage cannot say what they are.
func (m *Manifest) Unresolved() []string {
	var out []string
	for _, i := range m.undefined {
		out = append(out, m.ids[i])
	}
	return out
}

// RelationName returns the warehouse relation the node is built into: dbt's
// relation_name when recorded (quoted as the adapter quotes it), else
// database.schema.alias (or identifier for sources) with empty parts left
// out, as manifests before schema v8 do not record relation_name. Nodes
// that build no relation (ephemeral models, tests, analyses, exposures and
// the like) have none: dbt records null for them, and a name made up from
// their schema would let a user's relation match something that does not
// exist in the warehouse.
func (m *Manifest) RelationName(n *Node) string {
	if n == nil {
		return ""
	}
	if n.Relation != "" {
		return n.Relation
	}
	switch n.ResourceType {
	case Model, Snapshot, Seed, Source:
	default:
		return ""
	}
	if n.Config.Materialized == "ephemeral" {
		return ""
	}
	name := cmp.Or(n.Alias, n.Identifier, n.Name)
	parts := make([]string, 0, 3)
	for _, p := range []string{n.Database, n.Schema, name} {
		if p != "" {
			parts = append(parts, p)
		}
	}
	return strings.Join(parts, ".")
}

// ValidityColumns returns the names of a snapshot's validity columns: the
// snapshot_meta_column_names overrides, else dbt's dbt_valid_from and
// dbt_valid_to.
func (n *Node) ValidityColumns() (from, to string) {
	c := n.Config.SnapshotMetaColumnNames
	return cmp.Or(c.ValidFrom, "dbt_valid_from"), cmp.Or(c.ValidTo, "dbt_valid_to")
}

// Fusion reports whether the manifest was written by dbt 2.0 (the Fusion
// engine), which declares schema v12 but differs in details: seeds carry no
// materialized config, model versions may be strings, and child_map may be
// absent.
func (m *Manifest) Fusion() bool {
	major, _, _ := strings.Cut(m.DBTVersion, ".")
	v, err := strconv.Atoi(major)
	return err == nil && v >= 2
}
