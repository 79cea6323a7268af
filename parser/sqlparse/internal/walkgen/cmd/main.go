//go:build ignore

// This program is run with "go run FILE", never installed: the ignore
// constraint keeps it out of "go install ./..." and "go build ./...".

// Command walkgen writes walk_gen.go (see package walkgen).
package main

import (
	"flag"
	"log"
	"os"

	"github.com/bflint/bflint/parser/sqlparse/internal/walkgen"
)

func main() {
	out := flag.String("o", "walk_gen.go", "the file to write")
	flag.Parse()
	src, err := walkgen.Generate()
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*out, src, 0o644); err != nil {
		log.Fatal(err)
	}
}
