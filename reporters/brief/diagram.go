package brief

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/bflint/bflint/parser/manifest"
	"github.com/bflint/bflint/reporters"
)

// MaxDrawn is how many nodes a diagram draws one by one. Past it, the
// nodes derived from the target are drawn as one box per depth (how many
// steps below the target each first appears), each box counting its
// nodes by kind and naming three: a graph of hundreds of boxes is
// unreadable, and GitHub stops rendering long before.
const MaxDrawn = 30

// diagram is a Mermaid flowchart of what follows the target: the lineage
// below it when the unit has one (target is its unique_id, derived its
// sorted descendants, mv.Views not yet bounded), else the plan's own
// order.
func diagram(l lineageView, target, targetName string, derived []string, mv *Moves) string {
	var d flowchart
	top := d.node(`[["%s"]]`, label(shortName(l, cmp.Or(target, targetName)), "target"))
	switch {
	case target == "":
		d.planOrder(top, mv)
	case len(derived) < MaxDrawn:
		d.lineage(l, target, top, derived, mv)
	default:
		d.depths(l, target, top, derived)
	}
	return d.String()
}

// flowchart collects the lines of a Mermaid flowchart.
type flowchart struct {
	lines []string
	n     int
	// down draws top to bottom: a chain of depth boxes read left to right
	// would be too wide to read on a page.
	down bool
}

func (d *flowchart) node(shape, text string) string {
	id := fmt.Sprintf("n%d", d.n)
	d.n++
	d.lines = append(d.lines, "  "+id+fmt.Sprintf(shape, text))
	return id
}

func (d *flowchart) edge(from, arrow, to string) {
	d.lines = append(d.lines, "  "+from+" "+arrow+" "+to)
}

func (d *flowchart) String() string {
	direction := "LR"
	if d.down {
		direction = "TD"
	}
	return "flowchart " + direction + "\n" + strings.Join(d.lines, "\n") + "\n"
}

// planOrder draws the plan's rebuilds and the plans after it as a chain
// in the order they run (the plan says nothing of what reads what), and
// the exposures it notifies.
func (d *flowchart) planOrder(top string, mv *Moves) {
	prev := top
	drawn := 1
	var rest int
	for _, st := range mv.Downstream {
		if st.By != ByRebuild && st.By != ByPlan {
			continue
		}
		if drawn >= MaxDrawn {
			rest++
			continue
		}
		id := d.node(`["%s"]`, label(st.Node, stepNote(st)))
		d.edge(prev, "-->|then|", id)
		prev = id
		drawn++
	}
	if rest > 0 {
		d.edge(prev, "-->|then|", d.node(`["%s"]`, fmt.Sprintf("%d more", rest)))
	}
	for _, e := range mv.Exposures[:min(len(mv.Exposures), max(MaxDrawn-drawn, 0))] {
		d.edge(top, "-.->", d.node(`{{"%s"}}`, label(e.Node, "exposure")))
	}
}

// lineage draws every node derived from target, with the edges between
// them, each labelled with how it follows the correction.
func (d *flowchart) lineage(l lineageView, target, top string, derived []string, mv *Moves) {
	notes := map[string]string{}
	for _, st := range mv.Downstream {
		if id := l.resolve(st.Node); id != "" {
			notes[id] = stepNote(st)
		}
	}
	ids := map[string]string{target: top}
	direct := map[string]bool{}
	for _, v := range mv.Views {
		direct[v] = true
	}
	for _, id := range derived {
		n := l.node(id)
		kind := l.kind(id)
		note := kind
		if s := notes[id]; s != "" {
			note += ", " + s
		}
		shape := `["%s"]`
		switch {
		case n != nil && n.ResourceType == manifest.Exposure:
			shape, note = `{{"%s"}}`, "exposure"
		case n != nil && n.ResourceType == manifest.Snapshot:
			shape, note = `[("%s")]`, "snapshot, history not rewritten"
		case kind == "view" && direct[id]:
			shape, note = `(["%s"])`, "view, reads the corrected rows"
		case kind == "view":
			shape, note = `(["%s"])`, "view"
		case kind == "ephemeral":
			shape, note = `(["%s"])`, "ephemeral, no relation of its own"
		}
		ids[id] = d.node(shape, label(shortName(l, id), note))
	}
	for _, id := range append([]string{target}, derived...) {
		for _, child := range l.m.Children(id) {
			if to, ok := ids[child]; ok {
				d.edge(ids[id], "-->", to)
			}
		}
	}
}

// depths draws the nodes derived from target as one box per depth.
func (d *flowchart) depths(l lineageView, target, top string, derived []string) {
	d.down = true
	inSet := func(id string) bool { _, ok := slices.BinarySearch(derived, id); return ok }
	depth := map[string]int{target: 0}
	var levels [][]string
	frontier := []string{target}
	for len(frontier) > 0 {
		var next []string
		for _, id := range frontier {
			for _, c := range l.m.Children(id) {
				if _, seen := depth[c]; !seen && inSet(c) {
					depth[c] = len(levels) + 1
					next = append(next, c)
				}
			}
		}
		if len(next) > 0 {
			slices.Sort(next)
			levels = append(levels, next)
		}
		frontier = next
	}
	prev := top
	for i, level := range levels {
		if i == MaxDrawn-2 { // the target and this box make MaxDrawn
			rest := 0
			for _, lv := range levels[i:] {
				rest += len(lv)
			}
			d.edge(prev, "-->", d.node(`["%s"]`, fmt.Sprintf("%d more nodes, %d steps down and deeper", rest, i+1)))
			return
		}
		id := d.node(`["%s"]`, depthLabel(l, i+1, level))
		d.edge(prev, "-->", id)
		prev = id
	}
}

// depthLabel counts a depth's nodes by kind and names the first three.
func depthLabel(l lineageView, depth int, ids []string) string {
	counts := map[string]int{}
	var kinds []string
	for _, id := range ids {
		k := l.kind(id)
		if n := l.node(id); n != nil && (n.ResourceType == manifest.Exposure || n.ResourceType == manifest.Snapshot) {
			k = n.ResourceType
		}
		if k == "" {
			k = "other"
		}
		if counts[k] == 0 {
			kinds = append(kinds, k)
		}
		counts[k]++
	}
	slices.Sort(kinds)
	parts := make([]string, len(kinds))
	for i, k := range kinds {
		parts[i] = reporters.Plural(counts[k], kindNoun(k))
	}
	// The tables come first: they are what has to be rebuilt.
	byRank := slices.Clone(ids)
	slices.SortStableFunc(byRank, func(a, b string) int { return kindRank(l, a) - kindRank(l, b) })
	names := make([]string, 0, 3)
	for _, id := range byRank[:min(3, len(byRank))] {
		names = append(names, shortName(l, id))
	}
	if len(ids) > 3 {
		names = append(names, "…")
	}
	steps := "steps"
	if depth == 1 {
		steps = "step"
	}
	return escapeLabel(fmt.Sprintf("%d %s down: %s", depth, steps, reporters.Plural(len(ids), "node"))) + "<br/>" + escapeLabel(strings.Join(parts, ", ")) + "<br/>" + escapeLabel(strings.Join(names, ", "))
}

// kindNoun names one node of a kind, as a count says it.
func kindNoun(kind string) string {
	switch kind {
	case "incremental", "deprecated":
		return kind + " table"
	case "ephemeral":
		return "ephemeral model"
	case "materialized_view":
		return "materialized view"
	case "other":
		return "other node"
	}
	return kind
}

// kindRank orders nodes for naming: those that store rows, then views,
// then the rest.
func kindRank(l lineageView, id string) int {
	switch n := l.node(id); {
	case n == nil:
		return 3
	case n.ResourceType == manifest.Exposure || n.ResourceType == manifest.Snapshot:
		return 2
	case l.g.StoresRows(id):
		return 0
	}
	return 1
}

// stepNote says how a step follows the correction, in a few words.
func stepNote(st Step) string {
	switch st.By {
	case ByRebuild:
		return fmt.Sprintf("rebuild %d", st.Order)
	case ByPlan:
		return "plan " + st.Plan
	case BySkip:
		return "skipped"
	case BySchedule:
		return "next scheduled run"
	case ByUnion:
		return "through a union view"
	case ByNewer:
		return "created since"
	}
	return "not listed"
}

// shortName is how a diagram names a node: a dbt node by its name, a
// bigquery-etl table by dataset.table (the table beside it names the
// project).
func shortName(l lineageView, id string) string {
	if n := l.node(id); n != nil && n.Name != "" && strings.HasPrefix(id, n.ResourceType+".") {
		return n.Name
	}
	if parts := strings.Split(id, "."); len(parts) == 3 {
		return parts[1] + "." + parts[2]
	}
	return id
}

// label is a node's text: its name, and a note under it.
func label(name, note string) string {
	if note == "" {
		return escapeLabel(name)
	}
	return escapeLabel(name) + "<br/>" + escapeLabel(note)
}

// escapeLabel keeps text inside a quoted Mermaid label: quotes and angle
// brackets are entity codes there.
var labelEscaper = strings.NewReplacer("#", "#35;", `"`, "#quot;", "<", "#lt;", ">", "#gt;", "\n", " ", "`", "'")

func escapeLabel(s string) string { return labelEscaper.Replace(s) }
