package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bflint/bflint/internal/testfs"
	"github.com/bflint/bflint/parser/source"
	"github.com/bflint/bflint/rules"
)

// gitRepo makes a repository in a fresh folder, isolated from the
// machine's git configuration, and returns a function running git in it.
func gitRepo(t *testing.T) (dir string, gitRun func(args ...string)) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatalf("--new-from-rev needs git: %v", err)
	}
	dir = t.TempDir()
	for k, v := range map[string]string{
		"GIT_CONFIG_GLOBAL": os.DevNull, "GIT_CONFIG_NOSYSTEM": "1",
		"GIT_AUTHOR_NAME": "bflint test", "GIT_AUTHOR_EMAIL": "test@bflint.invalid",
		"GIT_COMMITTER_NAME": "bflint test", "GIT_COMMITTER_EMAIL": "test@bflint.invalid",
	} {
		t.Setenv(k, v)
	}
	gitRun = func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	gitRun("init", "-q")
	return dir, gitRun
}

// jsonFindingFiles runs bflint with --format json and returns the files
// that have findings, with how many each.
func jsonFindingFiles(t *testing.T, args ...string) map[string]int {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(append([]string{"--now", "2026-11-30T09:00:00Z", "--format", "json", "--fail-on", "never"}, args...), &stdout, &stderr)
	if code != exitClean {
		t.Fatalf("exit code %d\nstderr:\n%s", code, stderr.String())
	}
	var doc struct {
		Findings []struct{ File string }
	}
	if err := json.Unmarshal(stdout.Bytes(), &doc); err != nil {
		t.Fatalf("%v\n%s", err, stdout.String())
	}
	files := map[string]int{}
	for _, f := range doc.Findings {
		files[f.File]++
	}
	return files
}

const appendSQL = "INSERT INTO analytics.fct_orders SELECT * FROM backfill_staging.fct_orders;\n"

// TestNewFromRev commits two plans and two standalone SQL files, then
// changes only the SQL one plan references and adds an untracked SQL file.
// The changed plan keeps all its findings (those in its YAML too, which no
// changed line touches), the new file keeps its own, and the untouched plan
// and SQL file are dropped.
func TestNewFromRev(t *testing.T) {
	dir, gitRun := gitRepo(t)
	testfs.Write(t, dir, map[string]string{
		"plans/a.backfill.yaml": "bflint: 1\nid: bf_a\ntarget: analytics.fct_orders\nstaging:\n  relation: backfill_staging.fct_orders\n  build: sql/a_build.sql\n",
		"plans/sql/a_build.sql": "SELECT 1;\n",
		"plans/b.backfill.yaml": "bflint: 1\nid: bf_b\ntarget: analytics.fct_refunds\n",
		"sql/c.sql":             appendSQL,
	})
	gitRun("add", ".")
	gitRun("commit", "-q", "-m", "plans")
	gitRun("tag", "base")

	all := jsonFindingFiles(t, dir)
	for _, f := range []string{"plans/a.backfill.yaml", "plans/b.backfill.yaml", "sql/c.sql"} {
		if all[f] == 0 {
			t.Fatalf("without --new-from-rev, %s has no finding; the test needs one in every file (got %v)", f, all)
		}
	}
	if got := jsonFindingFiles(t, "--new-from-rev", "base", dir); len(got) != 0 {
		t.Errorf("nothing changed since base, yet findings are reported in %v", got)
	}

	testfs.Write(t, dir, map[string]string{
		"plans/sql/a_build.sql": appendSQL,
		"sql/d.sql":             appendSQL,
	})
	got := jsonFindingFiles(t, "--new-from-rev", "base", dir)
	all = jsonFindingFiles(t, dir)
	for _, f := range []string{"plans/a.backfill.yaml", "plans/sql/a_build.sql", "sql/d.sql"} {
		if got[f] == 0 || got[f] != all[f] {
			t.Errorf("%s: %d finding(s) with --new-from-rev, want all %d of the full run", f, got[f], all[f])
		}
	}
	for _, f := range []string{"plans/b.backfill.yaml", "sql/c.sql"} {
		if got[f] != 0 {
			t.Errorf("%s did not change, yet %d finding(s) are reported", f, got[f])
		}
	}

	// A commit moves nothing: the plan still differs from base.
	gitRun("add", ".")
	gitRun("commit", "-q", "-m", "change a")
	if again := jsonFindingFiles(t, "--new-from-rev", "base", dir); again["plans/a.backfill.yaml"] == 0 || again["plans/b.backfill.yaml"] != 0 {
		t.Errorf("after committing, findings by file = %v", again)
	}
}

func TestNewFromRevBadInput(t *testing.T) {
	dir, _ := gitRepo(t)
	testfs.Write(t, dir, map[string]string{"p.backfill.yaml": "bflint: 1\nid: bf_a\ntarget: analytics.fct_orders\n"})
	outside := t.TempDir()
	// Stop git's search for a repository at the test's folder, wherever
	// the temporary folders live.
	t.Setenv("GIT_CEILING_DIRECTORIES", filepath.Dir(outside))
	tests := []struct {
		name, dir, rev, want string
	}{
		{"unknown revision", dir, "no-such-rev", "bad revision 'no-such-rev'"},
		{"no repository", outside, "HEAD", "not a git repository"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run([]string{"--new-from-rev", tt.rev, tt.dir}, &stdout, &stderr)
			if code != exitUsage {
				t.Errorf("exit code %d, want %d", code, exitUsage)
			}
			if !strings.Contains(stderr.String(), "--new-from-rev "+tt.rev+": ") || !strings.Contains(stderr.String(), tt.want) {
				t.Errorf("stderr does not name the flag and give git's message %q:\n%s", tt.want, stderr.String())
			}
			if stdout.Len() != 0 {
				t.Errorf("a run that cannot start wrote a report:\n%s", stdout.String())
			}
		})
	}
}

// TestKeepChanged: a plan counts as changed when it or any SQL file it
// names did, and then all of its files' findings stay; a standalone file
// stands alone.
func TestKeepChanged(t *testing.T) {
	fset := token.NewFileSet()
	add := func(name string) *source.File { return source.Add(fset, name, []byte("x\n")) }
	planA, buildA, planB, buildB, loose := add("a.backfill.yaml"), add("a.sql"), add("b.backfill.yaml"), add("b.sql"), add("loose.sql")
	units := []*rules.Unit{
		{File: planA, SQL: []*rules.SQLFile{{Source: buildA}}},
		{File: planB, SQL: []*rules.SQLFile{{Source: buildB}}},
		{File: loose, SQL: []*rules.SQLFile{{Source: loose}}},
	}
	r := &rules.Rule{Code: "BF104"}
	var fs []rules.Finding
	for _, f := range []*source.File{planA, buildA, planB, buildB, loose} {
		fs = append(fs, rules.Finding{Rule: r, File: f})
	}
	out, err := keepChanged(units, map[string]bool{"a.sql": true}).Run(fs)
	if err != nil {
		t.Fatal(err)
	}
	var kept []string
	for _, f := range out {
		kept = append(kept, f.File.Name)
	}
	if got, want := strings.Join(kept, " "), "a.backfill.yaml a.sql"; got != want {
		t.Errorf("kept %s, want %s", got, want)
	}
}

// TestNewFromRevBqetl edits the dates of a bigquery-etl entry after it was
// committed: compared with the entry at the base revision, the change is
// reported (BF110); the same file without --new-from-rev has no finding.
func TestNewFromRevBqetl(t *testing.T) {
	dir, gitRun := gitRepo(t)
	table := "sql/shop-prod/orders_derived/orders_v1/"
	entry := "2026-11-20:\n  start_date: 2026-11-01\n  end_date: %s\n  reason: Fix the currency.\n  watchers:\n  - analyst@example.com\n  status: Initiate\n"
	testfs.Write(t, dir, map[string]string{
		table + "metadata.yaml": "bigquery:\n  time_partitioning:\n    type: day\n    field: submission_date\n",
		table + "query.sql":     "SELECT 1 AS x\n",
		table + "backfill.yaml": fmt.Sprintf(entry, "2026-11-10"),
	})
	gitRun("add", ".")
	gitRun("commit", "-q", "-m", "entry")
	gitRun("tag", "base")
	testfs.Write(t, dir, map[string]string{table + "backfill.yaml": fmt.Sprintf(entry, "2026-11-15")})

	var stdout, stderr bytes.Buffer
	code := run([]string{"--now", "2026-11-30T09:00:00Z", "--format", "json", "--fail-on", "never", "--new-from-rev", "base", dir}, &stdout, &stderr)
	if code != exitClean {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var doc struct {
		Findings []struct{ Code, File, Message string }
	}
	if err := json.Unmarshal(stdout.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Findings) != 1 || doc.Findings[0].Code != "BF110" || !strings.Contains(doc.Findings[0].Message, "end_date was 2026-11-10 when this entry was merged") {
		t.Errorf("findings %+v, want one BF110 about end_date", doc.Findings)
	}
	if got := jsonFindingFiles(t, dir); len(got) != 0 {
		t.Errorf("without --new-from-rev there is nothing to compare, yet: %v", got)
	}
}
