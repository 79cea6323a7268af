package load

import (
	"errors"
	"github.com/bflint/bflint/parser/source"
	"os"
	"path/filepath"

	"github.com/bflint/bflint/lineage"
	"github.com/bflint/bflint/parser/manifest"
	"github.com/bflint/bflint/rules"
)

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
	if project := l.projectDirOf(dir); project != "" {
		path, ok := l.projectManifests[project]
		if !ok {
			path = manifest.InProject(project)
			if _, err := os.Stat(path); err != nil {
				path = ""
			}
			l.projectManifests[project] = path
		}
		return path
	}
	return ""
}

// projectDirOf is manifest.ProjectDir up to the run's root, remembered
// for every folder on the way: a project's SQL sits in many folders,
// which share their ancestors.
func (l *loader) projectDirOf(dir string) string {
	if project, ok := l.projectDirs[dir]; ok {
		return project
	}
	project := ""
	switch parent := filepath.Dir(dir); {
	case manifest.HoldsProject(dir):
		project = dir
	case dir != l.root && parent != dir:
		project = l.projectDirOf(parent)
	}
	l.projectDirs[dir] = project
	return project
}

// manifest loads the manifest at path once per run.
func (l *loader) manifest(path string) *rules.DBT {
	if r, ok := l.manifests[path]; ok {
		return r
	}
	d := &rules.DBT{Path: displayName(l.root, path)}
	d.ProjectDir, _ = manifest.ProjectDir(filepath.Dir(path), "/")
	d.Open = l.openProjectFile
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
	l.manifests[path] = d
	return d
}

// relativeError names the file in a load error as the user sees it, not by
// the absolute path bflint opened, so reports stay repository-relative.
func relativeError(err error, name string) error {
	var e *manifest.Error
	if errors.As(err, &e) {
		e.Path = name
		return err
	}
	return source.Cause(err)
}

// resolver answers ref() and source() for the SQL parser from the
// manifest's lineage graph; nil without one.
func resolver(d *rules.DBT) func(kind string, args []string) string {
	if d == nil || d.Graph == nil {
		return nil
	}
	return d.Graph.RefRelation
}

// openProjectFile reads a project file a rule asks for once per run, and
// places it in the file set under the name the user sees.
func (l *loader) openProjectFile(path string) (*source.File, error) {
	l.openedMu.Lock()
	defer l.openedMu.Unlock()
	if o, ok := l.opened[path]; ok {
		return o.file, o.err
	}
	var o openedFile
	// Raw bytes: dbt's checksum counts a byte-order mark too.
	content, err := source.ReadRegular(path, maxFileSize)
	if err != nil {
		o.err = source.Cause(err)
	} else {
		o.file = source.Add(l.fset, displayName(l.root, path), content)
	}
	if l.opened == nil {
		l.opened = map[string]openedFile{}
	}
	l.opened[path] = o
	return o.file, o.err
}

type openedFile struct {
	file *source.File
	err  error
}
