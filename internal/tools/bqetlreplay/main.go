//go:build ignore

// This program is run with "go run FILE", never installed: the ignore
// constraint keeps it out of "go install ./..." and "go build ./...".
// scripts/bqetl-replay.sh builds it to replay bigquery-etl entries as
// their reviewers saw them (package bqetlreplay).
package main

import (
	"fmt"
	"os"

	"github.com/bflint/bflint/internal/bqetlreplay"
)

func main() {
	if err := bqetlreplay.Run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "bqetlreplay:", err)
		os.Exit(2)
	}
}
