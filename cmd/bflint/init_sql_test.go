package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/bflint/bflint/lineage"
)

// initWithSQL runs init -o in a copy of examples/two_plans without its
// plans, and returns the folder and what init said.
func initWithSQL(t *testing.T, extra ...string) (dir, said string) {
	t.Helper()
	dir = skeletonProject(t, "")
	if err := os.Remove(filepath.Join(dir, "new.backfill.yaml")); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	var stdout, stderr bytes.Buffer
	args := append([]string{"init", "--target", "fct_orders", "--start", "2026-01-14", "--end", "2026-06-30", "-o", "plans/fct_orders.backfill.yaml"}, extra...)
	if code := run(args, &stdout, &stderr); code != 0 {
		t.Fatalf("init exit %d: %s", code, stderr.String())
	}
	return dir, stdout.String()
}

// TestInitWritesRunSQL is the promise of init -o with a warehouse: the
// plan names the SQL it wrote, and every finding on the result is an
// answer only a person can give (a TODO line), none on the SQL.
func TestInitWritesRunSQL(t *testing.T) {
	names := []string{"build.sql", "assert_unique.sql", "validate_reconciliation.sql", "validate_control.sql", "capture.sql", "publish.sql", "rollback.sql"}
	for _, dialect := range []string{"bigquery", "snowflake", "databricks", "postgres", "duckdb"} {
		t.Run(dialect, func(t *testing.T) {
			dir, said := initWithSQL(t, "--dialect", dialect, "--partition-column", "order_date")
			if want := "and 7 " + dialect + " SQL files under plans/sql/bf20260114_a"; !strings.Contains(said, want) {
				t.Errorf("init said %q, want it to contain %q", said, want)
			}
			plan, err := os.ReadFile(filepath.Join(dir, "plans", "fct_orders.backfill.yaml"))
			if err != nil {
				t.Fatal(err)
			}
			for _, name := range names {
				if _, err := os.Stat(filepath.Join(dir, "plans", "sql", "bf20260114_a", name)); err != nil {
					t.Errorf("%s not written: %v", name, err)
				}
				if !strings.Contains(string(plan), "sql/bf20260114_a/"+name) {
					t.Errorf("the plan does not name sql/bf20260114_a/%s", name)
				}
			}
			code, out := lintProject(t, dir)
			if code != exitFindings {
				t.Fatalf("exit %d, want 1 (the TODOs):\n%s", code, out)
			}
			lines := strings.Split(string(plan), "\n")
			head := regexp.MustCompile(`^(\S+):(\d+):\d+: .*\[(BF\d+) `)
			for _, l := range strings.Split(out, "\n") {
				m := head.FindStringSubmatch(l)
				if m == nil {
					continue
				}
				if m[1] != "plans/fct_orders.backfill.yaml" {
					t.Errorf("finding outside the plan: %s", l)
					continue
				}
				n, _ := strconv.Atoi(m[2])
				if !strings.Contains(lines[n-1], "TODO") {
					t.Errorf("finding on a line init answered (%q): %s", lines[n-1], l)
				}
			}
			if !strings.Contains(out, "100.0% parsed") {
				t.Errorf("the written SQL is not all parsed:\n%s", out)
			}
		})
	}
}

// The adapter of the manifest chooses the dialect; BigQuery's backquoted
// relation names go into the SQL as dbt records them.
func TestInitRunSQLFromAdapter(t *testing.T) {
	manifestPath, err := filepath.Abs("../../testdata/manifests/init_strategies.json")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	var stdout, stderr bytes.Buffer
	if code := run([]string{"init", "--manifest", manifestPath, "--target", "sessions", "--start", "2026-03-01", "--end", "2026-03-31", "-o", "s.backfill.yaml"}, &stdout, &stderr); code != 0 {
		t.Fatalf("init exit %d: %s", code, stderr.String())
	}
	publish, err := os.ReadFile(filepath.Join("sql", "bf20260301_a", "publish.sql"))
	if err != nil {
		t.Fatalf("%v; init said %q", err, stdout.String())
	}
	for _, want := range []string{"MERGE `proj`.`analytics`.`sessions` AS t", "ON FALSE", "session_date < DATE '2026-04-01'"} {
		if !strings.Contains(string(publish), want) {
			t.Errorf("publish.sql lacks %q:\n%s", want, publish)
		}
	}
}

// init writes no SQL it cannot place, says why, and never overwrites.
func TestInitRunSQLRefusals(t *testing.T) {
	_, said := initWithSQL(t)
	if !strings.Contains(said, "(no SQL: the model's config names no partition_by field; pass --partition-column)") {
		t.Errorf("init said %q", said)
	}
	var stdout, stderr bytes.Buffer
	code := run([]string{"init", "--target", "fct_orders", "--start", "2026-01-14", "--end", "2026-06-30", "--partition-column", "order_date", "--dialect", "postgres", "-o", "plans/again.backfill.yaml"}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("init exit %d: %s", code, stderr.String())
	}
	code = run([]string{"init", "--target", "fct_orders", "--start", "2026-01-14", "--end", "2026-06-30", "--partition-column", "order_date", "--dialect", "postgres", "-o", "plans/third.backfill.yaml"}, &stdout, &stderr)
	if code != exitUsage || !strings.Contains(stderr.String(), "exists; bflint init does not overwrite SQL") {
		t.Errorf("second init over the same id: exit %d: %s", code, stderr.String())
	}
	if _, err := os.Stat("plans/third.backfill.yaml"); err == nil {
		t.Error("the plan was written though its SQL was refused")
	}
	stderr.Reset()
	code = run([]string{"init", "--target", "fct_orders", "--start", "2026-01-14", "--end", "2026-06-30", "--dialect", "oracle", "-o", "plans/o.backfill.yaml"}, &stdout, &stderr)
	if code != exitUsage || !strings.Contains(stderr.String(), `--dialect "oracle": use bigquery, snowflake, databricks, postgres or duckdb`) {
		t.Errorf("--dialect oracle: exit %d: %s", code, stderr.String())
	}
}

// The build is the model's own SQL with its relations resolved and the
// incremental branch left out; a model with other Jinja gets none.
func TestInitModelSQL(t *testing.T) {
	dir := skeletonProject(t, "")
	d, err := readDBTLineage("init", filepath.Join(dir, "target", "manifest.json"), false)
	if err != nil {
		t.Fatal(err)
	}
	g := lineage.New(d.m)
	node := d.m.Node("model.shop.fct_orders")
	got, _, ok := modelSQL(d.m, g, node, nil, dir, "", "analytics.fct_orders")
	if !ok || !strings.Contains(got, `FROM "warehouse"."raw"."orders_events" AS r`) || strings.Contains(got, "{") || strings.Contains(got, "MAX(order_date)") {
		t.Errorf("modelSQL = %v:\n%s", ok, got)
	}
	path := filepath.Join(dir, "models", "fct_orders.sql")
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	withVar := strings.Replace(string(text), "SELECT", "SELECT {{ var('extra_column') }},", 1)
	if err := os.WriteFile(path, []byte(withVar), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, _, ok := modelSQL(d.m, g, node, nil, dir, "", "analytics.fct_orders"); ok {
		t.Errorf("a model reading a var got a build:\n%s", got)
	}
}

// A model with Jinja bflint cannot render is read as dbt compiled it,
// from target/compiled, unless it tests is_incremental(): its compiled
// file holds the branch of whatever run compiled it last.
func TestInitModelSQLCompiled(t *testing.T) {
	dir := skeletonProject(t, "")
	manifestPath := filepath.Join(dir, "target", "manifest.json")
	d, err := readDBTLineage("init", manifestPath, false)
	if err != nil {
		t.Fatal(err)
	}
	g := lineage.New(d.m)
	const compiledRevenue = "SELECT order_date, COUNT(*) AS order_count, 7 AS cents\nFROM \"warehouse\".\"analytics\".\"int_orders\"\nGROUP BY order_date;\n"
	for model, compiled := range map[string]string{
		"revenue_daily": compiledRevenue,
		"fct_orders":    "SELECT 1 AS stale",
	} {
		path := filepath.Join(dir, "models", model+".sql")
		text, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(strings.Replace(string(text), "SELECT", "SELECT {{ var('cents') }} AS cents,", 1)), 0o644); err != nil {
			t.Fatal(err)
		}
		compiledPath := filepath.Join(dir, "target", "compiled", "shop", "models", model+".sql")
		if err := os.MkdirAll(filepath.Dir(compiledPath), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(compiledPath, []byte(compiled), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, from, ok := modelSQL(d.m, g, d.m.Node("model.shop.revenue_daily"), d.macros(), dir, manifestPath, "analytics.revenue_daily")
	if !ok || got != strings.TrimSuffix(compiledRevenue, ";\n") || from.inManifest || from.describe(dir) != "target/compiled/shop/models/revenue_daily.sql" {
		t.Errorf("revenue_daily: modelSQL = %v, %+v:\n%s", ok, from, got)
	}
	// The manifest's own compiled_code comes first.
	manifestText, err := os.ReadFile(manifestPath)
	if err != nil {
		t.Fatal(err)
	}
	withCode := strings.Replace(string(manifestText), `"name": "revenue_daily",`, `"name": "revenue_daily", "compiled_code": "SELECT 3 AS from_manifest;",`, 1)
	if withCode == string(manifestText) {
		t.Fatal("the example's manifest no longer names revenue_daily as the test expects")
	}
	if err := os.WriteFile(manifestPath, []byte(withCode), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, from, ok := modelSQL(d.m, g, d.m.Node("model.shop.revenue_daily"), d.macros(), dir, manifestPath, "analytics.revenue_daily"); !ok || got != "SELECT 3 AS from_manifest" || from.describe(dir) != "compiled_code in target/manifest.json" {
		t.Errorf("revenue_daily with compiled_code: modelSQL = %v, %+v:\n%s", ok, from, got)
	}
	if got, _, ok := modelSQL(d.m, g, d.m.Node("model.shop.fct_orders"), d.macros(), dir, manifestPath, "analytics.fct_orders"); ok {
		t.Errorf("fct_orders tests is_incremental(), yet its compiled file was read:\n%s", got)
	}
}

// A model whose project macro tests is_incremental() is no more read from
// its compiled SQL than one that tests it itself.
func TestInitModelSQLCompiledMacroIncremental(t *testing.T) {
	dir := skeletonProject(t, "")
	manifestPath := filepath.Join(dir, "target", "manifest.json")
	for path, text := range map[string]string{
		"macros/since_last_run.sql":                  "{% macro since_last_run() %}{% if is_incremental() %}WHERE order_date > (SELECT MAX(order_date) FROM {{ this }}){% endif %}{% endmacro %}\n",
		"models/int_orders.sql":                      "SELECT order_id, order_date, net_amount_minor\nFROM {{ ref('fct_orders') }}\n{{ since_last_run() }}\n",
		"target/compiled/shop/models/int_orders.sql": "SELECT 1 AS incremental_branch\n",
	} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, path)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, path), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	d, err := readDBTLineage("init", manifestPath, false)
	if err != nil {
		t.Fatal(err)
	}
	if got, _, ok := modelSQL(d.m, lineage.New(d.m), d.m.Node("model.shop.int_orders"), d.macros(), dir, manifestPath, "analytics.int_orders"); ok {
		t.Errorf("int_orders tests is_incremental() through its macro, yet its compiled SQL was read:\n%s", got)
	}
}

// A negated test keeps its first branch, the one a first build takes.
func TestRenderModelNegatedIncremental(t *testing.T) {
	src := "SELECT a FROM t\n{% if not is_incremental() %}WHERE a > 0{% else %}WHERE a > 1{% endif %}\n"
	got, ok := renderModel(nil, nil, src, "x.t")
	if !ok || !strings.Contains(got, "WHERE a > 0") || strings.Contains(got, "a > 1") {
		t.Errorf("renderModel = %v:\n%s", ok, got)
	}
}

// initAnswers answer the TODOs init -o leaves once it has written the
// run's SQL: each a value only a person gives, or a query only a person
// writes (the boundary's evidence, the control check: the example's own).
var initAnswers = []struct{ todo, answer string }{
	{"owner: TODO", "owner: data-eng"},
	{"reason: TODO what was wrong, since when, and which change caused it", "reason: Refunds were counted as revenue after the 2026-01-14 deploy."},
	{"timezone: TODO", "timezone: UTC"},
	{"boundary:  # TODO", "boundary:\n    candidate: 2026-01-14\n    confirmed: 2026-01-14"},
	{"introduced_by: TODO", "introduced_by: 3f2a9c1"},
	{"sql/TODO_find_boundary.sql", "sql/fct_orders/find_boundary.sql"},
	{"tested: {}  # TODO", "tested:\n    partition: 2026-03-01\n    identical: true"},
	{"compute:  # TODO", "compute:\n  max_concurrency: 4"},
	{"environment: TODO", "environment: isolated"},
	{"rollback:  # TODO", "rollback:\n  retained_until: 2027-12-31"},
	{"restorable_by: TODO", "restorable_by: data-platform-oncall"},
	{"restore_time: TODO", "restore_time: 30m"},
	{"tested: false  # TODO", "tested: true"},
	{"trial:  # TODO", "trial:\n  partition: 2026-03-01"},
	{"reason: TODO why its recorded history may stay as it is", "reason: the snapshot keeps its history as recorded; the catalogue notes the range"},
	{"communication:  # TODO", "communication:\n  consumers: [finance]\n  expected_change: Net revenue in the range falls by the value of refunds."},
	{"contains_pii: TODO", "contains_pii: false"},
	{"required: true  # TODO", "required: true\n  approved_by: finance-controller"},
}

// TestInitWithSQLAnsweredLintsClean is the shipped dbt example planned
// with init -o: once a person answers what only a person can, bflint
// reports nothing, the SQL init wrote included.
func TestInitWithSQLAnsweredLintsClean(t *testing.T) {
	dir := skeletonProject(t, "")
	if err := os.Remove(filepath.Join(dir, "new.backfill.yaml")); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	var stdout, stderr bytes.Buffer
	if code := run([]string{"init", "--target", "fct_orders", "--start", "2026-01-14", "--end", "2026-06-30", "--dialect", "postgres", "--partition-column", "order_date", "-o", "new.backfill.yaml"}, &stdout, &stderr); code != 0 {
		t.Fatalf("init exit %d: %s", code, stderr.String())
	}
	text, err := os.ReadFile("new.backfill.yaml")
	if err != nil {
		t.Fatal(err)
	}
	answered := answerTODOs(t, string(text), initAnswers)
	if err := os.WriteFile("new.backfill.yaml", []byte(answered), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out := lintProject(t, dir)
	if code != exitClean || !strings.Contains(out, "no findings") {
		t.Errorf("answered plan: exit %d:\n%s\n--- plan\n%s", code, out, answered)
	}
}
