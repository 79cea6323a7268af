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
	out := map[string]window.Window{}
	for _, r := range Reads(def, id, view, param) {
		if r.Bounded {
			out[r.Name] = r.Window
		}
	}
	return out
}

// TableRead is a relation a query reads, by its full name, and the
// window of its partitions read for one partition of the query's table.
type TableRead struct {
	Name string
	// Window is set when Bounded: both sides of the relation's date
	// column are bounded by the date parameter (for a view, any read
	// that bounds nothing passes partitions through). Filtered is set
	// when anything filters the reads at all.
	Window            window.Window
	Bounded, Filtered bool
}

// Reads lists what the query of the object id reads, in the order first
// read, each relation once: its reads in several query blocks are
// merged (the widest window; unbounded if one is). param is the date
// parameter ("@submission_date"). A table whose query reads its own
// previous partition and carries N days of history in bit patterns reads
// its parents over the N days before each partition; its own reads are
// left out.
func Reads(def *sqlparse.File, id string, view bool, param string) []TableRead {
	project, _, _ := strings.Cut(id, ".")
	var out []TableRead
	index := map[string]int{}
	bits, readsPrevious := 0, false
	for _, st := range def.Statements {
		bits = max(bits, st.BitsDays())
		for _, r := range st.ReadWindows(param) {
			name, ok := Qualify(r.Relation, project)
			if !ok {
				continue
			}
			if strings.EqualFold(name, id) {
				readsPrevious = readsPrevious || r.Bounded && r.Window == window.Days(-1, -1)
				continue
			}
			read := TableRead{Name: name, Window: r.Window, Bounded: r.Bounded || view, Filtered: r.Filtered}
			i, seen := index[name]
			if !seen {
				index[name] = len(out)
				out = append(out, read)
				continue
			}
			prev := &out[i]
			prev.Filtered = prev.Filtered || read.Filtered
			if prev.Bounded && read.Bounded {
				prev.Window = prev.Window.Union(read.Window)
			}
			prev.Bounded = prev.Bounded && read.Bounded
		}
	}
	if readsPrevious && bits > 1 {
		for i := range out {
			out[i].Window = window.Window{Lo: out[i].Window.Lo.Shift(1 - bits), Hi: out[i].Window.Hi}
		}
	}
	return out
}
