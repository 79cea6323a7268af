package sqlparse

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/bflint/bflint/parser/sqlparse/internal/tree"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// TestWalkMatchesReflection walks every statement of the SQL corpora with
// the generated code and with protobuf reflection, in declaration order:
// both must visit the same messages in the same order.
func TestWalkMatchesReflection(t *testing.T) {
	paths, _ := filepath.Glob("../../testdata/sql/*/*.sql")
	if len(paths) < 50 {
		t.Fatalf("found %d SQL files", len(paths))
	}
	statements, nodes := 0, 0
	for _, path := range paths {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, st := range Parse(string(src), Options{}).Statements {
			if st.Node == nil {
				continue
			}
			statements++
			var got, want []proto.Message
			tree.Walk(st.Node, func(m proto.Message) bool { got = append(got, m); return true })
			reflectWalk(st.Node.ProtoReflect(), func(m proto.Message) { want = append(want, m) })
			nodes += len(want)
			if !slices.Equal(got, want) {
				t.Errorf("%s: statement at %d: generated walk visits %d messages, reflection %d", path, st.Start, len(got), len(want))
			}
		}
	}
	t.Logf("%d statements, %d messages", statements, nodes)
}

func reflectWalk(m protoreflect.Message, visit func(proto.Message)) {
	visit(m.Interface())
	fields := m.Descriptor().Fields()
	for i := range fields.Len() {
		fd := fields.Get(i)
		if fd.Message() == nil || !m.Has(fd) {
			continue
		}
		if fd.IsList() {
			l := m.Get(fd).List()
			for j := range l.Len() {
				reflectWalk(l.Get(j).Message(), visit)
			}
			continue
		}
		reflectWalk(m.Get(fd).Message(), visit)
	}
}
