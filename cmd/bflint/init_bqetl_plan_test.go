package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// bqetlPlanAnswers answer, in order, the TODOs of a plan init writes for
// a bigquery-etl table: only what a person can say.
var bqetlPlanAnswers = []struct{ todo, answer string }{
	{"owner: TODO", "owner: data-eng"},
	{"reason: TODO what was wrong, since when, and which change caused it", "reason: Orders were deduplicated on the wrong key from 2026-03-01 (a1b2c3d)."},
	{"boundary:  # TODO", "boundary:\n    candidate: 2026-03-01\n    confirmed: 2026-03-01"},
	{"introduced_by: TODO", "introduced_by: a1b2c3d"},
	{"sql/TODO_find_boundary.sql", "sql/find_boundary.sql"},
	{"tested: {}  # TODO", "tested:\n    partition: 2026-03-02\n    identical: true"},
	{"compute:  # TODO", "compute:\n  max_concurrency: 1"},
	{"environment: TODO", "environment: isolated"},
	{"rollback:  # TODO", "rollback:\n  retained_until: 2027-06-30"},
	{"restorable_by: TODO", "restorable_by: data-platform-oncall"},
	{"restore_time: TODO", "restore_time: 30m"},
	{"tested: false  # TODO", "tested: true"},
	{"trial:  # TODO", "trial:\n  partition: 2026-03-02"},
	{"reason: TODO why it may keep rows", "reason: no DAG runs it; the weekly report rebuilds it by hand"},
	{"communication:  # TODO", "communication:\n  consumers: [sales]\n  expected_change: Order counts in the range fall by the duplicates."},
	{"contains_pii: TODO", "contains_pii: false"},
	{"required: true  # TODO", "required: true\n  approved_by: sales-lead"},
}

// TestInitBqetlPlanAnsweredLintsClean plans a backfill of a bigquery-etl
// table run by hand: init -o NAME.backfill.yaml writes a plan and its
// BigQuery SQL, the build binding the table's query to each day of the
// range; once a person answers what only a person can, the plan, the SQL
// and the tree lint with no finding.
func TestInitBqetlPlanAnsweredLintsClean(t *testing.T) {
	dir := bqetlTree(t)
	code, out, stderr := runInitPlan("--target", "orders_derived.orders_v1", "--start", "2026-03-01", "--end", "2026-03-03", "-o", "backfills/orders.backfill.yaml")
	if code != 0 {
		t.Fatalf("init exit %d: %s", code, stderr)
	}
	if !strings.Contains(out, "and 6 bigquery SQL files under backfills/sql/bf20260301_a") {
		t.Errorf("init says %q", out)
	}
	build, err := os.ReadFile("backfills/sql/bf20260301_a/build.sql")
	if err != nil {
		t.Fatal(err)
	}
	for _, day := range []string{"2026-03-01", "2026-03-02", "2026-03-03"} {
		if !strings.Contains(string(build), "DATE(created_at) = DATE '"+day+"'") {
			t.Errorf("the build does not bind the query to %s:\n%s", day, build)
		}
	}
	if n := strings.Count(string(build), "INSERT INTO backfill_staging.orders_v1__bf20260301_a\n"); n != 2 || !strings.Contains(string(build), "CREATE OR REPLACE TABLE backfill_staging.orders_v1__bf20260301_a AS") {
		t.Errorf("the build should recreate staging, then add the two other days (%d inserts):\n%s", n, build)
	}
	text, err := os.ReadFile("backfills/orders.backfill.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"target: shop-prod.orders_derived.orders_v1", "write: replace_partition  # from metadata.yaml", "timezone: UTC", "- shop-prod.orders_derived.daily_totals_v1", "- node: shop-prod.orders_derived.order_counts_v1\n      reason: TODO why it may keep rows computed from the uncorrected ones, as no DAG of the tree runs it"} {
		if !strings.Contains(string(text), s) {
			t.Errorf("the plan lacks %q:\n%s", s, text)
		}
	}
	answered := answerTODOs(t, string(text), bqetlPlanAnswers)
	for name, sql := range map[string]string{
		"orders.backfill.yaml":  answered,
		"sql/find_boundary.sql": "SELECT submission_date, COUNT(*) AS orders FROM `shop-prod.orders_derived.orders_v1` WHERE submission_date >= DATE '2026-02-20' GROUP BY submission_date;\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, "backfills", name), []byte(sql), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if code, out := lintProject(t, dir); code != exitClean || !strings.Contains(out, "no findings") {
		t.Errorf("answered plan: exit %d:\n%s\n--- plan\n%s", code, out, answered)
	}
}

// A table whose query cannot be bound alone gets the rest of the set and
// a plan saying why its build is the author's.
func TestInitBqetlPlanWithoutBuild(t *testing.T) {
	bqetlTree(t)
	code, _, stderr := runInitPlan("--target", "clients_derived.clients_last_seen_v1", "--start", "2026-03-01", "--end", "2026-03-03", "-o", "clients.backfill.yaml")
	if code != 0 {
		t.Fatalf("init exit %d: %s", code, stderr)
	}
	text, err := os.ReadFile("clients.backfill.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(text), "build: sql/TODO_build.sql") || !strings.Contains(string(text), "# no build written: the table depends on its past") {
		t.Errorf("the plan should leave the build TODO and say why:\n%s", text)
	}
	if _, err := os.Stat("sql/bf20260301_a/build.sql"); err == nil {
		t.Error("a build was written for a table that depends on its past")
	}
	for _, tt := range []struct {
		args []string
		code int
		says string
	}{
		{[]string{"--dialect", "snowflake", "-o", "x.backfill.yaml"}, exitUsage, `--dialect "snowflake": a bigquery-etl table lives in BigQuery`},
		{[]string{"-o", "clients.backfill.yaml"}, exitUsage, "the file exists; bflint init does not overwrite a plan"},
		{[]string{"--now", "2026-03-04", "-o", "y.backfill.yaml"}, exitUsage, "--now: a plan for a bigquery-etl table reads the tree, and is not dated"},
	} {
		args := append([]string{"--target", "orders_derived.orders_v1", "--start", "2026-03-01", "--end", "2026-03-03"}, tt.args...)
		if code, _, stderr := runInitPlan(args...); code != tt.code || !strings.Contains(stderr, tt.says) {
			t.Errorf("init %v: exit %d, %q; want exit %d saying %q", tt.args, code, stderr, tt.code, tt.says)
		}
	}
}

// runInitPlan runs init without the entry date runInit gives: a plan is
// not dated.
func runInitPlan(args ...string) (code int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	code = run(append([]string{"init"}, args...), &out, &errOut)
	return code, out.String(), errOut.String()
}

// --partition-column names the column for the plan and its SQL alike.
func TestInitBqetlPlanPartitionColumnFlag(t *testing.T) {
	bqetlTree(t)
	if code, _, stderr := runInitPlan("--target", "orders_derived.orders_v1", "--start", "2026-03-01", "--end", "2026-03-01", "--partition-column", "order_day", "-o", "o.backfill.yaml"); code != 0 {
		t.Fatalf("init exit %d: %s", code, stderr)
	}
	text, err := os.ReadFile("o.backfill.yaml")
	if err != nil {
		t.Fatal(err)
	}
	publish, err := os.ReadFile("sql/bf20260301_a/publish.sql")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(text), "partition_column: order_day\n") || !strings.Contains(string(publish), "order_day >= DATE '2026-03-01'") || strings.Contains(string(publish), "submission_date >=") {
		t.Errorf("--partition-column order_day: plan\n%s\npublish\n%s", text, publish)
	}
}

// A table that a DAG writes whole on every run is recomputed by its next
// run: the plan skips it with that reason, and needs no answer for it.
func TestInitBqetlPlanSkipsWholeTables(t *testing.T) {
	dir := bqetlTree(t)
	meta := filepath.Join(dir, "sql", "shop-prod", "orders_derived", "order_counts_v1", "metadata.yaml")
	if err := os.WriteFile(meta, []byte("friendly_name: Order counts\nscheduling:\n  dag_name: bqetl_shop\n  date_partition_parameter: null\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	totals := filepath.Join(dir, "sql", "shop-prod", "orders_derived", "daily_totals_v1", "metadata.yaml")
	if err := os.WriteFile(totals, []byte("friendly_name: Daily totals\ndeprecated: true\nbigquery:\n  time_partitioning:\n    type: day\n    field: submission_date\nscheduling:\n  dag_name: bqetl_shop\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runInitPlan("--target", "orders_derived.orders_v1", "--start", "2026-03-01", "--end", "2026-03-01", "-o", "o.backfill.yaml"); code != 0 {
		t.Fatalf("init exit %d: %s", code, stderr)
	}
	text, err := os.ReadFile("o.backfill.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(text), "- node: shop-prod.orders_derived.order_counts_v1\n      reason: every scheduled run writes it whole") {
		t.Errorf("the plan should skip order_counts_v1 as rewritten by its next run:\n%s", text)
	}
	if !strings.Contains(string(text), "- node: shop-prod.orders_derived.daily_totals_v1\n      reason: deprecated in its metadata.yaml") {
		t.Errorf("the plan should skip the deprecated daily_totals_v1:\n%s", text)
	}
	// The reasons are plain YAML: the skeleton reads as a plan.
	if code, out := lintProject(t, dir); code != exitFindings || strings.Contains(out, "invalid YAML") {
		t.Errorf("the skeleton does not read as a plan: exit %d\n%s", code, out)
	}
}
