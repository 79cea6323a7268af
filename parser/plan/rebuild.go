package plan

import (
	"fmt"

	"github.com/bflint/bflint/parser/yamlx"
	"go.yaml.in/yaml/v3"
)

// RebuildList is downstream.rebuild: the nodes to rebuild in order, each
// a name alone (rebuilt over the plan's range) or {node, range} for a
// node that reads a window of the target and is rebuilt over the range
// that window widens the plan's to (BF809).
type RebuildList struct {
	Field
	Items []Rebuild
}

// Rebuild is one node of downstream.rebuild; its String is the node as
// written.
type Rebuild struct {
	String
	// Range is the range the node is rebuilt over; nil when the item is
	// a name alone.
	Range *RebuildRange
}

// RebuildRange is the range of a downstream.rebuild item.
type RebuildRange struct {
	Field
	Start Date `yaml:"start"`
	End   Date `yaml:"end"`
}

// rebuildItem is the mapping form of an item.
type rebuildItem struct {
	Node  String        `yaml:"node"`
	Range *RebuildRange `yaml:"range"`
}

// Values returns the node names of the list.
func (l RebuildList) Values() []string {
	out := make([]string, len(l.Items))
	for i, it := range l.Items {
		out[i] = it.V
	}
	return out
}

// UnmarshalYAMLX reads a list of names and {node, range} mappings; a
// single name is a one-item list.
func (l *RebuildList) UnmarshalYAMLX(d *yamlx.Decoder, path string, n *yaml.Node) {
	switch n.Kind {
	case yaml.ScalarNode:
		l.Items = []Rebuild{{String: String{Field: l.Field, V: n.Value}}}
		return
	case yaml.SequenceNode:
	default:
		d.Errorf(n, "%s must be a list of node names (or {node, range} mappings), not a %s", path, nodeKind(n))
		l.Set = false
		return
	}
	for i, raw := range n.Content {
		item, at, stop := d.Item(raw)
		if stop {
			return
		}
		ipath := fmt.Sprintf("%s[%d]", path, i)
		switch {
		case item.Kind == yaml.ScalarNode && item.ShortTag() != "!!null":
			l.Items = append(l.Items, Rebuild{String: String{Field: Field{Key: at, Value: at, Set: true}, V: item.Value}})
		case item.Kind == yaml.MappingNode:
			var it rebuildItem
			d.Decode(item, ipath, &it)
			if !it.Node.Set {
				d.Errorf(item, "%s has no node: write {node: NAME, range: {start: DATE, end: DATE}}", ipath)
				continue
			}
			l.Items = append(l.Items, Rebuild{String: it.Node, Range: it.Range})
		default:
			d.Errorf(item, "%s must be a node name or a {node, range} mapping, not a %s", ipath, nodeKind(item))
		}
	}
}

// nodeKind names what a YAML value is, for messages.
func nodeKind(n *yaml.Node) string {
	if n.Kind == yaml.ScalarNode {
		if n.ShortTag() == "!!null" {
			return "null"
		}
		return "text value"
	}
	return kindWord(n)
}
