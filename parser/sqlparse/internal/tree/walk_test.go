package tree

import (
	"os"
	"testing"

	"github.com/bflint/bflint/parser/sqlparse/internal/walkgen"
)

// TestWalkGenIsCurrent fails when walk_gen.go no longer matches what the
// generator writes for the pg_query version in go.mod: run go generate.
func TestWalkGenIsCurrent(t *testing.T) {
	want, err := walkgen.Generate()
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("walk_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Error("walk_gen.go is stale: run go generate ./parser/sqlparse/internal/tree")
	}
}
