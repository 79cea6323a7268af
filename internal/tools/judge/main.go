//go:build ignore

// This program is run with "go run FILE", never installed: the ignore
// constraint keeps it out of "go install ./..." and "go build ./...".
// scripts/realworld.sh builds it to compare bflint's reports with the
// judged set (package realworld).
package main

import (
	"fmt"
	"os"

	"github.com/bflint/bflint/internal/realworld"
)

func main() {
	if err := realworld.Run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "judge:", err)
		os.Exit(2)
	}
}
