package all

import (
	"flag"
	"fmt"
	"go/token"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"

	"github.com/bflint/bflint/internal/benchgen"
	"github.com/bflint/bflint/load"
	"github.com/bflint/bflint/parser/config"
	"github.com/bflint/bflint/rules"
	"github.com/bflint/bflint/rules/ruletest"
)

// The defaults keep `go test -bench .` quick. Each iteration loads the
// corpus afresh outside the timer, so a run takes far longer than the time
// it reports: prefer a fixed count, as in
//
//	go test -run '^$' -bench BenchmarkRules -benchtime 10x ./rules/all/ -corpus-files 1000
var (
	benchCorpusFiles = flag.Int("corpus-files", 100, "SQL files in the corpus BenchmarkRules lints")
	benchCorpusPlans = flag.Int("corpus-plans", 10, "plan projects (one plan, five SQL files) beside the SQL files")
)

// BenchmarkRules times rules.Run over loaded units, one sub-benchmark per
// rule family with only its rules enabled, and one with every rule. Rules
// share facts computed once per statement or unit, so every iteration runs
// on units loaded afresh (outside the timer): the first rule to need a fact
// pays for it, as in a real run. The families therefore add up to more
// than "all". Jobs is 1, so the time is the rules' CPU time.
func BenchmarkRules(b *testing.B) {
	reg := Registry()
	root := writeBenchProject(b)
	cfg := &config.Config{}
	disc, err := load.Discover([]string{root}, root, nil, load.Auto)
	if err != nil {
		b.Fatal(err)
	}
	load := func() (*token.FileSet, []*rules.Unit) {
		fset := token.NewFileSet()
		units := load.Units(fset, disc, load.Options{Root: root, Config: cfg})
		// The previous iteration's garbage is collected here, not charged
		// to the next iteration's rules.
		runtime.GC()
		return fset, units
	}
	for _, f := range append(slices.Clone(families), family{"all", reg.All()}) {
		b.Run(f.name, func(b *testing.B) {
			s := &rules.Settings{Registry: reg, Config: cfg, Now: ruletest.Now, Jobs: 1, Enabled: map[string]bool{}}
			for _, r := range f.rules {
				s.Enabled[r.Code] = true
			}
			b.ReportAllocs()
			var res *rules.Result
			for b.Loop() {
				b.StopTimer()
				fset, units := load()
				b.StartTimer()
				res = rules.Run(fset, units, s)
			}
			for _, e := range res.Errors {
				b.Errorf("internal error in %s: %s", e.File.Name, e.Message)
			}
			if f.name == "all" && len(res.Findings) == 0 {
				b.Fatal("no finding over the whole corpus: the rules did not run")
			}
			b.ReportMetric(float64(res.Units), "units/op")
			b.ReportMetric(float64(len(res.Findings)), "findings/op")
		})
	}
}

// writeBenchProject writes the corpus and the plan projects, all naming
// one small manifest, under a project root marked by .git.
func writeBenchProject(b *testing.B) string {
	root := b.TempDir()
	if err := os.Mkdir(filepath.Join(root, ".git"), 0o755); err != nil {
		b.Fatal(err)
	}
	if _, err := benchgen.WriteCorpus(filepath.Join(root, "sql"), *benchCorpusFiles, 1); err != nil {
		b.Fatal(err)
	}
	manifest := filepath.Join(root, "manifest.json")
	if _, err := benchgen.WriteManifest(manifest, 1<<20, 1); err != nil {
		b.Fatal(err)
	}
	for i := range *benchCorpusPlans {
		if err := benchgen.WritePrecommitProject(filepath.Join(root, "plans", fmt.Sprintf("p%03d", i)), manifest, uint64(i+1)); err != nil {
			b.Fatal(err)
		}
	}
	if real, err := filepath.EvalSymlinks(root); err == nil {
		root = real
	}
	return root
}
