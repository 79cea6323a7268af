package benchgen

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bflint/bflint/parser/sqlparse"
)

// TestCorpus checks that the corpus is what the benchmarks claim to
// measure: the same bytes for the same seed, about 4.8 KB a file, and SQL
// that bflint parses, so a benchmark never times error paths by mistake.
func TestCorpus(t *testing.T) {
	dir := t.TempDir()
	c, err := WriteCorpus(dir, 200, 1)
	if err != nil {
		t.Fatal(err)
	}
	if avg := c.Bytes / int64(len(c.Files)); avg < 4000 || avg > 6000 {
		t.Errorf("%d bytes a file on average, want about 4,800", avg)
	}
	again, err := WriteCorpus(t.TempDir(), 200, 1)
	if err != nil {
		t.Fatal(err)
	}
	statements, unparsed := 0, 0
	kinds := map[string]int{}
	for i, path := range c.Files {
		a, _ := os.ReadFile(path)
		b, _ := os.ReadFile(again.Files[i])
		if string(a) != string(b) {
			t.Fatalf("%s differs between two runs with the same seed", filepath.Base(path))
		}
		kinds[strings.Split(filepath.Base(path), "_")[0]]++
		f := sqlparse.Parse(string(a), sqlparse.Options{ModelName: "m"})
		if len(f.Problems) > 0 {
			t.Errorf("%s: %v", filepath.Base(path), f.Problems)
		}
		for _, st := range f.Statements {
			statements++
			if st.Node == nil {
				unparsed++
				t.Errorf("%s: statement at %d does not parse: %v", filepath.Base(path), st.Start, st.Problem)
			}
		}
	}
	if kinds["fct"] == 0 || kinds["bf"] == 0 || kinds["daily"] == 0 {
		t.Errorf("file kinds %v, want models, backfills and daily scripts", kinds)
	}
	t.Logf("%d files, %d bytes, %d statements, %d unparsed, kinds %v", len(c.Files), c.Bytes, statements, unparsed, kinds)
}

func TestPrecommitProject(t *testing.T) {
	dir := t.TempDir()
	manifest := filepath.Join(dir, "target", "manifest.json")
	if err := os.MkdirAll(filepath.Dir(manifest), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := WriteManifest(manifest, 1<<20, 1); err != nil {
		t.Fatal(err)
	}
	project := filepath.Join(dir, "backfills")
	if err := WritePrecommitProject(project, manifest, 1); err != nil {
		t.Fatal(err)
	}
	plan, err := os.ReadFile(filepath.Join(project, "fix.backfill.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(plan), "manifest: ../target/manifest.json\n") {
		t.Errorf("the plan does not name the manifest relative to itself:\n%s", plan)
	}
	sql, _ := filepath.Glob(filepath.Join(project, "sql", "*.sql"))
	if len(sql) != 5 {
		t.Errorf("%d SQL files, want 5", len(sql))
	}
}
