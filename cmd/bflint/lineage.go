package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/bflint/bflint/lineage"
	"github.com/bflint/bflint/parser/bqetl"
	"github.com/bflint/bflint/parser/manifest"
	"github.com/bflint/bflint/parser/window"
	"github.com/bflint/bflint/reporters"
)

const lineageAbout = `Prints what a correction of TARGET (a unique_id, a model, snapshot or seed
name, source_name.table_name, or a schema.table relation) touches downstream:
the models that must be rebuilt after it, in order; the snapshots, which
cannot be rebuilt; and the exposures whose readers must be told.

The lineage is found from DIR, or the working directory without one: a dbt
manifest, or, when dbt has not written one (as in a
fresh clone), the dbt project's own files read as dbt parses them; in a
bigquery-etl repository (no dbt_project.yml, a sql/ folder of
project/dataset/table folders) the tree's own: metadata.yaml references where bqetl generated them, else each
table's and view's SQL. There the target is project.dataset.table (or
dataset.table), and "backfill" lists the incremental tables, which keep
their partitions and need entries of their own; a table its query writes
whole is recomputed by its next scheduled run. "through_union" lists the
incremental tables that read the target only through a view unioning it
with other relations (a per-app view): whether they read its rows depends
on what they filter on, so check their queries.

JSON output: {"target", "downstream" (every descendant but tests, sorted),
"rebuild" (in rebuild order), "notify" (exposures), "snapshots",
"backfill" and "through_union" for a bigquery-etl tree, and "cycles" when child_map loops
through the target's lineage}.

The decoded manifest, and a tree's lineage, are cached in
$BFLINT_CACHE_DIR, by default the bflint folder of the user's cache folder
($XDG_CACHE_HOME or ~/.cache on Linux); BFLINT_CACHE_DIR=off turns the
cache off.`

// lineageReport is the JSON form of the command's output; the field order is
// the documented key order.
type lineageReport struct {
	Target       string     `json:"target"`
	Downstream   []string   `json:"downstream"`
	Rebuild      []string   `json:"rebuild"`
	Notify       []string   `json:"notify"`
	Snapshots    []string   `json:"snapshots"`
	Backfill     []string   `json:"backfill,omitempty"`
	ThroughUnion []string   `json:"through_union,omitempty"`
	Cycles       [][]string `json:"cycles,omitempty"`
	// Windows are the nodes to rebuild that read a window of the
	// target's partitions, and the range each is rebuilt over.
	Windows []lineageWindow `json:"windows,omitempty"`
}

// lineageWindow is a node reading a window of the target: "days -27..0"
// is rebuilt over "S..E+27" when the target is corrected over S..E.
type lineageWindow struct {
	Node    string `json:"node"`
	Window  string `json:"window"`
	Rebuild string `json:"rebuild"`
}

func lineageCommand(args []string, stdout io.Writer) error {
	command := lookupSubcommand("lineage")
	flags := flag.NewFlagSet("bflint lineage", flag.ContinueOnError)
	flags.SetOutput(io.Discard)
	command.flags(flags)
	// The target usually comes first, as in "bflint lineage fct_orders --format json".
	targets, err := parseInterleaved(flags, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			writeCommandHelp(stdout, command)
			return &exitError{code: exitClean}
		}
		return commandUsageErrorf("lineage", "lineage: %v", err)
	}
	manifestPath, treePath, format := flagValue(flags, "manifest"), flagValue(flags, "tree"), flagValue(flags, "format")
	// A folder after the target is where the lineage is found, as if the
	// command ran there: bflint lineage fct_orders analytics/dbt.
	from := ""
	if len(targets) == 2 {
		if info, err := os.Stat(targets[1]); err == nil && info.IsDir() {
			from, targets = targets[1], targets[:1]
		}
	}
	if len(targets) != 1 {
		return commandUsageErrorf("lineage", "lineage takes one target, a unique_id, model name or relation, and at most a folder to find the lineage in, e.g. bflint lineage model.shop.fct_orders analytics/dbt")
	}
	if from != "" && (manifestPath != "" || treePath != "") {
		return commandUsageErrorf("lineage", "lineage: pass a folder or --manifest/--tree, not both")
	}
	if format != "text" && format != "json" {
		return commandUsageErrorf("lineage", "lineage --format %q: use text or json", format)
	}
	if manifestPath != "" && treePath != "" {
		return commandUsageErrorf("lineage", "lineage: pass --manifest or --tree, not both")
	}
	m, path, err := lineageSource(from, manifestPath, treePath)
	if err != nil {
		return err
	}
	g := lineage.New(m)
	id, err := g.Resolve(targets[0])
	if err != nil {
		return inputErrorf("lineage: target %v (lineage of %s)", err, path)
	}
	report := lineageReport{
		Target:     id,
		Downstream: g.Downstream(id),
		Rebuild:    g.Rebuild(id),
		Notify:     g.Notify(id),
		Snapshots:  g.Snapshots(id),
	}
	if m.ProjectName == bqetl.ProjectName {
		report.Backfill, report.ThroughUnion = []string{}, []string{}
		reached := map[string]bool{}
		for _, r := range g.RebuildAvoiding(id, bqetl.UnionViews(m)) {
			reached[r] = true
		}
		for _, r := range report.Rebuild {
			switch {
			case g.Materialization(r) != "incremental":
			case reached[r]:
				report.Backfill = append(report.Backfill, r)
			default:
				report.ThroughUnion = append(report.ThroughUnion, r)
			}
		}
	}
	if m.ProjectName == bqetl.ProjectName {
		windows := lineage.NewWindows(func(node string) map[string]window.Window { return bqetl.ReadWindows(path, m, node) })
		for _, r := range report.Rebuild {
			if w, ok := windows.Along(g.Path(id, r)); ok && !w.IsSame() {
				report.Windows = append(report.Windows, lineageWindow{Node: r, Window: w.String(), Rebuild: w.Rebuild()})
			}
		}
	}
	for _, c := range g.Cycles() {
		if slices.Contains(c, id) || slices.ContainsFunc(c, func(n string) bool { _, ok := slices.BinarySearch(report.Downstream, n); return ok }) {
			report.Cycles = append(report.Cycles, c)
		}
	}
	if format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return enc.Encode(report)
	}
	return reporters.WritePrintable(stdout, func(w io.Writer) error { return writeLineageText(w, g, m, &report) })
}

// lineageSource reads the lineage the flags name, else the dbt lineage
// found from the working directory (its manifest, or without one the
// project's own files), else the bigquery-etl tree found from it; path
// is what was read, for messages.
func lineageSource(from, manifestPath, treePath string) (m *manifest.Manifest, path string, err error) {
	if treePath == "" {
		d, err := readDBTLineageFrom(from, "lineage", manifestPath, true)
		switch {
		case err == nil:
			return d.m, d.path, nil
		case !errors.Is(err, errNoDBTProject):
			return nil, "", err
		}
		tree, ok := discoverTreeFrom(from)
		if !ok {
			where := "the working directory"
			if from != "" {
				where = from
			}
			return nil, "", inputErrorf("lineage: no dbt_project.yml in %s or any folder above it, and no bigquery-etl sql/ folder; pass --manifest FILE or --tree DIR", where)
		}
		treePath = tree
	}
	lin, err := bqetl.ReadLineageCached(treePath, true, manifest.CacheDir())
	if err != nil {
		return nil, "", inputErrorf("lineage: %v", err)
	}
	return lin.Manifest, treePath, nil
}

// discoverTree finds the sql/ folder of a bigquery-etl repository: the
// working directory or a folder above it named sql, or a sql folder
// beside one of them. The path is relative to the working directory when
// it can be.
func discoverTree() (string, bool) { return discoverTreeFrom("") }

// discoverTreeFrom is discoverTree from the folder from ("" is the working
// directory).
func discoverTreeFrom(from string) (string, bool) {
	wd, err := os.Getwd()
	if err != nil {
		return "", false
	}
	start := wd
	if from != "" {
		if start, err = filepath.Abs(from); err != nil {
			return "", false
		}
	}
	for dir := start; ; dir = filepath.Dir(dir) {
		for _, candidate := range []string{dir, filepath.Join(dir, "sql")} {
			if filepath.Base(candidate) != "sql" {
				continue
			}
			if info, err := os.Stat(candidate); err == nil && info.IsDir() {
				if rel, err := filepath.Rel(wd, candidate); err == nil {
					candidate = rel
				}
				return candidate, true
			}
		}
		if filepath.Dir(dir) == dir {
			return "", false
		}
	}
}

// maxTreeDepth bounds the indentation of the tree: a generated chain of
// thousands of models would otherwise print lines of quadratic total
// length. Every node below the cut still appears in the lists after it.
const maxTreeDepth = 40

// writeLineageText prints the downstream graph as a tree from the target,
// then the rebuild order, the snapshots and the exposures. A node reached
// again by another path is printed again, marked, without its children.
func writeLineageText(w io.Writer, g *lineage.Graph, m *manifest.Manifest, r *lineageReport) error {
	bw := bufio.NewWriter(w)
	position := make(map[string]int, len(r.Rebuild))
	for i, id := range r.Rebuild {
		position[id] = i + 1
	}
	snapshots := make(map[string]bool, len(r.Snapshots))
	for _, id := range r.Snapshots {
		snapshots[id] = true
	}
	notify := make(map[string]bool, len(r.Notify))
	for _, id := range r.Notify {
		notify[id] = true
	}
	shown := make(map[string]bool, len(r.Downstream))
	for _, id := range r.Downstream {
		shown[id] = false
	}
	// children lists what the tree shows below a node: its descendants
	// other than tests, never the target again (a cycle back to it).
	children := func(id string) []string {
		var out []string
		for _, c := range m.Children(id) {
			if _, ok := shown[c]; ok {
				out = append(out, c)
			}
		}
		return out
	}
	windows := make(map[string]lineageWindow, len(r.Windows))
	for _, w := range r.Windows {
		windows[w.Node] = w
	}
	describe := func(id string) string {
		text := reporters.OneLine(id) + " (" + nodeLabel(g, m, id) + ")"
		if w, ok := windows[id]; ok {
			text += fmt.Sprintf(" [reads it over %s: rebuild %s]", w.Window, w.Rebuild)
		}
		switch {
		case position[id] > 0:
			text += fmt.Sprintf(" [rebuild %d]", position[id])
		case snapshots[id]:
			text += " [snapshot: cannot be rebuilt]"
		case g.StoresRows(id):
			text += " [not rebuilt: derived only through a snapshot]"
		}
		if notify[id] {
			text += " [notify]"
		}
		return text
	}
	var walk func(id, indent string, depth int)
	walk = func(id, indent string, depth int) {
		kids := children(id)
		for i, c := range kids {
			branch, next := "├── ", "│   "
			if i == len(kids)-1 {
				branch, next = "└── ", "    "
			}
			line := describe(c)
			expand := !shown[c] && len(children(c)) > 0
			switch {
			case shown[c] && len(children(c)) > 0:
				line += " (children shown above)"
			case expand && depth == maxTreeDepth:
				line += " (deeper nodes not shown)"
				expand = false
			}
			fmt.Fprintf(bw, "%s%s%s\n", indent, branch, line)
			shown[c] = true
			if expand {
				walk(c, indent+next, depth+1)
			}
		}
	}
	fmt.Fprintf(bw, "%s (%s) [target]\n", reporters.OneLine(r.Target), nodeLabel(g, m, r.Target))
	walk(r.Target, "", 1)

	fmt.Fprintln(bw)
	if len(r.Rebuild) == 0 {
		fmt.Fprintln(bw, "Rebuild: nothing must be rebuilt.")
	} else {
		fmt.Fprintf(bw, "Rebuild, in this order (%d):\n", len(r.Rebuild))
		for i, id := range r.Rebuild {
			line := fmt.Sprintf("  %d. %s (%s)", i+1, reporters.OneLine(id), nodeLabel(g, m, id))
			if w, ok := windows[id]; ok {
				line += fmt.Sprintf(" over %s (reads the target over %s)", w.Rebuild, w.Window)
			}
			fmt.Fprintln(bw, line)
		}
	}
	if r.Backfill != nil {
		writeBackfill(bw, g, m, r)
	}
	if len(r.Snapshots) > 0 {
		fmt.Fprintf(bw, "Snapshots (%d): cannot be rebuilt; re-running one records the corrected values as new versions valid from now.\n", len(r.Snapshots))
		for _, id := range r.Snapshots {
			fmt.Fprintf(bw, "  %s\n", reporters.OneLine(id))
		}
	}
	if len(r.Notify) == 0 {
		fmt.Fprintln(bw, "Notify: no exposure is derived from the target.")
	} else {
		fmt.Fprintf(bw, "Notify (%d):\n", len(r.Notify))
		for _, id := range r.Notify {
			fmt.Fprintf(bw, "  %s\n", reporters.OneLine(id))
		}
	}
	for _, c := range r.Cycles {
		names := make([]string, len(c))
		for i, id := range c {
			names[i] = reporters.OneLine(id)
		}
		fmt.Fprintf(bw, "Cycle among %s: each is built from another, so no rebuild order can satisfy it.\n", strings.Join(names, ", "))
	}
	return bw.Flush()
}

// writeBackfill lists, for a bigquery-etl tree, the tables that need
// backfill entries of their own, and how many of the tables are reached
// only through views, which a reader of the queries alone would miss.
func writeBackfill(bw *bufio.Writer, g *lineage.Graph, m *manifest.Manifest, r *lineageReport) {
	count := func(materialized string) int {
		n := 0
		for _, id := range r.Rebuild {
			if g.Materialization(id) == materialized {
				n++
			}
		}
		return n
	}
	var notes []string
	switch n := count("table"); n {
	case 0:
	case 1:
		notes = append(notes, "the 1 table written whole is recomputed by its next scheduled run")
	default:
		notes = append(notes, fmt.Sprintf("the %d tables written whole are recomputed by their next scheduled run", n))
	}
	if n := count(bqetl.Deprecated); n > 0 {
		notes = append(notes, fmt.Sprintf("%d deprecated table(s) need none", n))
	}
	if n := count(bqetl.Unscheduled); n > 0 {
		notes = append(notes, fmt.Sprintf("%d table(s) no DAG schedules need none", n))
	}
	text := ""
	if len(notes) > 0 {
		text = "; " + strings.Join(notes, "; ")
	}
	fmt.Fprintf(bw, "Backfill entries needed, in the order above (%d incremental tables)%s:\n", len(r.Backfill), text)
	for _, id := range r.Backfill {
		fmt.Fprintf(bw, "  %s\n", reporters.OneLine(id))
	}
	if len(r.ThroughUnion) > 0 {
		fmt.Fprintf(bw, "Through a union only (%d incremental table(s)): each reads the target through a view marked union that combines it with other relations; whether it reads the target's rows depends on its filters:\n", len(r.ThroughUnion))
		for _, id := range r.ThroughUnion {
			fmt.Fprintf(bw, "  %s\n", reporters.OneLine(id))
		}
	}
	direct := 0
	for _, id := range r.Rebuild {
		if slices.Contains(m.Parents(id), r.Target) {
			direct++
		}
	}
	if len(r.Rebuild) > 0 {
		fmt.Fprintf(bw, "Through views: %d of the %d tables read the target only through views or other tables; %d read it directly.\n", len(r.Rebuild)-direct, len(r.Rebuild), direct)
	}
}

// nodeLabel is the materialization, with an incremental model's strategy,
// or else the resource type.
func nodeLabel(g *lineage.Graph, m *manifest.Manifest, id string) string {
	n := m.Node(id)
	if n == nil {
		return "not defined in the manifest"
	}
	label := g.Materialization(id)
	if label == "" {
		return n.ResourceType
	}
	if label == "incremental" && n.Config.IncrementalStrategy != "" {
		label += ", " + n.Config.IncrementalStrategy
	}
	if bqetl.IsUnionView(n) {
		label += ", union"
	}
	return label
}

func lineageFlags(fs *flag.FlagSet) {
	fs.String("manifest", "", "dbt manifest.json `FILE` (default: target/manifest.json, or dbt_project.yml's target-path, of the nearest folder at or above the working directory that holds dbt_project.yml)")
	fs.String("tree", "", "the sql/ `DIR` of a bigquery-etl repository (default: found at or above the working directory when no dbt_project.yml is)")
	fs.String("format", "text", "output `FORMAT`: text or json")
}
