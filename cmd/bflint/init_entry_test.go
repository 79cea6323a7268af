package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

const entryGolden = "../../testdata/golden/init_bqetl_entry.yaml"

// bqetlTree copies the init test tree to a temporary folder and works in
// it, so that -o may write there.
func bqetlTree(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS("../../testdata/init/bqetl")); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	return dir
}

func runInit(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(append([]string{"init", "--now", "2026-12-03"}, args...), &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestInitEntryGolden(t *testing.T) {
	golden, err := filepath.Abs(entryGolden)
	if err != nil {
		t.Fatal(err)
	}
	bqetlTree(t)
	code, got, stderr := runInit(t, "--target", "orders_derived.orders_v1", "--start", "2026-03-01", "--end", "2026-03-20")
	if code != 0 {
		t.Fatalf("init exit %d: %s", code, stderr)
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
		t.Errorf("init output differs from %s (run with -update to accept):\n%s", entryGolden, got)
	}
	for _, s := range []string{"#   sql/shop-prod/orders_derived/daily_totals_v1/backfill.yaml", "- analyst@example.com  # from metadata.yaml owners"} {
		if !strings.Contains(got, s) {
			t.Errorf("the entry lacks %q:\n%s", s, got)
		}
	}
	if strings.Contains(got, "order_counts_v1") {
		t.Errorf("order_counts_v1 is written whole by every run and needs no entry:\n%s", got)
	}
}

// The entry goes on top of the table's file, which keeps its mode and its
// entries byte for byte; lint then reports only the TODOs, and once they
// are answered with a correction, the downstream table init listed.
func TestInitEntryIntoBackfillFile(t *testing.T) {
	bqetlTree(t)
	file := "sql/shop-prod/orders_derived/orders_v1/backfill.yaml"
	before, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(file, 0o600); err != nil {
		t.Fatal(err)
	}
	args := []string{"--target", "shop-prod.orders_derived.orders_v1", "--start", "2026-03-01", "--end", "2026-03-20", "-o", file}
	// On success it says what it did, what is left and what to run next.
	if code, stdout, stderr := runInit(t, args...); code != 0 ||
		stdout != "bflint init: added the entry of 2026-12-03 to the top of "+file+"; 1 answer is still TODO: fill them in, then run bflint "+file+" to see what remains\n" {
		t.Fatalf("init -o: exit %d, stdout %q, stderr %s", code, stdout, stderr)
	}
	after, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasSuffix(after, before) || !bytes.Contains(after, []byte("\n2026-12-03:\n")) {
		t.Fatalf("the entry is not on top of the file's own:\n%s", after)
	}
	if info, err := os.Stat(file); err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("the file's mode is not kept: %v %v", info.Mode(), err)
	}
	if code, _, stderr := runInit(t, args...); code != exitUsage || !strings.Contains(stderr, "has an entry of 2026-12-03 already") {
		t.Errorf("a second entry of one day: exit %d, stderr %q; want exit 2 refusing", code, stderr)
	}
	if again, _ := os.ReadFile(file); !bytes.Equal(again, after) {
		t.Errorf("the refused run changed the file")
	}

	lines := strings.Split(string(after), "\n")
	head := regexp.MustCompile(`^(?:.*/)?backfill\.yaml:(\d+):\d+: .*\[(BF\d+) `)
	findings := 0
	for _, l := range strings.Split(lintEntries(t, file), "\n") {
		m := head.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		findings++
		n, _ := strconv.Atoi(m[1])
		if m[2] != "BF001" || !strings.Contains(lines[n-1], "TODO") {
			t.Errorf("finding other than a TODO's BF001: %s (line %q)", l, lines[n-1])
		}
	}
	// The watchers are the table's owners: only the reason is left.
	if findings != 1 {
		t.Errorf("%d findings on the new entry, want 1, on its reason", findings)
	}

	answered := strings.Replace(string(after), "reason: TODO what was wrong, since when, which change caused it, and a link to the bug", "reason: Fix duplicated orders.", 1)
	if err := os.WriteFile("sql/shop-prod/orders_derived/orders_v1/backfill.yaml", []byte(answered), 0o600); err != nil {
		t.Fatal(err)
	}
	out := lintEntries(t, file)
	if strings.Count(out, "[BF") != 1 || !strings.Contains(out, "1 incremental table built from shop-prod.orders_derived.orders_v1") || !strings.Contains(out, "daily_totals_v1") {
		t.Errorf("the answered entry should get the one BF801 init announced:\n%s", out)
	}
}

func lintEntries(t *testing.T, file string) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	run([]string{"--now", "2026-12-03", "--no-color", file}, &stdout, &stderr)
	return stdout.String() + stderr.String()
}

func TestInitEntryNotes(t *testing.T) {
	bqetlTree(t)
	code, got, stderr := runInit(t, "--target", "clients_derived.clients_last_seen_v1", "--start", "2025-06-01", "--end", "2026-11-01")
	if code != 0 {
		t.Fatalf("init exit %d: %s", code, stderr)
	}
	flat := strings.Join(strings.Fields(strings.ReplaceAll(got, "\n#", "")), " ")
	for _, s := range []string{
		"writes the partition 1 day before it, 2025-05-31 to 2026-10-31",
		"keeps 400 days of partitions: the first it still has is about 2025-10-29",
		"override_depends_on_past_end_date: true",
	} {
		if !strings.Contains(flat, s) {
			t.Errorf("no note %q in:\n%s", s, got)
		}
	}
	code, got, _ = runInit(t, "--target", "orders_derived.orders_v1", "--start", "2026-11-01", "--end", "2026-12-03")
	if code != 0 || !strings.Contains(got, "(BF102)") {
		t.Errorf("an entry ending on its own day: exit %d, want a BF102 note:\n%s", code, got)
	}
}

func TestInitEntryBadInput(t *testing.T) {
	bqetlTree(t)
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--target", "orders.orders", "--start", "2026-03-01", "--end", "2026-03-20"}, exitUsage, "is a view: it keeps no rows of its own"},
		{[]string{"--target", "orders_stable.orders_v1", "--start", "2026-03-01", "--end", "2026-03-20"}, exitUsage, "defined outside it"},
		{[]string{"--target", "orders_derived.orders_v1", "--start", "2026-03-01", "--end", "2026-12-04"}, exitUsage, "after the entry date 2026-12-03"},
		{[]string{"--target", "orders_derived.orders_v1", "--start", "2026-03", "--end", "2026-03-20"}, exitUsage, "a bqetl entry's dates are days"},
		{[]string{"--target", "orders_derived.orders_v1", "--start", "2026-03-01", "--end", "2026-03-20", "--grain", "day"}, exitUsage, "--grain is for a plan; a bqetl entry has none"},
		{[]string{"--target", "orders_derived.nope_v1", "--start", "2026-03-01", "--end", "2026-03-20"}, exitUsage, "nope_v1"},
	} {
		code, stdout, stderr := runInit(t, c.args...)
		if code != c.code || stdout != "" || !strings.Contains(stderr, c.want) {
			t.Errorf("init %v: exit %d, stdout %q, stderr %q; want exit %d and %q", c.args, code, stdout, stderr, c.code, c.want)
		}
	}
}

// TestInitEntryWindows names, beside each downstream table that reads a
// window of the table, the wider range its own entry must cover.
func TestInitEntryWindows(t *testing.T) {
	code, stdout, stderr := runInit(t, "--tree", "../../testdata/rules/BF809/sql", "--target", "shop-prod.orders_derived.orders_v1", "--start", "2026-01-01", "--end", "2026-01-31")
	if code != exitClean {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		"orders_rolling_28d_v1/backfill.yaml over 2026-01-01..2026-02-27 (it reads this table over days -27..0, BF809)",
		"orders_last_seen_v1/backfill.yaml over 2026-01-01..2026-02-27 (it reads this table over days -27..0, BF809)",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("missing %q in:\n%s", want, stdout)
		}
	}
	if strings.Contains(stdout, "orders_daily_v1/backfill.yaml over") {
		t.Errorf("a table reading one partition per partition is given a range:\n%s", stdout)
	}
}

// Numbers at the edges of their type in metadata.yaml: an expiry longer
// than the calendar keeps every partition, so init says nothing of an
// expiry (1e20 once gave a comment that the range starts before the data),
// and an offset off the calendar moves no date.
func TestInitEntryEdgeNumbers(t *testing.T) {
	bqetlTree(t)
	meta := "sql/shop-prod/orders_derived/orders_v1/metadata.yaml"
	for _, c := range []struct{ metadata, absent string }{
		{"    expiration_days: 1e20\n", "BF108"},
		{"    expiration_days: 1e308\n", "BF108"},
		{"scheduling:\n  date_partition_offset: 9223372036854775807\n", "date_partition_offset"},
	} {
		text := "bigquery:\n  time_partitioning:\n    type: day\n    field: submission_date\n" + c.metadata
		if err := os.WriteFile(meta, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		code, got, stderr := runInit(t, "--target", "orders_derived.orders_v1", "--start", "1990-03-01", "--end", "1990-03-20")
		if code != 0 || strings.Contains(got, c.absent) {
			t.Errorf("metadata %q: exit %d, stderr %q; the entry mentions %s:\n%s", c.metadata, code, stderr, c.absent, got)
		}
	}
}

// init -o for an entry writes only the table's own backfill.yaml, or a
// new file, as the dbt init writes only a new one: a link to a file
// elsewhere, any other file, another table's metadata.yaml, a folder and
// a backfill.yaml that does not parse are refused, and left as they were.
func TestInitEntryRefusals(t *testing.T) {
	manifestPath, err := filepath.Abs("../../testdata/manifests/init_strategies.json")
	if err != nil {
		t.Fatal(err)
	}
	dir := bqetlTree(t)
	outside := filepath.Join(t.TempDir(), "outside.txt")
	link := "sql/shop-prod/orders_derived/order_counts_v1/backfill.yaml"
	broken := "sql/shop-prod/orders_derived/daily_totals_v1/backfill.yaml"
	for path, text := range map[string]string{outside: "outside\n", "notes.txt": "notes\n", broken: "2026-01-01: [unclosed\n"} {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	symlink(t, outside, link)
	if err := os.Mkdir("out", 0o755); err != nil {
		t.Fatal(err)
	}
	files := []string{outside, "notes.txt", broken, "sql/shop-prod/orders_derived/daily_totals_v1/metadata.yaml"}
	before := map[string][]byte{}
	for _, f := range files {
		before[f], _ = os.ReadFile(f)
	}
	for _, c := range []struct{ target, output, says string }{
		{"orders_derived.order_counts_v1", link, "not a regular file"},
		{"orders_derived.orders_v1", "notes.txt", "is not the backfill.yaml of shop-prod.orders_derived.orders_v1"},
		{"orders_derived.orders_v1", "sql/shop-prod/orders_derived/daily_totals_v1/metadata.yaml", "is not the backfill.yaml"},
		{"orders_derived.orders_v1", "out", "a folder"},
		{"orders_derived.daily_totals_v1", broken, "line 1: invalid YAML"},
	} {
		code, _, stderr := runInit(t, "--target", c.target, "--start", "2026-03-01", "--end", "2026-03-20", "-o", c.output)
		if code != exitUsage || !strings.Contains(stderr, c.says) {
			t.Errorf("init --target %s -o %s: exit %d, stderr %q; want 2 and %q", c.target, c.output, code, stderr, c.says)
		}
	}
	for _, f := range files {
		if after, _ := os.ReadFile(f); !bytes.Equal(after, before[f]) {
			t.Errorf("a refused init changed %s:\n%s", strings.TrimPrefix(f, dir), after)
		}
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"init", "--manifest", manifestPath, "--target", "sessions", "--start", "2026-03-01", "--end", "2026-03-20", "-o", "out"}, &stdout, &stderr); code != exitUsage || !strings.Contains(stderr.String(), "a folder") {
		t.Errorf("dbt init -o a folder: exit %d, stderr %q; want it to say it is a folder", code, stderr.String())
	}
}
