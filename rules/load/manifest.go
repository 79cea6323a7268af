package load

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/bflint/bflint/lineage"
	"github.com/bflint/bflint/parser/manifest"
	"github.com/bflint/bflint/rules"
)

// manifestResult is a manifest loaded once per run, or why it could not
// be, with the names ref() and source() resolve to.
type manifestResult struct {
	dbt *rules.DBT
	// The names of ref() and source() are indexed on the first call, from
	// the parses of SQL files that run concurrently: many plans' SQL has
	// none, and the index costs a pass over every model.
	indexOnce sync.Once
	refs      map[string]string // model, snapshot and seed names, and "pkg.name", to relation names
	sources   map[string]string // "source.table" to relation names
}

// ManifestFor is the dbt manifest of a unit: the plan's
// downstream.manifest, else --manifest, else configuration manifest:, else
// target/manifest.json (or dbt_project.yml's target-path) of the nearest
// folder at or above dir that holds dbt_project.yml. "" when there is none.
func (l *loader) manifestFor(dir string) string {
	if l.manifestFlag != "" {
		return l.manifestFlag
	}
	if l.cfg != nil && l.cfg.Manifest.Set {
		if filepath.IsAbs(l.cfg.Manifest.V) {
			return l.cfg.Manifest.V
		}
		return filepath.Join(l.root, filepath.FromSlash(l.cfg.Manifest.V))
	}
	if path, found := manifest.Discover(dir, l.root); found {
		if _, err := os.Stat(path); err == nil {
			return path
		}
	}
	return ""
}

// manifest loads the manifest at path once per run.
func (l *loader) manifest(path string) *manifestResult {
	if r, ok := l.manifests[path]; ok {
		return r
	}
	d := &rules.DBT{Path: displayName(l.root, path)}
	d.Manifest, d.Err = manifest.LoadCached(path, l.cacheDir)
	d.Err = relativeError(d.Err, d.Path)
	if d.Err == nil {
		d.Graph = lineage.New(d.Manifest)
		catalog := filepath.Join(filepath.Dir(path), "catalog.json")
		if _, err := os.Stat(catalog); err == nil {
			d.Catalog, d.CatalogErr = manifest.LoadCatalogCached(catalog, l.cacheDir)
			d.CatalogErr = relativeError(d.CatalogErr, displayName(l.root, catalog))
		}
	}
	r := &manifestResult{dbt: d}
	l.manifests[path] = r
	return r
}

// relativeError names the file in a load error as the user sees it, not by
// the absolute path bflint opened, so reports stay repository-relative.
func relativeError(err error, name string) error {
	var e *manifest.Error
	if errors.As(err, &e) {
		e.Path = name
		return err
	}
	return unwrapPath(err)
}

// index maps the names ref() and source() use to relation names, so that
// SQL of dbt models reads as the relations it touches. It peeks at the
// kinds of node ref() and source() name, and no other: a manifest read from
// the cache decodes a node only when asked, and most nodes are tests.
func (r *manifestResult) index() {
	r.refs, r.sources = map[string]string{}, map[string]string{}
	for i := range r.dbt.Manifest.IDs() {
		switch kind, _ := r.dbt.Manifest.ResourceTypeAt(i); kind {
		case manifest.Model, manifest.Snapshot, manifest.Seed, manifest.Source:
		default:
			continue
		}
		n, _ := r.dbt.Manifest.Peek(i)
		rel := r.dbt.Manifest.RelationName(&n)
		if rel == "" {
			continue
		}
		switch n.ResourceType {
		case manifest.Model, manifest.Snapshot, manifest.Seed:
			// The latest version of a versioned model answers ref(name).
			if n.Version != "" && n.LatestVersion != "" && n.Version != n.LatestVersion {
				continue
			}
			r.refs[n.Name] = rel
			r.refs[n.PackageName+"."+n.Name] = rel
		case manifest.Source:
			if parts := strings.Split(n.UniqueID, "."); len(parts) >= 4 {
				r.sources[parts[2]+"."+parts[3]] = rel
			}
		}
	}
}

// resolve answers ref() and source() for the SQL parser.
func (r *manifestResult) resolve(kind string, args []string) string {
	if r == nil || r.dbt.Manifest == nil {
		return ""
	}
	r.indexOnce.Do(r.index)
	if kind == "source" {
		return r.sources[strings.Join(args, ".")]
	}
	return r.refs[strings.Join(args, ".")]
}
