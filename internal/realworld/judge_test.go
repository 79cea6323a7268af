package realworld

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const hazardsTSV = `repo	path	line	class	verdict	reason
shop	models/a.sql	12	range-watermark	hazard	newest row held starts the window
shop	models/b.sql	3	range-clock	hazard	window follows the run time
shop	models/c.sql	5	range-clock	safe	clock only in the first build
shop	models/d.sql	1	append-model	hazard	keyless merge
shop	models/e.sql	1	append-model	safe	anti-join on the table
wh	sql/p/ds/t_v1/backfill.yaml	1	downstream-window	hazard	reader of a 30-day window has no entry
wh	sql/p/ds/u_v1/metadata.yaml	20	bqetl-append	safe	strict mark on its own table
wh	sql/p/ds/w_v1/backfill.yaml	1	downstream-window	hazard	reader has no entry
other	x.sql	1	append-model	hazard	not run
`

const findingsTSV = `repo	path	line	code	verdict	reason
shop	models/a.sql	12	BF111	true	mark on the model
shop	models/e.sql	1	BF201	false	guarded by an anti-join
shop	models/z.sql	9	BF201	true	judged, but not reported any more
`

func report(findings ...string) string {
	return `{"version":1,"findings":[` + strings.Join(findings, ",") + `]}`
}

func TestCompare(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{"hazards.tsv": hazardsTSV, "findings.tsv": findingsTSV} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	hazards, err := ReadHazards(filepath.Join(dir, "hazards.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	judged, err := ReadJudgements(filepath.Join(dir, "findings.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	shop, err := ReadReport("shop", strings.NewReader(report(
		// another line of the same file still finds the hazard
		`{"code":"BF111","severity":"info","message":"cannot be backfilled by range: its incremental filter starts from the rows the model already holds (a high-water mark)","file":"models/a.sql","line":12}`,
		`{"code":"BF111","severity":"info","message":"its incremental filter starts from the rows the model already holds (a high-water mark)","file":"models/b.sql","line":7}`,
		// a high-water mark at a clock-safe row does not flag it
		`{"code":"BF111","severity":"info","message":"a high-water mark","file":"models/c.sql","line":2}`,
		`{"code":"BF201","severity":"error","message":"no key","file":"models/e.sql","line":1}`,
		`{"code":"BF002","severity":"warning","message":"did not parse","file":"models/d.sql","line":4}`,
		`{"code":"BF703","severity":"warning","message":"closed interval","file":"models/f.sql","line":30}`,
	)))
	if err != nil {
		t.Fatal(err)
	}
	wh, err := ReadReport("wh", strings.NewReader(report(
		// BF801 counts for a window only with a range in its message
		`{"code":"BF801","severity":"error","message":"no entry dated 2024-10-15 or later backfills them over these dates","file":"sql/p/ds/w_v1/backfill.yaml","line":1}`,
		`{"code":"BF801","severity":"error","message":"no entry backfills 2024-09-01..2024-11-11","file":"sql/p/ds/t_v1/backfill.yaml","line":1}`,
		// a rule may report on another file of the table's folder
		`{"code":"BF201","severity":"error","message":"appended","file":"sql/p/ds/u_v1/query.sql","line":3}`,
	)))
	if err != nil {
		t.Fatal(err)
	}
	res := Compare([]string{"shop", "wh"}, hazards, judged, append(shop, wh...))

	type row struct {
		class                             string
		found, hazards, same, other, flag int
		safe                              int
		missed                            int
	}
	var got []row
	for _, c := range res.Classes {
		got = append(got, row{c.Class, c.Found, c.Hazards, c.SameLine, len(c.OtherCause), c.Flagged, c.Safe, len(c.Missed)})
	}
	want := []row{
		{class: "append-model", found: 0, hazards: 1, safe: 1, flag: 1, missed: 1},
		{class: "bqetl-append", safe: 1, flag: 1},
		{class: "downstream-window", found: 1, hazards: 2, same: 1, missed: 1},
		{class: "range-clock", found: 1, hazards: 1, other: 1, safe: 1},
		{class: "range-watermark", found: 1, hazards: 1, same: 1},
	}
	if !slices.Equal(got, want) {
		t.Errorf("classes:\n got %+v\nwant %+v", got, want)
	}
	for _, c := range res.Classes {
		if c.Class == "downstream-window" && (len(c.NearMisses[0]) != 1 || c.Missed[0].Path != "sql/p/ds/w_v1/backfill.yaml") {
			t.Errorf("downstream-window: the BF801 without a range should be shown beside the missed hazard, got %+v", c.NearMisses)
		}
	}

	var rules []RuleResult
	rules = append(rules, res.Rules...)
	wantRules := []RuleResult{
		{Code: "BF111", True: 1, Unjudged: 2},
		{Code: "BF201", False: 1, Unjudged: 1, Stale: 1},
		{Code: "BF703", Unjudged: 1},
		{Code: "BF801", Unjudged: 2},
	}
	if !slices.Equal(rules, wantRules) {
		t.Errorf("rules:\n got %+v\nwant %+v", rules, wantRules)
	}

	var out bytes.Buffer
	Print(&out, res)
	for _, s := range []string{
		"false positive (append-model, judged safe): shop models/e.sql:1: BF201 models/e.sql:1",
		"false positive (bqetl-append, judged safe): wh sql/p/ds/u_v1/metadata.yaml:20: BF201 sql/p/ds/u_v1/query.sql:3",
		"found, naming another cause (range-clock): shop models/b.sql:3",
		"unjudged: BF703 shop models/f.sql:30",
		"unjudged: 2 BF111 findings",
		"judged, no longer reported: BF201 shop models/z.sql:9",
	} {
		if !strings.Contains(out.String(), s) {
			t.Errorf("output lacks %q:\n%s", s, out.String())
		}
	}
	if strings.Contains(out.String(), "other x.sql") || strings.Contains(out.String(), "BF002") {
		t.Errorf("output names a repository not run or an excluded rule:\n%s", out.String())
	}
}

func TestReadHazardsRejects(t *testing.T) {
	for name, text := range map[string]string{
		"unknown class": "repo\tpath\tline\tclass\tverdict\treason\nr\tp\t1\tnope\thazard\tx\n",
		"bad verdict":   "repo\tpath\tline\tclass\tverdict\treason\nr\tp\t1\tconfig-typo\tmaybe\tx\n",
		"short row":     "repo\tpath\tline\tclass\tverdict\treason\nr\tp\t1\tconfig-typo\thazard\n",
		"header":        "repo\tfile\tline\tclass\tverdict\treason\n",
	} {
		f := filepath.Join(t.TempDir(), "hazards.tsv")
		if err := os.WriteFile(f, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := ReadHazards(f); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// The judged files of the repository parse, and every class they use has
// rules.
func TestJudgedFilesParse(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "realworld")
	hs, err := ReadHazards(filepath.Join(dir, "hazards.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	if len(hs) == 0 {
		t.Error("no hazards")
	}
	js, err := ReadJudgements(filepath.Join(dir, "findings.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[key]bool{}
	for _, j := range js {
		if excluded[j.Code] {
			t.Errorf("%s %s:%d: %s is not judged", j.Repo, j.Path, j.Line, j.Code)
		}
		if seen[j.key()] {
			t.Errorf("%s %s:%d %s judged twice", j.Repo, j.Path, j.Line, j.Code)
		}
		seen[j.key()] = true
	}
}
