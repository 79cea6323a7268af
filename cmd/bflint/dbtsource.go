package main

import (
	"errors"
	"github.com/bflint/bflint/parser/sqlparse/jinja"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/bflint/bflint/parser/dbtproject"
	"github.com/bflint/bflint/parser/manifest"
)

// dbtLineage is where a command's dbt lineage was read from.
type dbtLineage struct {
	m *manifest.Manifest
	// path is the manifest, or the dbt_project.yml of a project read
	// from its files, as messages name it.
	path string
	// project is set when the lineage was read from the project's own
	// files because no manifest was there.
	project *dbtproject.Project
}

// source says where the config and edges came from, for what a command
// writes: "the manifest" or "the dbt project".
func (d dbtLineage) source() string {
	if d.project != nil {
		return "the dbt project"
	}
	return "the manifest"
}

// errNoDBTProject says that no dbt_project.yml is at or above the working
// directory.
var errNoDBTProject = errors.New("no dbt project")

// readDBTLineage reads the manifest the flag names; else the one found
// from the working directory (target/manifest.json of the nearest dbt
// project); else, when dbt has not written it (target/ is not committed,
// so a fresh clone has none), the project's own files, as lint reads
// them. errNoDBTProject when there is no dbt project either.
func readDBTLineage(command, manifestFlag string, cached bool) (dbtLineage, error) {
	return readDBTLineageFrom("", command, manifestFlag, cached)
}

// readDBTLineageFrom is readDBTLineage looking for the project from the
// folder from ("" is the working directory), as if run there; paths are
// still shown from the working directory.
func readDBTLineageFrom(from, command, manifestFlag string, cached bool) (dbtLineage, error) {
	load := manifest.Load
	if cached {
		load = func(path string) (*manifest.Manifest, error) { return manifest.LoadCached(path, manifest.CacheDir()) }
	}
	if manifestFlag != "" {
		m, err := load(manifestFlag)
		if err != nil {
			return dbtLineage{}, inputErrorf("%s: %v", command, err)
		}
		return dbtLineage{m: m, path: manifestFlag}, nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return dbtLineage{}, inputErrorf("%s: %v; pass --manifest FILE", command, err)
	}
	start := wd
	if from != "" {
		if start, err = filepath.Abs(from); err != nil {
			return dbtLineage{}, inputErrorf("%s: %v", command, err)
		}
	}
	project, found := manifest.ProjectDir(start, "")
	if !found {
		return dbtLineage{}, errNoDBTProject
	}
	path, _ := manifest.Discover(start, "")
	if rel, err := filepath.Rel(wd, path); err == nil {
		path = rel
	}
	m, err := load(path)
	switch {
	case err == nil:
		return dbtLineage{m: m, path: path}, nil
	case !errors.Is(err, fs.ErrNotExist):
		return dbtLineage{}, inputErrorf("%s: %v", command, err)
	}
	p := dbtproject.Open(project, dbtproject.Options{})
	shown := filepath.Join(project, dbtproject.FileName)
	if rel, err := filepath.Rel(wd, shown); err == nil {
		shown = rel
	}
	return dbtLineage{m: p.Graph(), path: shown, project: p}, nil
}

// macros are the project's macros, read from its files: a manifest keeps
// no macro SQL. nil when there is no project.
func (d dbtLineage) macros() map[string]jinja.Macro {
	if d.project != nil {
		return d.project.Macros
	}
	if dir := d.projectDir(); dir != "" {
		return dbtproject.Open(dir, dbtproject.Options{}).Macros
	}
	return nil
}

// projectDir is the folder of the dbt project the lineage belongs to,
// against which its nodes' original_file_path values are relative: the
// project read from its files, or the nearest dbt_project.yml above the
// manifest; "" when there is none.
func (d dbtLineage) projectDir() string {
	if d.project != nil {
		return d.project.Dir
	}
	abs, err := filepath.Abs(d.path)
	if err != nil {
		return ""
	}
	dir, _ := manifest.ProjectDir(filepath.Dir(abs), "/")
	return dir
}
