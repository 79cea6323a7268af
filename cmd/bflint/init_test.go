package main

import (
	"bytes"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/bflint/bflint/parser/plan"
	"github.com/bflint/bflint/parser/source"
)

const initGolden = "../../testdata/golden/init_fct_orders.yaml"

// initSkeleton runs init against the example project's manifest, found the
// default way, from the project's folder.
func initSkeleton(t *testing.T, extra ...string) string {
	t.Helper()
	dir, err := filepath.Abs("../../examples/two_plans")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	var stdout, stderr bytes.Buffer
	args := append([]string{"init", "--target", "fct_orders", "--start", "2026-01-14", "--end", "2026-06-30"}, extra...)
	if code := run(args, &stdout, &stderr); code != 0 {
		t.Fatalf("init exit %d: %s", code, stderr.String())
	}
	return stdout.String()
}

func TestInitGolden(t *testing.T) {
	got := initSkeleton(t)
	golden, err := filepath.Abs(initGolden)
	if err != nil {
		t.Fatal(err)
	}
	if *updateE2E {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("init output differs from %s (run with -update to accept):\n%s", initGolden, got)
	}
}

func TestInitBadInput(t *testing.T) {
	dir, err := filepath.Abs("../../examples/two_plans")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--target", "fct_ordrs", "--start", "2026-01-14", "--end", "2026-06-30"}, `did you mean "fct_orders"`},
		{[]string{"--target", "fct_orders", "--end", "2026-06-30"}, "needs --target, --start and --end"},
		{[]string{"--target", "fct_orders", "--start", "2026-02-30", "--end", "2026-06-30"}, "not a real date"},
		{[]string{"--target", "fct_orders", "--start", "2026-07-01", "--end", "2026-06-30"}, "is after --end"},
		{[]string{"--target", "fct_orders", "--start", "2026-01-14", "--end", "2026-06-30", "--id", "BF-1"}, "init --id"},
	} {
		var stdout, stderr bytes.Buffer
		code := run(append([]string{"init"}, c.args...), &stdout, &stderr)
		if code != exitUsage || !strings.Contains(stderr.String(), c.want) || stdout.Len() != 0 {
			t.Errorf("init %v: exit %d, stdout %q, stderr %q; want exit 2 and %q", c.args, code, stdout.String(), stderr.String(), c.want)
		}
	}
}

// skeletonProject copies the example project without its plans, which
// correct the same target, and adds plan as its only plan.
func skeletonProject(t *testing.T, plan string) string {
	t.Helper()
	src, err := filepath.Abs("../../examples/two_plans")
	if err != nil {
		t.Fatal(err)
	}
	dst := t.TempDir()
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	olds, _ := filepath.Glob(filepath.Join(dst, "*.backfill.yaml"))
	for _, p := range olds {
		if err := os.Remove(p); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dst, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dst, "new.backfill.yaml"), []byte(plan), 0o644); err != nil {
		t.Fatal(err)
	}
	return dst
}

func lintProject(t *testing.T, dir string) (int, string) {
	t.Helper()
	t.Chdir(dir)
	var stdout, stderr bytes.Buffer
	code := run([]string{"--now", "2026-11-30T09:00:00Z", "--no-color", "."}, &stdout, &stderr)
	return code, stdout.String() + stderr.String()
}

// TestInitOutputReportsOnlyTODOs is the authoring promise: the skeleton is
// a valid plan, and every finding on it leads to a TODO.
func TestInitOutputReportsOnlyTODOs(t *testing.T) {
	skel := initSkeleton(t)
	lines := strings.Split(skel, "\n")
	code, out := lintProject(t, skeletonProject(t, skel))
	if code != exitFindings {
		t.Fatalf("exit %d, want 1:\n%s", code, out)
	}
	// The timezone, which dbt does not record, is a TODO rather than UTC,
	// so that the author says which zone it is.
	if !strings.Contains(out, `range.timezone "TODO" is not an IANA time zone name`) {
		t.Errorf("no finding on timezone: TODO:\n%s", out)
	}
	head := regexp.MustCompile(`^new\.backfill\.yaml:(\d+):\d+: .*\[(BF\d+) `)
	seen := map[string]bool{}
	reported := map[int]bool{}
	findings := 0
	for _, l := range strings.Split(out, "\n") {
		m := head.FindStringSubmatch(l)
		if m == nil {
			if strings.HasPrefix(l, "sql/") || strings.Contains(l, ".sql:") {
				t.Errorf("finding outside the plan: %s", l)
			}
			continue
		}
		findings++
		n, _ := strconv.Atoi(m[1])
		if !strings.Contains(lines[n-1], "TODO") {
			t.Errorf("finding on line %d (%q), which holds no TODO: %s", n, lines[n-1], l)
		}
		seen[m[2]] = true
		reported[n] = true
	}
	// docs/dbt.md: bflint reports the plan until each TODO is answered.
	for i, l := range lines {
		if strings.Contains(l, "TODO") && !strings.HasPrefix(strings.TrimSpace(l), "#") && !reported[i+1] {
			t.Errorf("line %d holds a TODO no finding points at: %q", i+1, l)
		}
	}
	// The codes docs/authoring.md promises; a change here is a change there.
	for _, code := range []string{"BF001", "BF003", "BF103", "BF105", "BF205", "BF301", "BF402", "BF501", "BF602", "BF603", "BF901", "BF902", "BF904"} {
		if !seen[code] {
			t.Errorf("no %s on the skeleton, which docs/authoring.md says reports a TODO", code)
		}
	}
	if findings == 0 {
		t.Fatalf("no findings parsed from:\n%s", out)
	}
}

// answers are what the example plan says, for each TODO of the skeleton in
// the order they appear; an answer replaces the line from its todo text on.
var answers = []struct{ todo, answer string }{
	{"owner: TODO", "owner: data-eng"},
	{"reason: TODO what was wrong, since when, and which change caused it", "reason: Refunds were counted as revenue after the 2026-01-14 deploy."},
	{"timezone: TODO", "timezone: UTC"},
	{"partition_column: TODO", "partition_column: order_date"},
	{"boundary:  # TODO", "boundary:\n    candidate: 2026-01-14\n    confirmed: 2026-01-14"},
	{"introduced_by: TODO", "introduced_by: 3f2a9c1"},
	{"sql/TODO_find_boundary.sql", "sql/fct_orders/find_boundary.sql"},
	{"sql/TODO_assert_unique.sql", "sql/fct_orders/assert_unique.sql"},
	{"tested: {}  # TODO", "tested:\n    partition: 2026-03-01\n    identical: true"},
	{"compute:  # TODO", "compute:\n  max_concurrency: 4"},
	{"environment: TODO", "environment: isolated"},
	{"sql/TODO_build.sql", "sql/fct_orders/build.sql"},
	{"sql/TODO_validate_reconciliation.sql", "sql/fct_orders/validate_reconciliation.sql"},
	{`pass: "TODO"`, `pass: "max_abs_delta_pct <= 0.5"`},
	{"sql/TODO_validate_control.sql", "sql/fct_orders/validate_control.sql"},
	{"control: {}  # TODO", "control: {start: 2025-10-01, end: 2025-12-31}"},
	{`pass: "TODO"`, `pass: "changed_rows = 0"`},
	{"publish:  # TODO", "publish:\n  mechanism: merge"},
	{"mode: TODO", "mode: whole_range"},
	{"sql/TODO_publish.sql", "sql/fct_orders/publish.sql"},
	{"rollback:  # TODO", "rollback:\n  retained_until: 2027-12-31"},
	{"mechanism: TODO", "mechanism: restore_copy"},
	{"location: TODO", "location: backfill_rollback.fct_orders__pre_bf20261116_a"},
	{"restorable_by: TODO", "restorable_by: data-platform-oncall"},
	{"restore_time: TODO", "restore_time: 30m"},
	{"sql/TODO_capture.sql", "sql/fct_orders/capture.sql"},
	{"sql/TODO_rollback.sql", "sql/fct_orders/rollback.sql"},
	{"tested: false  # TODO", "tested: true"},
	{"trial:  # TODO", "trial:\n  partition: 2026-03-01"},
	{"reason: TODO why its recorded history may stay as it is", "reason: the snapshot keeps its history as recorded; the catalogue notes the range"},
	{"communication:  # TODO", "communication:\n  consumers: [finance]\n  expected_change: Net revenue in the range falls by the value of refunds."},
	{"contains_pii: TODO", "contains_pii: false"},
	{"required: true  # TODO", "required: true\n  approved_by: finance-controller"},
}

// answerTODOs replaces each TODO line of a plan, in order, with the next
// answer, from its todo text on, and fails unless every TODO is answered.
func answerTODOs(t *testing.T, plan string, answers []struct{ todo, answer string }) string {
	t.Helper()
	lines := strings.Split(plan, "\n")
	next := 0
	for i, l := range lines {
		if !strings.Contains(l, "TODO") || strings.HasPrefix(strings.TrimSpace(l), "#") {
			continue
		}
		if next == len(answers) || !strings.Contains(l, answers[next].todo) {
			t.Fatalf("line %d %q is not the next TODO the test answers", i+1, l)
		}
		// The answer replaces the rest of the line, the TODO comment with it.
		lines[i] = l[:strings.Index(l, answers[next].todo)] + answers[next].answer
		next++
	}
	if next != len(answers) {
		t.Fatalf("answered %d TODOs of %d: the skeleton lost some", next, len(answers))
	}
	return strings.Join(lines, "\n")
}

// TestInitAnsweredLintsClean answers every TODO of a skeleton whose id
// matches the staging names in the example's SQL, and expects no finding.
func TestInitAnsweredLintsClean(t *testing.T) {
	answered := answerTODOs(t, initSkeleton(t, "--id", "bf20261116_a"), answers)
	code, out := lintProject(t, skeletonProject(t, answered))
	if code != exitClean || !strings.Contains(out, "no findings") {
		t.Errorf("answered skeleton: exit %d:\n%s\n--- plan\n%s", code, out, answered)
	}
}

func TestSchemaURLPinsTheRelease(t *testing.T) {
	const base = "https://raw.githubusercontent.com/bflint/bflint/"
	for _, c := range []struct {
		v    versionInfo
		want string
	}{
		{versionInfo{Version: "v0.3.1", Commit: "0123456789abcdef0123456789abcdef01234567"}, "v0.3.1"},
		{versionInfo{Version: "v0.0.0-20261201090000-0123456789ab", Commit: "0123456789ab"}, "0123456789ab"},
		{versionInfo{Version: "dev", Commit: "0123456789abcdef0123456789abcdef01234567-dirty"}, "main"},
		{versionInfo{Version: "dev", Commit: "unknown"}, "main"},
	} {
		if got := schemaURL(c.v); got != base+c.want+"/parser/plan/schema.json" {
			t.Errorf("schemaURL(%+v) = %s, want ref %s", c.v, got, c.want)
		}
	}
}

// TestInitFromManifestConfig is init reading the model's config: each
// strategy's rerun answer, the partition column and grain, and the
// timezone left to the author.
func TestInitFromManifestConfig(t *testing.T) {
	manifestPath, err := filepath.Abs("../../testdata/manifests/init_strategies.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		target, start string
		want, absent  []string
	}{
		{"sessions", "2026-03-01", []string{
			"  timezone: TODO  #",
			"  partition_column: session_date  # from the manifest: partition_by.field",
			"  grain: day  # from the manifest: a date partition_by",
			"  write: merge  # from the manifest: incremental_strategy merge",
			"  key: [session_id]  # from the manifest: unique_key",
		}, []string{"timezone: UTC", "write: append", "\nrun:"}},
		{"events_hourly", "2026-03-01T05:00", []string{
			"  grain: hour  # from the manifest: partition_by.granularity",
			"  partition_column: event_hour  # from the manifest",
			"  write: replace_partition  # from the manifest: incremental_strategy insert_overwrite",
		}, []string{"  key:"}},
		{"page_views", "2026-03-01", []string{
			"  write: append  # TODO from the manifest: incremental_strategy append adds a partition's rows again on a re-run (BF201)",
			"  key: [TODO]",
			"  partition_column: TODO",
		}, nil},
		{"clicks_keyless", "2026-03-01", []string{
			"  write: append  # TODO from the manifest: incremental_strategy merge with no unique_key",
		}, nil},
		{"orders_batched", "2026-03-01", []string{
			"  write: replace_partition  # from the manifest: microbatch",
			"  partition_column: ordered_at  # TODO check: the event_time of the manifest",
			"  command: >-\n    dbt run --select orders_batched --target backfill --defer --state prod-artifacts --event-time-start 2026-03-01 --event-time-end 2026-03-02\n",
			// No macro names tables after a var: dbt writes the model's
			// name, which bflint cannot complete with the output's schema.
			"  relation: TODO  # the table dbt run --target backfill writes",
		}, []string{"build: sql/TODO_build.sql", "uniqueness_check", "--vars"}},
		{"customers_deleted", "2026-03-01", []string{
			"  write: merge  # from the manifest: delete+insert on unique_key",
			"  key: [customer_id, valid_on]  # from the manifest: unique_key",
		}, nil},
		{"sessions_monthly", "2026-03", []string{
			"  grain: month  # from the manifest: partition_by.granularity",
			"  start: 2026-03",
			"  write: overwrite  # from the manifest: materialized table",
		}, nil},
	} {
		var stdout, stderr bytes.Buffer
		args := []string{"init", "--manifest", manifestPath, "--target", c.target, "--start", c.start, "--end", c.start}
		if code := run(args, &stdout, &stderr); code != 0 {
			t.Errorf("%s: exit %d: %s", c.target, code, stderr.String())
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(stdout.String(), w) {
				t.Errorf("%s: no line %q in:\n%s", c.target, w, stdout.String())
			}
		}
		for _, a := range c.absent {
			if strings.Contains(stdout.String(), a) {
				t.Errorf("%s: %q should not be written:\n%s", c.target, a, stdout.String())
			}
		}
	}
}

// TestInitMicrobatchNamesStaging: where the project's generate_alias_name
// names tables after a var, the command sets it to the plan id, and the
// staged table is named with it, as docs/dbt.md step 3 writes.
func TestInitMicrobatchNamesStaging(t *testing.T) {
	t.Chdir("../../examples/dbt_microbatch")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"init", "--target", "fct_sessions", "--start", "2026-03-02", "--end", "2026-04-15"}, &stdout, &stderr); code != exitClean {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	for _, want := range []string{
		`    dbt run --select fct_sessions --target backfill --defer --state prod-artifacts --vars '{"backfill_id": "bf20260302_a"}' --event-time-start 2026-03-02 --event-time-end 2026-04-16` + "\n",
		"  relation: backfill_staging.fct_sessions__bf20260302_a  # TODO check: the table generate_alias_name names with backfill_id set to the plan id\n",
	} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("no line %q in:\n%s", want, stdout.String())
		}
	}
	// The command holds ": " in its vars: written plain, the skeleton
	// would not be YAML, and every other TODO would go unreported.
	p := plan.Parse(source.Add(token.NewFileSet(), "p.backfill.yaml", stdout.Bytes()))
	for _, pr := range p.Problems {
		if strings.Contains(pr.Message, "invalid YAML") {
			t.Errorf("the skeleton is not YAML: %s", pr.Message)
		}
	}
	if p.Run == nil || !strings.Contains(p.Run.Command.V, `--vars '{"backfill_id": "bf20260302_a"}'`) {
		t.Errorf("run.command reads %+v", p.Run)
	}
}

// TestInitOutputFile is init -o: the plan lands in the file, the manifest
// path in it is read from the plan's folder, and an existing plan is kept.
func TestInitOutputFile(t *testing.T) {
	dir := skeletonProject(t, "bflint: 1\n")
	if err := os.Remove(filepath.Join(dir, "new.backfill.yaml")); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	if err := os.Mkdir("backfills", 0o755); err != nil {
		t.Fatal(err)
	}
	args := []string{"init", "--target", "fct_orders", "--start", "2026-01-14", "--end", "2026-06-30", "--manifest", "target/manifest.json", "-o", "backfills/fct_orders.backfill.yaml"}
	var stdout, stderr bytes.Buffer
	if code := run(args, &stdout, &stderr); code != 0 || !strings.HasPrefix(stdout.String(), "bflint init: wrote backfills/fct_orders.backfill.yaml (no SQL: ") ||
		!strings.HasSuffix(stdout.String(), " answers are still TODO: fill them in, then run bflint backfills/fct_orders.backfill.yaml to see what remains\n") {
		t.Fatalf("init -o: exit %d, stdout %q, stderr %s", code, stdout.String(), stderr.String())
	}
	written, err := os.ReadFile("backfills/fct_orders.backfill.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(written), "  manifest: ../target/manifest.json\n") {
		t.Errorf("the manifest path is not relative to the plan's folder:\n%s", written)
	}
	code, out := lintProject(t, dir)
	if code != exitFindings || strings.Contains(out, "downstream.manifest") {
		t.Errorf("lint of the written plan: exit %d, and downstream.manifest should resolve:\n%s", code, out)
	}
	stdout.Reset()
	stderr.Reset()
	if code := run(args, &stdout, &stderr); code != exitUsage || !strings.Contains(stderr.String(), "the file exists") {
		t.Errorf("init -o onto an existing plan: exit %d, stderr %q; want exit 2 refusing", code, stderr.String())
	}
	if again, _ := os.ReadFile("backfills/fct_orders.backfill.yaml"); string(again) != string(written) {
		t.Errorf("the existing plan was changed")
	}
}
