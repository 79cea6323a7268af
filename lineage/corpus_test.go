package lineage

import (
	"encoding/json"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/bflint/bflint/internal/testcorpus"
	"github.com/bflint/bflint/parser/manifest"
)

// corpusManifests lists the real manifests under testdata/thirdparty.
func corpusManifests(t *testing.T) []string {
	t.Helper()
	return testcorpus.Manifests(t)
}

// rawGraph is a manifest decoded with encoding/json alone, as an
// independent reading of the edges and resource types.
type rawGraph struct {
	children map[string][]string
	kinds    map[string]string
}

func readRaw(t *testing.T, path string) rawGraph {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	type entry struct {
		ResourceType string `json:"resource_type"`
	}
	var raw struct {
		ChildMap       map[string][]string `json:"child_map"`
		Nodes          map[string]entry    `json:"nodes"`
		Sources        map[string]entry    `json:"sources"`
		Exposures      map[string]entry    `json:"exposures"`
		Metrics        map[string]entry    `json:"metrics"`
		SemanticModels map[string]entry    `json:"semantic_models"`
		SavedQueries   map[string]entry    `json:"saved_queries"`
		UnitTests      map[string]entry    `json:"unit_tests"`
		Functions      map[string]entry    `json:"functions"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if raw.ChildMap == nil {
		t.Fatalf("%s has no child_map to check lineage against", path)
	}
	g := rawGraph{children: raw.ChildMap, kinds: map[string]string{}}
	for _, section := range []map[string]entry{raw.Nodes, raw.Sources, raw.Exposures, raw.Metrics, raw.SemanticModels, raw.SavedQueries, raw.UnitTests, raw.Functions} {
		for id, e := range section {
			g.kinds[id] = e.ResourceType
		}
	}
	return g
}

func (r rawGraph) isTest(id string) bool {
	kind, ok := r.kinds[id]
	if !ok || kind == "" {
		kind, _, _ = strings.Cut(id, ".")
	}
	return kind == "test" || kind == "unit_test"
}

// closure is every node reachable from id in one step or more, other than
// id, tests and unit tests, sorted: a plain breadth-first search.
func (r rawGraph) closure(id string) []string {
	seen := map[string]bool{id: true}
	queue := []string{id}
	out := []string{}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		for _, c := range r.children[v] {
			if seen[c] {
				continue
			}
			seen[c] = true
			queue = append(queue, c)
			if !r.isTest(c) {
				out = append(out, c)
			}
		}
	}
	slices.Sort(out)
	return out
}

// maxTargets bounds the work per manifest; the corpus's largest has a few
// hundred nodes with children.
const maxTargets = 150

func TestCorpusDownstream(t *testing.T) {
	for _, path := range corpusManifests(t) {
		t.Run(path, func(t *testing.T) {
			m, err := manifest.Load(path)
			if err != nil {
				t.Fatal(err)
			}
			g := New(m)
			raw := readRaw(t, path)
			if c := g.Cycles(); len(c) > 0 {
				t.Errorf("Cycles = %q in a manifest dbt wrote", c)
			}
			var targets []string
			for id, children := range raw.children {
				if len(children) > 0 && !raw.isTest(id) {
					targets = append(targets, id)
				}
			}
			slices.Sort(targets)
			if len(targets) == 0 {
				t.Fatal("no node with children")
			}
			if len(targets) > maxTargets {
				// Evenly spaced, so every resource type's ids stay in.
				step := float64(len(targets)) / maxTargets
				var some []string
				for i := range maxTargets {
					some = append(some, targets[int(float64(i)*step)])
				}
				targets = some
			}
			for _, id := range targets {
				down := g.Downstream(id)
				equal(t, "Downstream("+id+")", down, raw.closure(id))
				rebuild := g.Rebuild(id)
				for _, r := range rebuild {
					if _, found := slices.BinarySearch(down, r); !found {
						t.Errorf("Rebuild(%s) lists %s, which is not downstream", id, r)
					}
					if n := m.Node(r); n == nil || n.ResourceType != manifest.Model || n.Config.Materialized == "view" || n.Config.Materialized == "ephemeral" {
						t.Errorf("Rebuild(%s) lists %s, which is no model that stores rows", id, r)
					}
				}
				checkOrder(t, m, rebuild)
				for _, e := range g.Notify(id) {
					if raw.kinds[e] != "exposure" {
						t.Errorf("Notify(%s) lists %s, which is no exposure", id, e)
					}
				}
				for _, s := range g.Snapshots(id) {
					if raw.kinds[s] != "snapshot" {
						t.Errorf("Snapshots(%s) lists %s, which is no snapshot", id, s)
					}
				}
			}
		})
	}
}

// TestCorpusResolve resolves every node a user may name by its unique_id
// and its relation name, and checks the names the bouncer project shares
// between a versioned model, a source, an exposure and semantic models.
func TestCorpusResolve(t *testing.T) {
	for _, path := range corpusManifests(t) {
		t.Run(path, func(t *testing.T) {
			m, err := manifest.Load(path)
			if err != nil {
				t.Fatal(err)
			}
			g := New(m)
			for _, n := range m.Nodes() {
				if n.ResourceType == manifest.Test || n.ResourceType == manifest.UnitTest {
					continue
				}
				if got, err := g.Resolve(n.UniqueID); got != n.UniqueID || err != nil {
					t.Errorf("Resolve(%s) = %q, %v", n.UniqueID, got, err)
				}
				rel := m.RelationName(n)
				if rel == "" || strings.Contains(rel, "(") {
					continue
				}
				got, err := g.Resolve(rel)
				var amb *AmbiguousError
				switch {
				case errors.As(err, &amb):
					if !slices.Contains(amb.Candidates, n.UniqueID) {
						t.Errorf("Resolve(%s) lists %q, not %s", rel, amb.Candidates, n.UniqueID)
					}
				case err != nil || got != n.UniqueID:
					t.Errorf("Resolve(%s) = %q, %v; want %s", rel, got, err, n.UniqueID)
				}
			}
			if !strings.Contains(path, "dbt-bouncer") {
				return
			}
			for name, want := range map[string]string{
				"customers":    "model.dbt_bouncer_test_project.customers.v3",
				"customers.v1": "model.dbt_bouncer_test_project.customers.v1",
				"orders":       "model.dbt_bouncer_test_project.orders",
			} {
				if got, err := g.Resolve(name); got != want || err != nil {
					t.Errorf("Resolve(%s) = %q, %v; want %s", name, got, err, want)
				}
			}
		})
	}
}
