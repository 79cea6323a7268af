package pgjson

import (
	"os"
	"testing"

	"github.com/bflint/bflint/parser/sqlparse/internal/pgjson/blockgen"
)

// TestBlocksGenIsCurrent fails when blocks_gen.go no longer matches what
// the generator writes for the pg_query version in go.mod: run go
// generate.
func TestBlocksGenIsCurrent(t *testing.T) {
	want, err := blockgen.Generate()
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("blocks_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Error("blocks_gen.go is stale: run go generate ./parser/sqlparse/internal/pgjson")
	}
}

// TestDecodingAllocatesNoBlockThroughReflection checks that every oneof
// member the tables read has a block type of its own.
func TestDecodingAllocatesNoBlockThroughReflection(t *testing.T) {
	root, err := parseResultTable()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[*pbMessage]bool{}
	var walk func(m *pbMessage)
	walk = func(m *pbMessage) {
		if m == nil || seen[m] {
			return
		}
		seen[m] = true
		for _, f := range m.fields {
			if mem := f.member; mem != nil && f.kind == kMessage {
				if mem.newBlock == nil || m.node && mem.newNodeBlock == nil {
					t.Errorf("%v: member %s has no block allocator", m.typ, f.name)
				}
			}
			walk(f.msg)
		}
	}
	walk(root)
	if len(seen) < 200 {
		t.Errorf("walked %d message tables, want the 200 and more pg_query has", len(seen))
	}
}
