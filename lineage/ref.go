package lineage

import (
	"strings"

	"github.com/bflint/bflint/parser/manifest"
)

// RefRelation is the relation a dbt model's SQL reaches through ref() or
// source(), so that its SQL reads as the relations it touches: ref(name)
// and ref(package, name) name the latest version of a model, snapshot or
// seed; source(source, table) a source table. Names compare exactly, as
// dbt compares them; when two nodes answer to one name, the later in the
// manifest does. "" when nothing answers or the node builds no relation.
//
// It reads the index Resolve uses, and decodes only the few nodes whose
// lower-cased name matches.
func (g *Graph) RefRelation(kind string, args []string) string {
	key := strings.Join(args, ".")
	ix := g.nameIndex()
	var candidates [][]int32
	var matches func(n *manifest.Node) bool
	if kind == "source" {
		candidates = [][]int32{ix.sources[strings.ToLower(key)]}
		matches = func(n *manifest.Node) bool {
			parts := strings.Split(n.UniqueID, ".")
			return n.ResourceType == manifest.Source && len(parts) >= 4 && parts[2]+"."+parts[3] == key
		}
	} else {
		candidates = [][]int32{ix.primary[strings.ToLower(key)]}
		if dot := strings.LastIndexByte(key, '.'); dot >= 0 {
			candidates = append(candidates, ix.primary[strings.ToLower(key[dot+1:])])
		}
		matches = func(n *manifest.Node) bool {
			switch n.ResourceType {
			case manifest.Model, manifest.Snapshot, manifest.Seed:
			default:
				return false
			}
			// The latest version of a versioned model answers ref(name).
			if n.Version != "" && n.LatestVersion != "" && n.Version != n.LatestVersion {
				return false
			}
			return n.Name == key || n.PackageName+"."+n.Name == key
		}
	}
	best, rel := int32(-1), ""
	for _, list := range candidates {
		for _, v := range list {
			if v <= best {
				continue
			}
			n, ok := g.m.Peek(int(v))
			if !ok || !matches(&n) {
				continue
			}
			if r := g.m.RelationName(&n); r != "" {
				best, rel = v, r
			}
		}
	}
	return rel
}
