//go:build ignore

// This program is run with "go run FILE", never installed: the ignore
// constraint keeps it out of "go install ./..." and "go build ./...".

// Command blockgen writes blocks_gen.go (see package blockgen).
package main

import (
	"flag"
	"log"
	"os"

	"github.com/bflint/bflint/parser/sqlparse/internal/pgjson/blockgen"
)

func main() {
	out := flag.String("o", "blocks_gen.go", "the file to write")
	flag.Parse()
	src, err := blockgen.Generate()
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*out, src, 0o644); err != nil {
		log.Fatal(err)
	}
}
