package manifest

import (
	"crypto/sha256"
	"path/filepath"
)

// Assemble builds a manifest from nodes that another source of lineage
// describes (a bigquery-etl tree, where no dbt run writes one), so that
// lineage reads it as it reads a dbt manifest. Each node's
// DependsOn.Nodes are its parents; child_map is derived from them, and an
// id that a DependsOn names but no node defines is kept as dbt's
// manifests keep such ids. The nodes are owned by the manifest afterwards.
func Assemble(projectName, adapterType string, nodes []*Node) *Manifest {
	b := newBuilder()
	b.m.ProjectName, b.m.AdapterType = projectName, adapterType
	for _, n := range nodes {
		b.nodes[n.UniqueID] = n
	}
	b.build()
	return b.m
}

// AssembleCached returns the manifest build assembles, through the cache
// in dir: sources is a digest of everything build reads (the caller knows
// what that is), so an entry is used only for the same inputs and bflint
// build. "" calls build. A failing build is returned as it is, never
// cached.
func AssembleCached(dir string, sources [sha256.Size]byte, build func() (*Manifest, error)) (*Manifest, error) {
	if dir == "" {
		return build()
	}
	key := entryKey(assembledKind, sources)
	entry := filepath.Join(dir, entryName(assembledKind, key))
	if m := readEntry(entry, key); m != nil {
		touch(entry)
		return m, nil
	}
	m, err := build()
	if err != nil {
		return nil, err
	}
	if p, ok := marshalManifest(m); ok && writeEntry(dir, entry, key, p.writeTo) {
		evict(dir)
	}
	return m, nil
}
