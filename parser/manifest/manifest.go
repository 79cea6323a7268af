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

// Manifest is the decoded graph. It is read-only once returned.
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

	nodes      map[string]*Node
	sorted     []*Node
	children   map[string][]string
	parents    map[string][]string
	unresolved []string
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
}

// Config holds the node configuration keys that decide how a backfill
// rewrites the node's relation.
type Config struct {
	Materialized        string     `json:"materialized"`
	IncrementalStrategy string     `json:"incremental_strategy"`
	UniqueKey           StringList `json:"unique_key"`
	EventTime           string     `json:"event_time"`
	BatchSize           string     `json:"batch_size"`
	// Strategy is the snapshot strategy: timestamp or check.
	Strategy                string                  `json:"strategy"`
	SnapshotMetaColumnNames SnapshotMetaColumnNames `json:"snapshot_meta_column_names"`
	// DBTValidToCurrent is the SQL expression a snapshot stores in its
	// valid-to column for current rows; empty means they hold NULL.
	DBTValidToCurrent string `json:"dbt_valid_to_current"`
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
func (m *Manifest) Node(id string) *Node { return m.nodes[id] }

// Nodes returns every entry of every section, sorted by unique_id.
func (m *Manifest) Nodes() []*Node { return slices.Clone(m.sorted) }

// Snapshots returns the snapshot nodes, sorted by unique_id.
func (m *Manifest) Snapshots() []*Node {
	var out []*Node
	for _, n := range m.sorted {
		if n.ResourceType == Snapshot {
			out = append(out, n)
		}
	}
	return out
}

// Children returns the unique_ids that read id directly, each once, sorted.
// The slice is shared: callers must not modify it.
func (m *Manifest) Children(id string) []string { return m.children[id] }

// Parents returns the unique_ids that id reads directly, each once, sorted.
// The slice is shared: callers must not modify it.
func (m *Manifest) Parents(id string) []string { return m.parents[id] }

// Unresolved returns the unique_ids that child_map, parent_map or a
// depends_on list mention but no section defines, sorted. dbt never writes
// such ids; they point at a hand-edited or truncated-then-repaired manifest,
// and lineage cannot say what they are.
func (m *Manifest) Unresolved() []string { return slices.Clone(m.unresolved) }

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
