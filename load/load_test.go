package load_test

import (
	"fmt"
	"go/token"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/bflint/bflint/internal/testfs"
	"github.com/bflint/bflint/load"
	"github.com/bflint/bflint/parser/config"
	"github.com/bflint/bflint/rules"
	"github.com/bflint/bflint/rules/all"
	"github.com/bflint/bflint/rules/ruletest"
)

func lint(t *testing.T, root string) *rules.Result {
	return ruletest.Lint(t, root, all.Registry(), nil)
}

// A file bflint cannot read is reported, never skipped: here a SQL file that
// is a link to nothing.
func TestUnreadableSQLIsReported(t *testing.T) {
	dir := t.TempDir()
	if err := os.Symlink("missing.sql", filepath.Join(dir, "dangling.sql")); err != nil {
		t.Fatal(err)
	}
	res := lint(t, dir)
	if len(res.Findings) != 1 {
		t.Fatalf("want one finding, got %d: %+v", len(res.Findings), res.Findings)
	}
	f := res.Findings[0]
	if f.Rule.Code != "BF003" || f.File.Name != "dangling.sql" || !strings.Contains(f.Message, "cannot read SQL file") {
		t.Errorf("got %s %s %q", f.Rule.Code, f.File.Name, f.Message)
	}
}

// A plan whose YAML is broken still leaves the plan beside it linted.
func TestBrokenPlanDoesNotStopTheRun(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.backfill.yaml", "bflint: 1\nid: [unclosed\n")
	write("b.backfill.yaml", "bflint: 1\nid: bf_b\ntarget: analytics.t\n")
	res := lint(t, dir)
	perFile := map[string][]string{}
	for _, f := range res.Findings {
		perFile[f.File.Name] = append(perFile[f.File.Name], f.Rule.Code)
	}
	if got := perFile["a.backfill.yaml"]; len(got) != 1 || got[0] != "BF001" {
		t.Errorf("a.backfill.yaml: want only BF001, got %v", got)
	}
	if got := perFile["b.backfill.yaml"]; !contains(got, "BF601") || !contains(got, "BF101") {
		t.Errorf("b.backfill.yaml: want its missing sections reported, got %v", got)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// A streamed load parses each standalone SQL file just before its rules
// and drops the parse after them; what the rules report must not change.
func TestStreamedLoadReportsTheSame(t *testing.T) {
	for _, dir := range []string{"../examples/broken", "../testdata/sql/realworld", "../testdata/sql/dialects"} {
		root, err := filepath.Abs(dir)
		if err != nil {
			t.Fatal(err)
		}
		disc, err := load.Discover([]string{root}, root, nil, load.Auto)
		if err != nil {
			t.Fatal(err)
		}
		var reports [2][]string
		for i, streamed := range []bool{false, true} {
			fset := token.NewFileSet()
			units := load.Units(fset, disc, load.Options{Root: root, Config: &config.Config{}, Streamed: streamed})
			res := rules.Run(fset, units, &rules.Settings{Registry: all.Registry(), Config: &config.Config{}, Now: ruletest.Now, Jobs: 2})
			for _, f := range res.Findings {
				// The line a report shows is kept when the text is not.
				pos := fset.Position(f.Pos)
				reports[i] = append(reports[i], fmt.Sprintf("%s %s %s | %s", pos, f.Rule.Code, f.Message, f.File.Line(pos.Line)))
			}
			for _, u := range units {
				for _, sf := range u.SQL {
					if streamed && u.Plan == nil && sf.Parsed != nil {
						t.Errorf("%s: the streamed run kept the parse of %s", dir, sf.Source.Name)
					}
				}
			}
		}
		if len(reports[0]) == 0 {
			t.Errorf("%s: no findings to compare", dir)
		}
		if strings.Join(reports[0], "\n") != strings.Join(reports[1], "\n") {
			t.Errorf("%s: streamed findings differ\nloaded:\n%s\nstreamed:\n%s", dir, strings.Join(reports[0], "\n"), strings.Join(reports[1], "\n"))
		}
	}
}

// A streamed file is read again just before its rules, its text having
// been dropped after the load: one changed since is reported as not read,
// not linted as another text at the load's positions.
func TestStreamedFileChangedBeforeItsRules(t *testing.T) {
	root := testfs.Tree(t, map[string]string{"orders.sql": "INSERT INTO orders SELECT * FROM staging_orders;\n"})
	fset, units := loadStreamed(t, root)
	testfs.Write(t, root, map[string]string{"orders.sql": "INSERT INTO orders SELECT * FROM staging_ordrs;\n"})
	res := lintStreamed(fset, units)
	var got []string
	for _, f := range res.Findings {
		got = append(got, f.Rule.Code+" "+f.Message+" | "+f.Help)
	}
	want := "BF003 the SQL file changed while bflint read it, so it was not linted | run bflint again once nothing is writing to it"
	if len(got) != 1 || got[0] != want {
		t.Errorf("findings %q, want %q", got, []string{want})
	}
}

// A streamed unit lets go of its dbt project once it is linted, and the
// load keeps none: a project's model goes once its last file is linted,
// not at the end of the run.
func TestStreamedUnitsLetGoOfTheirProject(t *testing.T) {
	root := testfs.Tree(t, map[string]string{
		"dbt_project.yml":       "name: shop\nmodels:\n  shop:\n    +materialized: incremental\n",
		"models/orders.sql":     "select * from {{ ref('stg_orders') }}\n",
		"models/stg_orders.sql": "select * from {{ source('raw', 'orders') }}\n",
	})
	fset, units := loadStreamed(t, root)
	gone := watchProject(t, units, "")
	lintStreamed(fset, units)
	for _, u := range units {
		for _, sf := range u.SQL {
			if u.Parse != nil || u.DBT != nil || sf.Project != nil {
				t.Errorf("%s still holds its parse or its project after the run", sf.Source.Name)
			}
		}
	}
	if !collected(gone) {
		t.Error("the dbt project is still reachable after its files were linted")
	}
	runtime.KeepAlive(units)
}

// A plan keeps its manifest's lineage to the end of the run, and that
// lineage opens project files through the loader: the loader must not
// keep, with it, another project whose files are all linted.
func TestPlanDoesNotKeepOtherProjects(t *testing.T) {
	const manifest = `{"metadata": {"dbt_schema_version": "https://schemas.getdbt.com/dbt/manifest/v12.json", "project_name": "shop"},
"nodes": {"model.shop.orders": {"resource_type": "model", "name": "orders", "package_name": "shop", "schema": "analytics", "alias": "orders", "original_file_path": "models/orders.sql", "config": {"materialized": "table"}}},
"sources": {}, "child_map": {"model.shop.orders": []}}`
	root := testfs.Tree(t, map[string]string{
		"shop/dbt_project.yml":        "name: shop\n",
		"shop/target/manifest.json":   manifest,
		"shop/models/orders.sql":      "select 1 as id\n",
		"shop/orders.backfill.yaml":   "bflint: 1\nid: bf_orders\ntarget: model.shop.orders\n",
		"finance/dbt_project.yml":     "name: finance\n",
		"finance/models/ledger.sql":   "select * from {{ ref('accounts') }}\n",
		"finance/models/accounts.sql": "select 1 as id\n",
	})
	fset, units := loadStreamed(t, root)
	gone := watchProject(t, units, "/finance")
	lintStreamed(fset, units)
	if !collected(gone) {
		t.Error("the finance project is still reachable after its files were linted, through the plan of another project")
	}
	runtime.KeepAlive(units)
}

// lintStreamed runs every rule on units, as the lint command does.
func lintStreamed(fset *token.FileSet, units []*rules.Unit) *rules.Result {
	return rules.Run(fset, units, &rules.Settings{Registry: all.Registry(), Config: &config.Config{}, Now: ruletest.Now, Jobs: 1})
}

// watchProject returns a channel closed once the dbt project of units
// whose folder ends in dir is collected.
func watchProject(t *testing.T, units []*rules.Unit, dir string) chan struct{} {
	t.Helper()
	for _, u := range units {
		for _, sf := range u.SQL {
			if p := sf.Project; p != nil && strings.HasSuffix(filepath.ToSlash(p.Dir), dir) {
				gone := make(chan struct{})
				runtime.AddCleanup(p, func(ch chan struct{}) { close(ch) }, gone)
				return gone
			}
		}
	}
	t.Fatalf("no unit was read with a dbt project in %q", dir)
	return nil
}

// collected reports whether gone closes within a few collections.
func collected(gone chan struct{}) bool {
	for range 20 {
		runtime.GC()
		select {
		case <-gone:
			return true
		case <-time.After(10 * time.Millisecond):
		}
	}
	return false
}

// loadStreamed loads the files under root as the lint command does.
func loadStreamed(t *testing.T, root string) (*token.FileSet, []*rules.Unit) {
	t.Helper()
	disc, err := load.Discover([]string{root}, root, nil, load.Auto)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	return fset, load.Units(fset, disc, load.Options{Root: root, Config: &config.Config{}, Streamed: true})
}

// A bigquery-etl table's checks.sql is read with the tree's check macros
// (tests/checks/*.jinja beside sql/), as bqetl renders it; without them
// its calls read nothing, and coverage says so.
func TestBqetlChecksAreReadWithTheTreeMacros(t *testing.T) {
	for _, withMacros := range []bool{true, false} {
		dir := t.TempDir()
		write := func(name, text string) {
			path := filepath.Join(dir, filepath.FromSlash(name))
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		write("sql/shop-prod/orders_derived/daily_v1/checks.sql", "#fail\n{{ is_unique(columns=[\"order_id\"]) }}\n")
		if withMacros {
			write("tests/checks/is_unique.jinja", "{% macro is_unique(columns) %}\n"+
				"SELECT IF((SELECT COUNT(*) FROM (SELECT {{ columns | join(', ') }} FROM `{{ project_id }}.{{ dataset_id }}.{{ table_name }}`"+
				" GROUP BY {{ columns | join(', ') }} HAVING COUNT(*) > 1)) > 0, ERROR('duplicates'), NULL);\n{% endmacro %}\n")
		}
		cov := lint(t, filepath.Join(dir, "sql")).Coverage
		want := [3]int{1, 0, 0}
		if !withMacros {
			want = [3]int{0, 0, 1}
		}
		if cov.Statements != want {
			t.Errorf("with the check macros %v: statements read %v, want %v (parsed, tokens, not read)", withMacros, cov.Statements, want)
		}
		// Unread, the call is named where the reviewer looks.
		if !withMacros && (len(cov.Unparsed) != 1 || cov.Unparsed[0].Construct != "a call to is_unique, whose SQL bflint did not read") {
			t.Errorf("without the check macros: unparsed %+v, want the call to is_unique named", cov.Unparsed)
		}
	}
}
