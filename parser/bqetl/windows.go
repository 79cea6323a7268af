package bqetl

import (
	"go/token"
	"path/filepath"
	"strings"

	"github.com/bflint/bflint/parser/manifest"
	"github.com/bflint/bflint/parser/source"
	"github.com/bflint/bflint/parser/sqlparse"
	"github.com/bflint/bflint/parser/window"
)

// ReadWindows returns how the object id of a tree's lineage m reads each
// of its parents: the window of the parent's partitions read for one
// partition of its own (see sqlparse.ReadWindows), by the parent's id. A
// parent missing from the result is read in a way bflint cannot bound:
// unfiltered by a table (every partition), or by anything but the date
// parameter. A view passes its parents' partitions through unless it
// bounds them itself. A table whose query reads its own previous
// partition and carries N days of history in bit patterns (the
// clients_last_seen tables) reads its parents over the N days before
// each partition. root is the tree's sql folder.
func ReadWindows(root string, m *manifest.Manifest, id string) map[string]window.Window {
	n := m.Node(id)
	if n == nil || n.OriginalFilePath == "" || !strings.HasSuffix(n.OriginalFilePath, ".sql") {
		return nil
	}
	dir := filepath.Join(filepath.Dir(root), filepath.FromSlash(n.OriginalFilePath))
	text, err := source.ReadRegular(dir, source.MaxFileSize)
	if err != nil {
		return nil
	}
	view := n.Config.Materialized == "view"
	param := "@submission_date"
	if !view {
		meta, err := source.ReadRegular(filepath.Join(filepath.Dir(dir), MetadataName), source.MaxFileSize)
		if err == nil {
			t := readTable(meta, func(int, int) token.Pos { return token.NoPos })
			if t.DateParameter.V != "" {
				param = "@" + t.DateParameter.V
			}
		}
	}
	def := sqlparse.Parse(string(text), sqlparse.Options{ModelName: strings.TrimSuffix(filepath.Base(dir), ".sql")})
	project, _, _ := strings.Cut(id, ".")
	out := map[string]window.Window{}
	unbounded := map[string]bool{}
	bits, readsPrevious := 0, false
	for _, st := range def.Statements {
		bits = max(bits, st.BitsDays())
		for _, r := range st.ReadWindows(param) {
			name, ok := Qualify(r.Relation, project)
			if !ok {
				continue
			}
			switch {
			case strings.EqualFold(name, id):
				readsPrevious = readsPrevious || r.Bounded && r.Window == window.Days(-1, -1)
				continue
			case !r.Bounded && !view:
				unbounded[name] = true
				continue
			}
			w := r.Window
			if prev, ok := out[name]; ok {
				w = prev.Union(w)
			}
			out[name] = w
		}
	}
	for name := range unbounded {
		delete(out, name)
	}
	if readsPrevious && bits > 1 {
		for name, w := range out {
			out[name] = window.Window{Lo: w.Lo.Shift(1 - bits), Hi: w.Hi}
		}
	}
	return out
}
