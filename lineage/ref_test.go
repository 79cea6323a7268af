package lineage

import (
	"strings"
	"testing"

	"github.com/bflint/bflint/parser/manifest"
)

// refIndex is ref() and source() answered the plain way, a map per kind
// filled in manifest order, to check RefRelation against.
func refIndex(m *manifest.Manifest) (refs, sources map[string]string) {
	refs, sources = map[string]string{}, map[string]string{}
	for _, n := range m.Nodes() {
		rel := m.RelationName(n)
		if rel == "" {
			continue
		}
		switch n.ResourceType {
		case manifest.Model, manifest.Snapshot, manifest.Seed:
			if n.Version != "" && n.LatestVersion != "" && n.Version != n.LatestVersion {
				continue
			}
			refs[n.Name] = rel
			refs[n.PackageName+"."+n.Name] = rel
		case manifest.Source:
			if parts := strings.Split(n.UniqueID, "."); len(parts) >= 4 {
				sources[parts[2]+"."+parts[3]] = rel
			}
		}
	}
	return refs, sources
}

func TestRefRelation(t *testing.T) {
	for _, path := range append(corpusManifests(t), shopManifest) {
		m, err := manifest.Load(path)
		if err != nil {
			t.Fatal(err)
		}
		g := New(m)
		refs, sources := refIndex(m)
		checked := 0
		for key, want := range refs {
			if got := g.RefRelation("ref", strings.Split(key, ".")); got != want {
				t.Errorf("%s: ref(%q) = %q, want %q", path, key, got, want)
			}
			if got := g.RefRelation("ref", []string{key}); got != want {
				t.Errorf("%s: ref(%q) as one argument = %q, want %q", path, key, got, want)
			}
			// dbt compares names exactly.
			if upper := strings.ToUpper(key); upper != key && refs[upper] == "" {
				if got := g.RefRelation("ref", []string{upper}); got != "" {
					t.Errorf("%s: ref(%q) = %q, want nothing", path, upper, got)
				}
			}
			checked++
		}
		for key, want := range sources {
			if got := g.RefRelation("source", strings.SplitN(key, ".", 2)); got != want {
				t.Errorf("%s: source(%q) = %q, want %q", path, key, got, want)
			}
			checked++
		}
		if got := g.RefRelation("ref", []string{"no_such_model_anywhere"}); got != "" {
			t.Errorf("%s: an unknown ref gave %q", path, got)
		}
		t.Logf("%s: %d names checked", path, checked)
		if checked == 0 && len(m.Nodes()) > 20 {
			t.Errorf("%s: no ref or source to check", path)
		}
	}
}
