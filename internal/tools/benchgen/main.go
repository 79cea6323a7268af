//go:build ignore

// This program is run with "go run FILE", never installed: the ignore
// constraint keeps it out of "go install ./..." and "go build ./...".

// Command benchgen writes the inputs scripts/bench.sh measures bflint on.
//
//	go run ./internal/tools/benchgen/main.go -sql 1000 -out DIR      # DIR/*.sql corpus
//	go run ./internal/tools/benchgen/main.go -manifest-mb 100 -out FILE
//	go run ./internal/tools/benchgen/main.go -precommit -manifest FILE -out DIR
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/bflint/bflint/internal/benchgen"
)

func main() {
	sqlFiles := flag.Int("sql", 0, "write a corpus of this many SQL files into -out")
	manifestMB := flag.Int("manifest-mb", 0, "write a dbt manifest of about this many MiB to -out")
	precommit := flag.Bool("precommit", false, "write a project with one plan and five SQL files into -out, its plan naming -manifest")
	manifestPath := flag.String("manifest", "", "the manifest a -precommit project names")
	out := flag.String("out", "", "where to write")
	seed := flag.Uint64("seed", 1, "the generator's seed; the same seed writes the same bytes")
	flag.Parse()
	if err := run(*sqlFiles, *manifestMB, *precommit, *manifestPath, *out, *seed); err != nil {
		fmt.Fprintln(os.Stderr, "benchgen:", err)
		os.Exit(1)
	}
}

func run(sqlFiles, manifestMB int, precommit bool, manifestPath, out string, seed uint64) error {
	if out == "" {
		return fmt.Errorf("-out is required")
	}
	switch {
	case sqlFiles > 0:
		c, err := benchgen.WriteCorpus(out, sqlFiles, seed)
		if err != nil {
			return err
		}
		fmt.Printf("%d SQL files, %d bytes\n", len(c.Files), c.Bytes)
	case manifestMB > 0:
		m, err := benchgen.WriteManifest(out, int64(manifestMB)<<20, seed)
		if err != nil {
			return err
		}
		fmt.Printf("manifest of %d nodes, %d bytes\n", len(m.Parents), m.Size)
	case precommit:
		if manifestPath == "" {
			return fmt.Errorf("-precommit needs -manifest")
		}
		return benchgen.WritePrecommitProject(out, manifestPath, seed)
	default:
		return fmt.Errorf("say what to write: -sql N, -manifest-mb N or -precommit")
	}
	return nil
}
