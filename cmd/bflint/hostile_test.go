package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/bflint/bflint/internal/testfs"
)

// hostileBound is how long one hostile case may take before the test fails,
// and heavyBound the same for the cases of many megabytes. Light cases take
// milliseconds; the 10 MB SQL line took 13 to 33 s on a two-core machine
// busy with other work. The bounds are generous so that a loaded CI runner never
// makes the suite flaky, and still catch a hang or a quadratic blow-up.
const (
	hostileBound = 20 * time.Second
	heavyBound   = 120 * time.Second
)

// companionPlan sits beside every hostile input: whatever the hostile file
// does, this plan must still be linted and get its finding.
const (
	companionPlan    = "bflint: 1\nid: bf_companion\ntarget: analytics.companion\n"
	companionFinding = `companion.backfill.yaml:1:1: error: plan "bf_companion" has no rollback section`
)

// minimalPlan is a plan with one hostile key appended; it always lacks a
// rollback section, so BF601 proves the plan was read at all.
func minimalPlan(id, extra string) string {
	return "bflint: 1\nid: " + id + "\ntarget: analytics.t\n" + extra
}

// pathKeys sets every file key of a plan to value.
func pathKeys(value string) string {
	q := fmt.Sprintf("%q", value)
	return "range:\n  start: 2026-01-01\n  end: 2026-01-31\n  boundary:\n    evidence: " + q +
		"\nrerun:\n  uniqueness_check: " + q +
		"\nstaging:\n  build: " + q +
		"\nvalidation:\n  checks:\n    - name: c\n      sql: " + q + "\n      pass: \"x = 0\"" +
		"\npublish:\n  sql: " + q +
		"\nrollback:\n  capture: " + q + "\n  sql: " + q +
		"\ndownstream:\n  manifest: " + q +
		"\ndata:\n  suppression: " + q + "\n"
}

// pathKeyNames are the keys pathKeys sets, as findings name them.
var pathKeyNames = []string{
	"range.boundary.evidence", "rerun.uniqueness_check", "staging.build", "validation.checks[0].sql",
	"publish.sql", "rollback.capture", "rollback.sql", "downstream.manifest", "data.suppression",
}

// manifestJSON is a small dbt manifest whose child_map is given verbatim.
func manifestJSON(childMap string) string {
	node := func(name string, deps string) string {
		return fmt.Sprintf(`"model.shop.%s": {"resource_type": "model", "name": %q, "package_name": "shop", "database": "w", "schema": "analytics", "alias": %q, "original_file_path": "models/%s.sql", "config": {"materialized": "table"}, "depends_on": {"nodes": [%s]}}`,
			name, name, name, name, deps)
	}
	return `{"metadata": {"dbt_schema_version": "https://schemas.getdbt.com/dbt/manifest/v12.json", "dbt_version": "1.10.0", "project_name": "shop", "adapter_type": "postgres"},
"nodes": {` + node("a", `"model.shop.b"`) + ",\n" + node("b", `"model.shop.a"`) + ",\n" + node("c", `"model.shop.a"`) + `},
"sources": {}, "exposures": {}, "metrics": {}, "semantic_models": {}, "snapshots": {},
"child_map": ` + childMap + "}\n"
}

// cyclePlan names the manifest's target a and lists nothing to rebuild, so
// BF801 must walk a child_map that may loop; "nosuch" is for BF803.
const cyclePlan = "bflint: 1\nid: bf_cycle\ntarget: model.shop.a\nrange:\n  start: 2026-01-01\n  end: 2026-01-31\n" +
	"downstream:\n  manifest: target/manifest.json\n  rebuild: [nosuch]\n"

// workflowText is text that GitHub would run as workflow commands, and a
// terminal as escape sequences, if it reached either unescaped.
const workflowText = "\x1b[31mred\x07bell\bback::error::pwned%0A::warning::w\n::notice::n"

type hostileCase struct {
	name string
	// files are written into the project (names are slash-separated).
	files map[string]string
	// setup builds what files cannot: symlinks, folders, sparse files.
	setup func(t *testing.T, dir string)
	// want are texts stdout or stderr must contain; each names the file.
	want []string
	// exit is the expected exit code.
	exit int
	// roundTrip is text that must come back unchanged from the JSON report.
	roundTrip string
	// heavy cases build inputs of many megabytes, or run long under the
	// race detector, and skip under -short.
	heavy bool
}

func hostileCases() []hostileCase {
	rng := rand.New(rand.NewPCG(8, 8))
	binary := make([]byte, 64<<10)
	for i := range binary {
		binary[i] = byte(rng.Uint32())
	}
	var fiftyK strings.Builder
	for i := 1; i < 50000; i++ {
		fmt.Fprintf(&fiftyK, "SELECT %d FROM t;\n", i)
	}
	fiftyK.WriteString("SELEC 50000;\n")
	aliasBomb := "bflint: 1\nid: bf_bomb\ntarget: analytics.t\na0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
	for i := 1; i <= 9; i++ {
		aliasBomb += fmt.Sprintf("a%d: &a%d [*a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d]\n", i, i, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1)
	}
	return []hostileCase{
		{
			name:  "binary sql",
			files: map[string]string{"blob.sql": string(binary)},
			want:  []string{"blob.sql:", "[BF002 sql-unparsed]"},
			exit:  exitFindings,
		},
		{
			name:  "NUL-filled sql",
			files: map[string]string{"zeros.sql": strings.Repeat("\x00", 4096)},
			want:  []string{"zeros.sql:1:1: warning: cannot read the SQL from here to the end of the file: NUL byte in the file"},
			exit:  exitFindings,
		},
		{
			name:  "NUL byte in a plan",
			files: map[string]string{"nul.backfill.yaml": minimalPlan("bf_nul", "owner: a\x00b\n")},
			want:  []string{"nul.backfill.yaml:"},
			exit:  exitFindings,
		},
		{
			name:  "invalid UTF-8 in a plan",
			files: map[string]string{"latin1.backfill.yaml": minimalPlan("bf_latin1", "owner: caf\xe9 \xff\xfe\n")},
			want:  []string{"latin1.backfill.yaml:"},
			exit:  exitFindings,
		},
		{
			name:  "BOM plan",
			files: map[string]string{"bom.backfill.yaml": "\xef\xbb\xbf" + minimalPlan("bf_bom", "")},
			want:  []string{`bom.backfill.yaml:1:1: error: plan "bf_bom" has no rollback section`},
			exit:  exitFindings,
		},
		{
			name:  "CRLF plan",
			files: map[string]string{"crlf.backfill.yaml": strings.ReplaceAll(minimalPlan("bf_crlf", "owner: data-eng\n"), "\n", "\r\n")},
			want:  []string{`crlf.backfill.yaml:1:1: error: plan "bf_crlf" has no rollback section`},
			exit:  exitFindings,
		},
		{
			name:  "BOM and CRLF sql",
			files: map[string]string{"crlf.sql": "\xef\xbb\xbfSELECT 1;\r\nSELEC 2;\r\n"},
			want:  []string{`crlf.sql:2:1: warning: cannot parse this statement at "SELEC"`},
			exit:  exitFindings,
		},
		{
			name:  "10 MB line of sql",
			files: map[string]string{"long.sql": "SELECT " + strings.Repeat("c,", 5<<20) + "c;"},
			want:  []string{"long.sql:1:"},
			exit:  exitFindings,
			heavy: true,
		},
		{
			name:  "10 MB line of yaml",
			files: map[string]string{"long.backfill.yaml": minimalPlan("bf_long", "owner: "+strings.Repeat("o", 10<<20)+"\n")},
			want:  []string{`long.backfill.yaml:1:1: error: plan "bf_long" has no rollback section`},
			exit:  exitFindings,
			heavy: true,
		},
		{
			// Parsed, not tokenised: under the 4 MiB statement limit. The
			// AST walk used to ask each of the ~250 members of every Node
			// whether it was set, which made this case twice as slow. Its
			// tree (16.5 MiB of the parser's JSON) fills the file's read
			// budget, so the statement after it is the unread rest.
			name:  "wide select list without spaces",
			files: map[string]string{"wide.sql": "SELECT " + strings.Repeat("c,", 1<<18) + "c FROM t;\nSELEC 2;\n"},
			want:  []string{`wide.sql:2:1: warning: cannot read the SQL from here to the end of the file: what bflint keeps of the statements before this one fills the 16 MiB`},
			exit:  exitFindings,
			heavy: true,
		},
		{
			name:  "50000 statements",
			files: map[string]string{"many.sql": fiftyK.String()},
			want:  []string{`many.sql:50000:1: warning: cannot parse this statement at "SELEC"`},
			exit:  exitFindings,
			heavy: true,
		},
		{
			name:  "Jinja expression never closed",
			files: map[string]string{"open.sql": "select * from {{ ref('orders') \n"},
			want:  []string{"open.sql:1:"},
			exit:  exitFindings,
		},
		{
			name:  "Jinja endif without if",
			files: map[string]string{"endif.sql": "select 1 {% endif %} from t\n"},
			want:  []string{"endif.sql:1:"},
			exit:  exitFindings,
		},
		{
			name:  "Jinja comment never closed",
			files: map[string]string{"comment.sql": "select 1 from t {# a comment\n"},
			want:  []string{"comment.sql:1:"},
			exit:  exitFindings,
		},
		{
			name:  "YAML alias bomb",
			files: map[string]string{"bomb.backfill.yaml": aliasBomb},
			want:  []string{"bomb.backfill.yaml:"},
			exit:  exitFindings,
		},
		{
			name:  "10000-deep flow sequences",
			files: map[string]string{"deep.backfill.yaml": minimalPlan("bf_deep", "owner: "+strings.Repeat("[", 10000)+strings.Repeat("]", 10000)+"\n")},
			want:  []string{"deep.backfill.yaml:"},
			exit:  exitFindings,
		},
		{
			name:  "10000-deep flow mappings",
			files: map[string]string{"deepmap.backfill.yaml": minimalPlan("bf_deepmap", "range: "+strings.Repeat("{a: ", 10000)+"1"+strings.Repeat("}", 10000)+"\n")},
			want:  []string{"deepmap.backfill.yaml:"},
			exit:  exitFindings,
		},
		{
			name: "10000-deep block mappings",
			files: map[string]string{"deepblock.backfill.yaml": func() string {
				var b strings.Builder
				b.WriteString(minimalPlan("bf_deepblock", "range:\n"))
				for i := 1; i <= 10000; i++ {
					b.WriteString(strings.Repeat(" ", i) + "k:\n")
				}
				return b.String()
			}()},
			want: []string{"deepblock.backfill.yaml:"},
			exit: exitFindings,
			// 1.2 s plain, over 20 s under -race: the race run skips it.
			heavy: true,
		},
		{
			name:  "duplicate keys",
			files: map[string]string{"dup.backfill.yaml": "bflint: 1\nid: bf_dup\nid: bf_dup2\ntarget: analytics.t\nrange:\n  start: 2026-01-01\n  start: 2026-02-01\n"},
			want:  []string{"dup.backfill.yaml:3:1:"},
			exit:  exitFindings,
		},
		{
			name: "every section a list",
			files: map[string]string{"lists.backfill.yaml": "bflint: 1\nid: bf_lists\ntarget: analytics.t\n" +
				"range: [1]\nrerun: [1]\ncompute: [1]\nstaging: [1]\nvalidation: [1]\npublish: [1]\nrollback: [1]\n" +
				"trial: [1]\ndownstream: [1]\ncommunication: [1]\ndata: [1]\n"},
			want: []string{"lists.backfill.yaml:4:"},
			exit: exitFindings,
		},
		{
			name: "every scalar a mapping",
			files: map[string]string{"maps.backfill.yaml": "bflint: {a: 1}\nid: {a: 1}\ntarget: {a: 1}\nowner: {a: 1}\nreason: {a: 1}\n" +
				"range:\n  start: {a: 1}\n  end: {a: 1}\n  grain: {a: 1}\n  timezone: {a: 1}\n" +
				"rerun:\n  write: {a: 1}\n  key: {a: 1}\n" +
				"rollback:\n  mechanism: {a: 1}\n  tested: {a: 1}\n  sql: {a: 1}\n" +
				"downstream:\n  rebuild: {a: 1}\n  manifest: {a: 1}\n"},
			want: []string{"maps.backfill.yaml:1:"},
			exit: exitFindings,
		},
		{
			name:  "plan that is a list",
			files: map[string]string{"list.backfill.yaml": "- bflint: 1\n- id: bf_list\n"},
			want:  []string{"list.backfill.yaml:1:"},
			exit:  exitFindings,
		},
		{
			name:  "empty plan",
			files: map[string]string{"empty.backfill.yaml": ""},
			want:  []string{"empty.backfill.yaml:"},
			exit:  exitFindings,
		},
		{
			name:  "absolute path in every path key",
			files: map[string]string{"abs.backfill.yaml": minimalPlan("bf_abs", pathKeys("/etc/passwd"))},
			want:  keyFindings("abs.backfill.yaml", "/etc/passwd", "resolves outside the project root"),
			exit:  exitFindings,
		},
		{
			name:  "path escaping the repository in every path key",
			files: map[string]string{"up/esc.backfill.yaml": minimalPlan("bf_esc", pathKeys("../../../../../../../etc/passwd"))},
			want:  keyFindings("up/esc.backfill.yaml", "../../../../../../../etc/passwd", "resolves outside the project root"),
			exit:  exitFindings,
		},
		{
			name:  "symlink escaping the repository in every path key",
			files: map[string]string{"link.backfill.yaml": minimalPlan("bf_link", pathKeys("out"))},
			setup: func(t *testing.T, dir string) {
				symlink(t, os.TempDir(), filepath.Join(dir, "out"))
			},
			want: keyFindings("link.backfill.yaml", "out", "is a link that resolves outside the project root"),
			exit: exitFindings,
		},
		{
			name:  "folder in every path key",
			files: map[string]string{"sqldir.backfill.yaml": minimalPlan("bf_sqldir", pathKeys("sql")), "sql/.keep": ""},
			want:  keyFindings("sqldir.backfill.yaml", "sql", "is a directory, not a file"),
			exit:  exitFindings,
		},
		{
			// A folder is not a file: discovery descends into a folder named
			// like a plan and lints what it holds, so nothing in it is hidden.
			name:  "folder named like a plan",
			files: map[string]string{"x.backfill.yaml/inner.sql": "SELEC 1;\n", "x.backfill.yaml/inner.backfill.yaml": minimalPlan("bf_inner", "")},
			want: []string{`x.backfill.yaml/inner.sql:1:1: warning: cannot parse this statement at "SELEC"`,
				`x.backfill.yaml/inner.backfill.yaml:1:1: error: plan "bf_inner" has no rollback section`},
			exit: exitFindings,
		},
		{
			// Discovery does not follow linked folders, so a loop ends.
			name:  "symlinked folder loop",
			files: map[string]string{"a/in.sql": "SELEC 1;\n"},
			setup: func(t *testing.T, dir string) {
				symlink(t, "..", filepath.Join(dir, "a", "up"))
				symlink(t, "../a", filepath.Join(dir, "a", "again"))
			},
			want: []string{`a/in.sql:1:1: warning: cannot parse this statement at "SELEC"`},
			exit: exitFindings,
		},
		{
			name:  "plan path through a symlink loop",
			files: map[string]string{"loop.backfill.yaml": minimalPlan("bf_loop", "staging:\n  build: l1/build.sql\n")},
			setup: func(t *testing.T, dir string) {
				symlink(t, "l2", filepath.Join(dir, "l1"))
				symlink(t, "l1", filepath.Join(dir, "l2"))
			},
			want: []string{"loop.backfill.yaml:5:10: error: staging.build"},
			exit: exitFindings,
		},
		{
			name: "SQL file that links to itself",
			setup: func(t *testing.T, dir string) {
				symlink(t, "self.sql", filepath.Join(dir, "self.sql"))
			},
			want: []string{"self.sql:"},
			exit: exitFindings,
		},
		{
			name: "dangling symlink plan",
			setup: func(t *testing.T, dir string) {
				symlink(t, "gone.yaml", filepath.Join(dir, "dangling.backfill.yaml"))
			},
			want: []string{"dangling.backfill.yaml:"},
			exit: exitFindings,
		},
		{
			name: "truncated manifest",
			files: map[string]string{"target/manifest.json": manifestJSON(`{}`)[:300],
				"m.backfill.yaml": cyclePlan},
			want: []string{"m.backfill.yaml:", "target/manifest.json"},
			exit: exitFindings,
		},
		{
			name:  "manifest that is a list",
			files: map[string]string{"target/manifest.json": `[{"nodes": []}]`, "m.backfill.yaml": cyclePlan},
			want:  []string{"m.backfill.yaml:", "target/manifest.json"},
			exit:  exitFindings,
		},
		{
			name: "manifest with every section wrongly shaped",
			files: map[string]string{"target/manifest.json": `{"metadata": [], "nodes": [1, 2], "sources": "x", "child_map": {"model.shop.a": "model.shop.b"}, "parent_map": 7}`,
				"m.backfill.yaml": cyclePlan},
			want: []string{"m.backfill.yaml:", "target/manifest.json"},
			exit: exitFindings,
		},
		{
			name: "manifest nested 100000 deep",
			files: map[string]string{"target/manifest.json": `{"nodes": ` + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + "}",
				"m.backfill.yaml": cyclePlan},
			want: []string{"m.backfill.yaml:", "target/manifest.json"},
			exit: exitFindings,
		},
		{
			name: "truncated catalog beside the manifest",
			files: map[string]string{"target/manifest.json": manifestJSON(`{}`), "target/catalog.json": `{"nodes": {"model.shop.a": {"columns": `,
				"m.backfill.yaml": cyclePlan},
			want: []string{"m.backfill.yaml:8:13: error: the dbt artifact target/catalog.json cannot be read"},
			exit: exitFindings,
		},
		{
			name:  "manifest that is a folder",
			files: map[string]string{"target/manifest.json/.keep": "", "m.backfill.yaml": cyclePlan},
			want:  []string{`m.backfill.yaml:8:13: error: downstream.manifest "target/manifest.json" is a directory, not a file`},
			exit:  exitFindings,
		},
		{
			name: "cycle in child_map",
			files: map[string]string{
				"target/manifest.json": manifestJSON(`{"model.shop.a": ["model.shop.b", "model.shop.c"], "model.shop.b": ["model.shop.a"], "model.shop.c": ["model.shop.c"]}`),
				"m.backfill.yaml":      cyclePlan},
			want: []string{"m.backfill.yaml:", `m.backfill.yaml:9:3: error: 2 models derived from "model.shop.a" are not rebuilt`, `"model.shop.b" (table, derived through`, `"model.shop.c" (table, derived through`, `m.backfill.yaml:9:13: error: downstream.rebuild entry "nosuch" is not in the dbt manifest`},
			exit: exitFindings,
		},
		{
			name:  "SQL file past the size limit",
			setup: func(t *testing.T, dir string) { sparse(t, filepath.Join(dir, "huge.sql"), 64<<20+1) },
			want:  []string{"huge.sql:1:1: error:", "larger than the 64 MiB bflint reads"},
			exit:  exitFindings,
		},
		{
			name:  "plan past the size limit",
			setup: func(t *testing.T, dir string) { sparse(t, filepath.Join(dir, "huge.backfill.yaml"), 65<<20) },
			want:  []string{"huge.backfill.yaml:1:1: error:", "larger than the 64 MiB bflint reads"},
			exit:  exitFindings,
		},
		{
			name:  "plan referencing a file past the size limit",
			files: map[string]string{"ref.backfill.yaml": minimalPlan("bf_ref", "staging:\n  build: big.sql\n")},
			setup: func(t *testing.T, dir string) { sparse(t, filepath.Join(dir, "big.sql"), 64<<20+1) },
			want:  []string{"ref.backfill.yaml:5:10: error: staging.build", "larger than the 64 MiB bflint reads"},
			exit:  exitFindings,
		},
		{
			name:  "escape sequences and workflow commands in the plan id",
			files: map[string]string{"esc.backfill.yaml": minimalPlan(fmt.Sprintf("%q", workflowText), "")},
			want:  []string{"esc.backfill.yaml:1:1: error: plan "},
			exit:  exitFindings,
			// Messages quote the id as Go does, escapes and all.
			roundTrip: fmt.Sprintf("plan %q has no rollback section", workflowText),
		},
		{
			name:      "escape sequences and workflow commands in a key",
			files:     map[string]string{"key.backfill.yaml": minimalPlan("bf_key", fmt.Sprintf("%q: 1\n", workflowText))},
			want:      []string{"key.backfill.yaml:4:1:"},
			exit:      exitFindings,
			roundTrip: "::error::pwned%0A::warning::w",
		},
		{
			name:      "escape sequences and workflow commands in SQL identifiers",
			files:     map[string]string{"ident.sql": "SELECT 1;\nSELECT 1 WHERE x = 1 \"" + workflowText + "\";\n"},
			want:      []string{"ident.sql:2:"},
			exit:      exitFindings,
			roundTrip: workflowText,
		},
		{
			name:  "escape sequences and workflow commands in a file name",
			files: map[string]string{"evil\x1b[31m\n::error::x%0A.sql": "SELEC 1;\n"},
			want:  []string{"evil\ufffd[31m\ufffd::error::x%0A.sql:1:1: warning:"},
			exit:  exitFindings,
		},
	}
}

// keyFindings expects one finding per path key of a plan set to value.
func keyFindings(file, value, message string) []string {
	want := []string{file + ":"}
	for _, k := range pathKeyNames {
		want = append(want, fmt.Sprintf("error: %s %q %s", k, value, message))
	}
	return want
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("symlinks unavailable: %v", err)
	}
}

// sparse makes a file of size bytes that takes no disk space.
func sparse(t *testing.T, path string, size int64) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := f.Truncate(size); err != nil {
		t.Fatal(err)
	}
}

// TestHostileInputs runs each hostile input through the whole CLI in a
// project of its own, beside a correct plan, and checks that bflint ends
// with a finding naming the file, keeps linting the correct plan, finishes
// within hostileBound, and writes every report format safely: no control
// bytes in text, no workflow command it did not make in GitHub output,
// valid JSON elsewhere, and no absolute path of the machine anywhere.
func TestHostileInputs(t *testing.T) {
	var slowest time.Duration
	var slowestName string
	for _, c := range hostileCases() {
		t.Run(c.name, func(t *testing.T) {
			if c.heavy && testing.Short() {
				t.Skip("builds inputs of many megabytes")
			}
			elapsed := runHostile(t, c)
			if elapsed > slowest {
				slowest, slowestName = elapsed, c.name
			}
		})
	}
	t.Logf("slowest case: %s (%v)", slowestName, slowest.Round(time.Millisecond))
}

func runHostile(t *testing.T, c hostileCase) time.Duration {
	dir := t.TempDir()
	out := t.TempDir()
	files := map[string]string{".git/HEAD": "ref: refs/heads/main\n", "companion.backfill.yaml": companionPlan}
	for name, text := range c.files {
		files[name] = text
	}
	testfs.Write(t, dir, files)
	if c.setup != nil {
		c.setup(t, dir)
	}
	t.Chdir(dir)
	reports := map[string]string{}
	args := []string{"--no-color", "--now", examplesNow, "--format", "text"}
	for _, f := range []string{"json", "sarif", "github", "rdjsonl", "markdown"} {
		reports[f] = filepath.Join(out, "report."+f)
		args = append(args, "--format", f+"="+reports[f])
	}
	args = append(args, ".")

	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	var stdout, stderr bytes.Buffer
	code := run(args, &stdout, &stderr)
	elapsed := time.Since(start)
	runtime.ReadMemStats(&after)
	t.Logf("%v, %d MiB allocated", elapsed.Round(time.Millisecond), (after.TotalAlloc-before.TotalAlloc)>>20)
	bound := hostileBound
	if c.heavy {
		bound = heavyBound
	}
	if elapsed > bound {
		t.Errorf("took %v, more than %v", elapsed, bound)
	}

	all := stdout.String() + stderr.String()
	if code != c.exit {
		t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, c.exit, clip(stdout.String()), clip(stderr.String()))
	}
	for _, w := range append(c.want, companionFinding) {
		if !strings.Contains(all, w) {
			t.Errorf("output lacks %q\nstdout:\n%s\nstderr:\n%s", w, clip(stdout.String()), clip(stderr.String()))
		}
	}
	checkText(t, stdout.Bytes())
	checkText(t, stderr.Bytes())
	outputs := map[string][]byte{"stdout": stdout.Bytes(), "stderr": stderr.Bytes()}
	for f, path := range reports {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("--format %s wrote nothing: %v", f, err)
		}
		outputs[f] = data
	}
	checkGitHub(t, outputs["github"])
	checkText(t, outputs["github"])
	checkText(t, outputs["markdown"])
	var jsonReport any
	for _, f := range []string{"json", "sarif"} {
		var v any
		if err := json.Unmarshal(outputs[f], &v); err != nil {
			t.Errorf("--format %s is not JSON: %v", f, err)
		}
		if f == "json" {
			jsonReport = v
		}
	}
	sc := bufio.NewScanner(bytes.NewReader(outputs["rdjsonl"]))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		if !json.Valid(sc.Bytes()) {
			t.Errorf("--format rdjsonl line is not JSON: %s", clip(sc.Text()))
		}
	}
	if c.roundTrip != "" && !containsString(jsonReport, c.roundTrip) {
		t.Errorf("no string of the JSON report holds %q:\n%s", c.roundTrip, clip(string(outputs["json"])))
	}
	for name, data := range outputs {
		if bytes.Contains(data, []byte(dir)) || bytes.Contains(data, []byte(out)) {
			t.Errorf("%s shows an absolute path of the test machine:\n%s", name, clip(string(data)))
		}
	}
	return elapsed
}

// checkText fails on a byte that a terminal would act on: C0 controls other
// than newline and tab, DEL, and the C1 controls encoded in UTF-8.
func checkText(t *testing.T, b []byte) {
	t.Helper()
	for i, r := range string(b) {
		if (r < 0x20 && r != '\n' && r != '\t') || (r >= 0x7f && r < 0xa0) {
			t.Errorf("text output has control character %U at byte %d: %q", r, i, clip(string(b[max(0, i-40):min(len(b), i+40)])))
			return
		}
	}
}

// checkGitHub fails on a line bflint did not write as a workflow command.
func checkGitHub(t *testing.T, b []byte) {
	t.Helper()
	for _, line := range strings.SplitAfter(string(b), "\n") {
		if line == "" {
			continue
		}
		if !strings.HasPrefix(line, "::error file=") && !strings.HasPrefix(line, "::warning file=") && !strings.HasPrefix(line, "::notice") {
			t.Errorf("--format github has a line bflint did not make: %q", clip(line))
		}
		if strings.ContainsAny(strings.TrimSuffix(line, "\n"), "\r\n") {
			t.Errorf("--format github line holds a raw line break: %q", clip(line))
		}
	}
}

// containsString reports whether a string inside a decoded JSON value
// contains s.
func containsString(v any, s string) bool {
	switch v := v.(type) {
	case string:
		return strings.Contains(v, s)
	case []any:
		for _, x := range v {
			if containsString(x, s) {
				return true
			}
		}
	case map[string]any:
		for k, x := range v {
			if strings.Contains(k, s) || containsString(x, s) {
				return true
			}
		}
	}
	return false
}

// clip keeps failure messages readable when the input is megabytes long.
func clip(s string) string {
	const n = 4000
	if len(s) > n {
		return s[:n] + fmt.Sprintf("… (%d more bytes)", len(s)-n)
	}
	return s
}
