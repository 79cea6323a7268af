package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	extast "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"

	"github.com/bflint/bflint/internal/schematest"
	"github.com/bflint/bflint/internal/testfs"
	"github.com/bflint/bflint/reporters/brief"
)

// briefSections are the level-two headings of a bflint plan's brief, in
// order.
var briefSections = []string{"Range", "What moves and when", "How it is made safe", "How it is undone", "Approval and personal data", "Open risks"}

// TestBriefExamples keeps the briefs of the shipped examples in golden
// files, Markdown and JSON, and reads each as its consumers would: the
// Markdown through a CommonMark parser with GitHub's tables (headings,
// tables, the Mermaid block), the JSON against its schema.
func TestBriefExamples(t *testing.T) {
	t.Chdir("../..")
	schema := briefSchema(t)
	for _, example := range []string{"good", "broken", "two_plans", "dbt_microbatch"} {
		t.Run(example, func(t *testing.T) {
			for _, format := range []string{"markdown", "json"} {
				var stdout, stderr bytes.Buffer
				if code := run([]string{"brief", "--now", examplesNow, "--format", format, "examples/" + example + "/"}, &stdout, &stderr); code != exitClean {
					t.Fatalf("brief --format %s: exit %d\n%s", format, code, stderr.String())
				}
				ext := map[string]string{"markdown": ".md", "json": ".json"}[format]
				checkGolden(t, filepath.Join("testdata/golden/brief", example+ext), stdout.Bytes())
				if format == "json" {
					schematest.Validate(t, schema, stdout.Bytes())
				} else {
					checkBriefMarkdown(t, stdout.Bytes())
				}
			}
		})
	}
}

// TestBriefReadsAsTheLesson holds the brief of examples/good to the
// sentence the lesson says a plan gives a finance team for free.
func TestBriefReadsAsTheLesson(t *testing.T) {
	t.Chdir("../..")
	doc := briefJSON(t, "examples/good/")
	want := "We are correcting analytics.fct_orders for 2026-01-14 to 2026-06-30; net revenue between 2026-01-14 and 2026-06-30 falls by roughly the value of refunded orders in those days; nothing outside the range moves."
	if got := doc.Briefs[0].Headline; got != want {
		t.Errorf("headline:\n%s\nwant:\n%s", got, want)
	}
}

// TestBriefOfBrokenPlan lists what bflint reports as open risks, each
// with its rule page, and states no safety the plan lacks.
func TestBriefOfBrokenPlan(t *testing.T) {
	t.Chdir("../..")
	doc := briefJSON(t, "examples/broken/")
	b := doc.Briefs[0]
	if len(b.Risks) != 15 {
		t.Errorf("%d open risks, want the 15 findings lint reports", len(b.Risks))
	}
	for _, r := range b.Risks {
		if !strings.HasSuffix(r.URL, "/docs/rules/"+r.Code+".md") {
			t.Errorf("%s links to %s", r.Code, r.URL)
		}
	}
	if b.Undo != nil || b.Risks[0].Severity != "error" {
		t.Errorf("undo %v, first risk %s: want no undo and errors first", b.Undo, b.Risks[0].Severity)
	}
	var md bytes.Buffer
	if err := brief.WriteMarkdown(&md, doc); err != nil {
		t.Fatal(err)
	}
	for _, claim := range []string{"no consumer reads", "identical results", "nothing outside the range is recomputed"} {
		if strings.Contains(md.String(), claim) {
			t.Errorf("the brief of the broken plan claims %q", claim)
		}
	}
}

// TestBriefBadInput: a plan that cannot be read gets one line saying why,
// among the briefs of the others; SQL alone is nothing to brief.
func TestBriefBadInput(t *testing.T) {
	dir := t.TempDir()
	testfs.Write(t, dir, map[string]string{
		"broken.backfill.yaml": "bflint: 1\nid: [unclosed\n",
		"ok.backfill.yaml":     "bflint: 1\nid: bf_ok\ntarget: analytics.t\nrange: {start: 2026-01-01, end: 2026-01-31}\n",
		"sql/only.sql":         "SELECT 1;\n",
	})
	var stdout, stderr bytes.Buffer
	if code := run([]string{"brief", "--now", examplesNow, dir}, &stdout, &stderr); code != exitClean {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	out := stdout.String()
	first, _, _ := strings.Cut(out, "\n")
	if !strings.HasPrefix(first, "# No brief for ") || !strings.Contains(first, "broken.backfill.yaml") || !strings.Contains(first, "not a plan bflint can read (line 1: invalid YAML") {
		t.Errorf("first line %q: want a one-line brief of the broken plan saying why", first)
	}
	if !strings.Contains(out, "\n# Backfill brief: `analytics.t`, 2026-01-01 to 2026-01-31\n") {
		t.Errorf("no brief of the readable plan:\n%s", out)
	}
	stdout.Reset()
	stderr.Reset()
	code := run([]string{"brief", filepath.Join(dir, "sql")}, &stdout, &stderr)
	if code != exitUsage || !strings.Contains(stderr.String(), "no backfill plan under") {
		t.Errorf("brief of SQL alone: exit %d, %q; want 2 and why", code, stderr.String())
	}
}

// TestBriefLargeDownstream: 200 nodes derived from the target give a
// diagram of one box per depth and bounded lists; 2,000 over a hundred
// depths, a diagram cut at MaxDrawn boxes; both briefs stay under the size
// docs/brief.md states.
func TestBriefLargeDownstream(t *testing.T) {
	for _, size := range []int{200, 2000} {
		dir := t.TempDir()
		testfs.Write(t, dir, map[string]string{
			"dbt_project.yml":          "name: shop\nversion: \"1.0\"\nprofile: shop\n",
			"target/manifest.json":     wideManifest(size),
			"fct_orders.backfill.yaml": "bflint: 1\nid: bf_wide\ntarget: fct_orders\nrange: {start: 2026-01-14, end: 2026-06-30}\n",
		})
		var stdout, stderr bytes.Buffer
		if code := run([]string{"brief", "--now", examplesNow, dir}, &stdout, &stderr); code != exitClean {
			t.Fatalf("exit %d: %s", code, stderr.String())
		}
		md := stdout.String()
		const maxBytes = 48 << 10
		if len(md) > maxBytes {
			t.Errorf("%d nodes: the brief is %d bytes, want at most %d", size, len(md), maxBytes)
		}
		_, diagram, _ := strings.Cut(md, "```mermaid\n")
		diagram, _, _ = strings.Cut(diagram, "```")
		boxes, drawn := 0, 0
		for _, m := range regexp.MustCompile(`n\d+\["(\d+) steps? down: (\d+) nodes`).FindAllStringSubmatch(diagram, -1) {
			boxes++
			if depth, _ := strconv.Atoi(m[1]); depth != boxes {
				t.Errorf("box %d is of depth %s", boxes, m[1])
			}
			n, _ := strconv.Atoi(m[2])
			drawn += n
		}
		rest := regexp.MustCompile(`\["(\d+) more nodes, (\d+) steps down and deeper"\]`).FindStringSubmatch(diagram)
		if rest != nil {
			n, _ := strconv.Atoi(rest[1])
			drawn += n
			boxes++
		}
		if boxes < 2 || boxes > brief.MaxDrawn-1 || drawn != size || strings.Count(diagram, "\n") != 2*boxes+2 {
			t.Errorf("%d nodes: a diagram of %d boxes counting %d nodes, want one box per depth up to %d, counting all:\n%s", size, boxes, drawn, brief.MaxDrawn-1, diagram)
		}
		if !regexp.MustCompile("\nAnd \\d+ more nodes: `bflint lineage fct_orders` lists every one.\n").MatchString(md) {
			t.Errorf("%d nodes: the brief does not count the nodes past the %d it lists", size, brief.MaxListed)
		}
		checkBriefMarkdown(t, stdout.Bytes())
		t.Logf("%d derived nodes: a brief of %d bytes, a diagram of %d boxes", size, len(md), boxes+1)
	}
}

// wideManifest is a dbt manifest of fct_orders with n nodes derived from
// it, twenty per depth: every tenth a view, every seventh an exposure.
func wideManifest(n int) string {
	nodes := []string{`"model.shop.fct_orders": {"resource_type": "model", "name": "fct_orders", "package_name": "shop", "schema": "analytics", "alias": "fct_orders", "original_file_path": "models/fct_orders.sql", "config": {"materialized": "table"}, "depends_on": {"nodes": []}}`}
	var exposures []string
	id := func(i int) string {
		if i < 0 {
			return "model.shop.fct_orders"
		}
		return fmt.Sprintf("model.shop.m%03d", i)
	}
	exposure := func(i int) bool { return i%7 == 6 }
	for i := 0; i < n; i++ {
		p := i - 20
		for p >= 0 && exposure(p) {
			p -= 20 // an exposure has no children
		}
		parent := id(p)
		if exposure(i) {
			exposures = append(exposures, fmt.Sprintf(`"exposure.shop.e%03d": {"resource_type": "exposure", "name": "e%03d", "package_name": "shop", "owner": {"name": "Team %d"}, "depends_on": {"nodes": [%q]}}`, i, i, i, parent))
			continue
		}
		materialized := "table"
		if i%10 == 9 {
			materialized = "view"
		}
		nodes = append(nodes, fmt.Sprintf(`%q: {"resource_type": "model", "name": "m%03d", "package_name": "shop", "schema": "analytics", "alias": "m%03d", "original_file_path": "models/m%03d.sql", "config": {"materialized": %q}, "depends_on": {"nodes": [%q]}}`, id(i), i, i, i, materialized, parent))
	}
	return `{"metadata": {"dbt_schema_version": "https://schemas.getdbt.com/dbt/manifest/v12.json", "project_name": "shop", "adapter_type": "postgres"}, "nodes": {` +
		strings.Join(nodes, ",\n") + `}, "sources": {}, "exposures": {` + strings.Join(exposures, ",\n") + `}}`
}

func briefJSON(t *testing.T, path string) *brief.Document {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if code := run([]string{"brief", "--now", examplesNow, "--format", "json", path}, &stdout, &stderr); code != exitClean {
		t.Fatalf("brief %s: exit %d\n%s", path, code, stderr.String())
	}
	var doc brief.Document
	if err := json.Unmarshal(stdout.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	return &doc
}

func checkGolden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *updateE2E {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("output differs from %s (run with -update to accept):\n%s", path, got)
	}
}

func briefSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	return schematest.Compile(t, "https://github.com/bflint/bflint/blob/main/reporters/brief/schema.json", brief.Schema)
}

// checkBriefMarkdown parses a brief as GitHub renders it and checks its
// shape: each plan a level-one heading followed by the sections, tables
// that parse as tables, and one Mermaid flowchart per plan.
func checkBriefMarkdown(t *testing.T, out []byte) {
	t.Helper()
	md := goldmark.New(goldmark.WithExtensions(extension.GFM))
	doc := md.Parser().Parse(text.NewReader(out))
	var plans, tables, diagrams int
	var sections []string
	err := ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Heading:
			title := string(n.Lines().Value(out))
			switch n.Level {
			case 1:
				if len(sections) > 0 && strings.Join(sections, "|") != strings.Join(briefSections, "|") {
					t.Errorf("sections %q, want %q", sections, briefSections)
				}
				plans++
				sections = nil
				if !strings.HasPrefix(title, "Backfill brief: ") {
					t.Errorf("level-one heading %q", title)
				}
			case 2:
				sections = append(sections, title)
			default:
				t.Errorf("heading of level %d: %q", n.Level, title)
			}
		case *extast.Table:
			tables++
			if n.ChildCount() < 2 {
				t.Errorf("a table with no row")
			}
		case *ast.FencedCodeBlock:
			if lang := string(n.Language(out)); lang != "mermaid" {
				t.Errorf("a code block of %q", lang)
			}
			diagrams++
			if body := string(n.Lines().Value(out)); !strings.HasPrefix(body, "flowchart LR\n  n0[[\"") && !strings.HasPrefix(body, "flowchart TD\n  n0[[\"") {
				t.Errorf("the Mermaid block is not a flowchart from the target:\n%s", body)
			}
		}
		return ast.WalkContinue, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(sections, "|") != strings.Join(briefSections, "|") {
		t.Errorf("sections %q, want %q", sections, briefSections)
	}
	if plans == 0 || diagrams != plans || tables < plans {
		t.Errorf("%d plans, %d diagrams, %d tables: want a diagram and tables for each plan", plans, diagrams, tables)
	}
}

// TestBriefBqetlEntries: a bigquery-etl entry's brief says what bqetl does
// with it (the staging table, the clone taken on completion) and how each
// table downstream follows, as BF801 judges it; settled entries are
// briefed only on request.
func TestBriefBqetlEntries(t *testing.T) {
	t.Chdir("../..")
	const entries = "testdata/rules/BF801/bqetl/sql/shop-prod/orders_derived/orders_v1/backfill.yaml"
	var stdout, stderr bytes.Buffer
	if code := run([]string{"brief", "--now", examplesNow, entries}, &stdout, &stderr); code != exitUsage ||
		!strings.Contains(stderr.String(), "no bigquery-etl entry under "+entries+" is still to run (status Initiate): the 5 entries read are Complete or Cancelled; --all-entries briefs them too") {
		t.Errorf("settled entries alone: exit %d, %q", code, stderr.String())
	}
	stdout.Reset()
	if code := run([]string{"brief", "--now", examplesNow, "--all-entries", "--format", "json", entries}, &stdout, &stderr); code != exitClean {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	schematest.Validate(t, briefSchema(t), stdout.Bytes())
	var doc brief.Document
	if err := json.Unmarshal(stdout.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Briefs) != 5 {
		t.Fatalf("%d briefs, want one per entry", len(doc.Briefs))
	}
	b := doc.Briefs[1] // the correction of 2026-04-02
	if b.Headline != "This entry backfilled shop-prod.orders_derived.orders_v1 for 2026-03-01 to 2026-03-20 (Complete): Fix the wrong currency of orders placed through the mobile app; bflint finds derived tables that would keep the old numbers (BF801, under open risks)." {
		t.Errorf("headline %q", b.Headline)
	}
	if b.Undo == nil || b.Undo.Location != "moz-fx-data-shared-prod.backfills_staging_derived.shop_prod__orders_derived__orders_v1_backup_2026_04_02" {
		t.Errorf("undo %+v, want the clone bqetl takes on completion", b.Undo)
	}
	how := map[string]string{}
	for _, st := range b.Moves.Downstream {
		how[st.Node] = st.By
	}
	for node, by := range map[string]string{
		"shop-prod.orders_derived.daily_totals_v1":    brief.ByUnplanned,
		"shop-prod.orders_derived.revenue_monthly_v1": brief.ByUnplanned,
		"shop-prod.orders_derived.order_counts_v1":    brief.BySchedule,
		"shop-prod.orders_derived.orders_archive_v1":  brief.BySkip,
		"shop-prod.orders_derived.outlet_revenue_v1":  brief.ByUnion,
	} {
		if how[node] != by {
			t.Errorf("%s follows by %q, want %q", node, how[node], by)
		}
	}
	if len(b.Risks) != 1 || b.Risks[0].Code != "BF801" {
		t.Errorf("risks %+v, want the BF801 finding", b.Risks)
	}
}

// A partitioned table whose query writes it whole: bqetl copies a
// partitioned table date by date, finds no partition to copy and stops;
// the brief says so instead of describing copies one by one.
func TestBriefBqetlWholeTableQuery(t *testing.T) {
	t.Chdir("../..")
	const entries = "testdata/rules/BF102/bqetl/sql/shop-prod/ops_derived/table_sizes_v1/backfill.yaml"
	var stdout, stderr bytes.Buffer
	if code := run([]string{"brief", "--now", "2026-11-30T09:00:00Z", "--format", "json", entries}, &stdout, &stderr); code != exitClean {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var doc brief.Document
	if err := json.Unmarshal(stdout.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Briefs) == 0 {
		t.Fatal("no brief")
	}
	for _, b := range doc.Briefs {
		if !strings.Contains(b.Moves.Window, "stops before copying anything") || strings.Contains(b.Moves.Window, "one by one") {
			t.Errorf("window %q, want the completion that stops", b.Moves.Window)
		}
	}
}

// TestBriefOfSkeleton: the TODOs bflint init leaves are never stated as
// answers; the brief says what is not stated, and the findings say why.
func TestBriefOfSkeleton(t *testing.T) {
	dir := skeletonProject(t, "bflint: 1\n")
	if err := os.Remove(filepath.Join(dir, "new.backfill.yaml")); err != nil {
		t.Fatal(err)
	}
	plan := filepath.Join(dir, "skeleton.backfill.yaml")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"init", "--manifest", filepath.Join(dir, "target/manifest.json"), "--target", "fct_orders", "--start", "2026-01-14", "--end", "2026-06-30", "-o", plan}, &stdout, &stderr); code != exitClean {
		t.Fatalf("init: exit %d: %s", code, stderr.String())
	}
	stdout.Reset()
	if code := run([]string{"brief", "--now", examplesNow, dir}, &stdout, &stderr); code != exitClean {
		t.Fatalf("brief: exit %d: %s", code, stderr.String())
	}
	plainWords, risks, _ := strings.Cut(stdout.String(), "## Open risks")
	if strings.Contains(plainWords, "TODO") {
		t.Errorf("the brief states a TODO as an answer:\n%s", plainWords)
	}
	for _, says := range []string{"the timezone is not stated (`range.timezone`)", "| Restorable by | not stated (`rollback.restorable_by`) |", "| Owner | not stated (`owner`) |"} {
		if !strings.Contains(plainWords, says) {
			t.Errorf("the brief does not say %q", says)
		}
	}
	if !strings.Contains(risks, "BF001") {
		t.Errorf("the open risks do not list the placeholders BF001 reports:\n%s", risks)
	}
}

// TestBriefRebuildWindows gives each downstream table that reads a window
// of the target the range it must be rebuilt over, in JSON valid against
// the schema and in the Markdown table.
func TestBriefRebuildWindows(t *testing.T) {
	const plan = "../../testdata/rules/BF809/fix_orders.backfill.yaml"
	var js, jsErr bytes.Buffer
	if code := run([]string{"brief", "--now", examplesNow, "--format", "json", plan}, &js, &jsErr); code != exitClean {
		t.Fatalf("exit %d: %s", code, jsErr.String())
	}
	schematest.Validate(t, briefSchema(t), js.Bytes())
	doc := briefJSON(t, plan)
	if len(doc.Briefs) != 1 || doc.Briefs[0].Moves == nil {
		t.Fatalf("one brief with moves expected: %+v", doc)
	}
	ranges := map[string]string{}
	for _, st := range doc.Briefs[0].Moves.Downstream {
		ranges[st.Node] = st.Window + " " + st.Range
	}
	if got := ranges["shop-prod.orders_derived.orders_rolling_28d_v1"]; got != "days -27..0 2026-01-01..2026-02-27" {
		t.Errorf("rolling table: %q", got)
	}
	if got := ranges["shop-prod.orders_derived.orders_daily_v1"]; got != " " {
		t.Errorf("a table reading the same day has a window: %q", got)
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"brief", "--now", examplesNow, plan}, &stdout, &stderr); code != exitClean {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if !strings.Contains(stdout.String(), "to be rebuilt over 2026-01-01..2026-02-27, since it reads the target over days -27..0") {
		t.Errorf("markdown lacks the range:\n%s", stdout.String())
	}
}
