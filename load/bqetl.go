package load

import (
	"os"
	"path/filepath"

	"github.com/bflint/bflint/parser/bqetl"
	"github.com/bflint/bflint/parser/source"
	"github.com/bflint/bflint/rules"
)

// isBqetlFile reports whether path is a bigquery-etl backfill.yaml: the
// name bqetl gives it, with the table's metadata.yaml beside it.
func isBqetlFile(path string) bool {
	if filepath.Base(path) != bqetl.FileName {
		return false
	}
	info, err := os.Stat(filepath.Join(filepath.Dir(path), bqetl.MetadataName))
	return err == nil && info.Mode().IsRegular()
}

// readBqetl reads a backfill.yaml with its table's metadata.yaml into one
// plan per entry. A metadata.yaml that cannot be read leaves the table's
// settings unknown; the entries are still read.
func (l *loader) readBqetl(path string) []loadedPlan {
	dir := filepath.Dir(path)
	content, err := readFile(path)
	f := source.Add(l.fset, displayName(l.root, path), content)
	if err != nil {
		return []loadedPlan{{unit: &rules.Unit{File: f, ReadError: err}, dir: dir}}
	}
	var meta *source.File
	metaPath := filepath.Join(dir, bqetl.MetadataName)
	if mc, err := readFile(metaPath); err == nil {
		meta = source.Add(l.fset, displayName(l.root, metaPath), mc)
	}
	table := bqetl.ReadTable(meta)
	directives := rules.YAMLDirectives(f)
	plans := bqetl.Plans(bqetl.ReadFile(f), table, filepath.ToSlash(dir))
	out := make([]loadedPlan, len(plans))
	for i, p := range plans {
		out[i] = loadedPlan{unit: &rules.Unit{File: f, Plan: p}, dir: dir}
	}
	// A directive belongs to the entry it stands in (or just above): each
	// entry is a unit of its own, where another entry's directive would
	// match nothing.
	for _, d := range directives {
		owner := 0
		for i, p := range plans {
			if p.Key.IsValid() && p.Key <= d.From {
				owner = i
			}
		}
		out[owner].unit.Directives = append(out[owner].unit.Directives, d)
	}
	return out
}
