// Command bflint-vet runs bflint's SQL rules on constant SQL in Go code. It
// is a go vet tool: go vet -vettool=$(which bflint-vet) ./...
package main

import (
	"github.com/bflint/bflint/cmd/bflint-vet/internal/sqlvet"
	"golang.org/x/tools/go/analysis/singlechecker"
)

func main() { singlechecker.Main(sqlvet.Analyzer) }
