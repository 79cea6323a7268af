package sqlparse

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bflint/bflint/internal/benchgen"
)

// The default keeps `go test -bench .` quick; the corpus of target A is
//
//	go test -run '^$' -bench BenchmarkParseCorpus ./parser/sqlparse/ -corpus-files 1000
var benchCorpusFiles = flag.Int("corpus-files", 100, "SQL files in the generated corpus BenchmarkParseCorpus parses")

// BenchmarkParseCorpus parses every file of a generated warehouse corpus
// one after another, as one goroutine of the loader does: MB/s is the
// throughput of a single core.
func BenchmarkParseCorpus(b *testing.B) {
	c, err := benchgen.WriteCorpus(b.TempDir(), *benchCorpusFiles, 1)
	if err != nil {
		b.Fatal(err)
	}
	type input struct{ src, model string }
	inputs := make([]input, len(c.Files))
	for i, path := range c.Files {
		src, err := os.ReadFile(path)
		if err != nil {
			b.Fatal(err)
		}
		inputs[i] = input{string(src), strings.TrimSuffix(filepath.Base(path), ".sql")}
	}
	b.SetBytes(c.Bytes)
	b.ReportAllocs()
	var statements, parsed int
	for b.Loop() {
		statements, parsed = 0, 0
		for _, in := range inputs {
			f := Parse(in.src, Options{ModelName: in.model})
			statements += len(f.Statements)
			for _, s := range f.Statements {
				if s.Node != nil {
					parsed++
				}
			}
		}
	}
	// The corpus is valid SQL apart from dialect syntax the rewrites
	// handle: a statement without a tree means the benchmark measured an
	// early bail-out, not a parse.
	if statements == 0 || parsed != statements {
		b.Fatalf("%d of %d statements parsed", parsed, statements)
	}
	b.ReportMetric(float64(statements), "stmts/op")
}
