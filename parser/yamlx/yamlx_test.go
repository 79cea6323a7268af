package yamlx

import (
	"fmt"
	"go/token"
	"strings"
	"testing"

	"github.com/bflint/bflint/parser/source"
)

type listDoc struct {
	Field
	Items StringList `yaml:"items"`
}

func decode(t *testing.T, text string) (*listDoc, []Problem) {
	t.Helper()
	f := source.Add(token.NewFileSet(), "doc.yaml", []byte(text))
	root, problems := Parse(f)
	if root == nil {
		t.Fatalf("not parsed: %v", problems)
	}
	var doc listDoc
	d := &Decoder{File: f}
	d.Decode(root, "", &doc)
	return &doc, d.Problems
}

// A long list written out in full is read whole: the expansion budget is
// on top of the document's own size.
func TestLongListIsReadWhole(t *testing.T) {
	var b strings.Builder
	b.WriteString("items:\n")
	for i := range 200_000 {
		fmt.Fprintf(&b, "  - model.shop.m%d\n", i)
	}
	doc, problems := decode(t, b.String())
	if len(problems) != 0 || len(doc.Items.Items) != 200_000 {
		t.Fatalf("read %d items with problems %v", len(doc.Items.Items), problems)
	}
}

// tree nests lists of mappings, the one shape through which aliases can
// multiply the work of decoding.
type tree struct {
	Field
	Kids []tree `yaml:"kids"`
	A    *tree  `yaml:"a"`
	B    *tree  `yaml:"b"`
	C    *tree  `yaml:"c"`
	D    *tree  `yaml:"d"`
}

// Aliases that multiply a small document are stopped with a problem.
func TestAliasExpansionIsBounded(t *testing.T) {
	text := `a: &a {kids: [{}, {}, {}, {}, {}, {}, {}, {}, {}, {}]}
b: &b {kids: [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]}
c: &c {kids: [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]}
d: &d {kids: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]}
kids: [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d]
`
	f := source.Add(token.NewFileSet(), "bomb.yaml", []byte(text))
	root, _ := Parse(f)
	d := &Decoder{File: f}
	var doc tree
	d.Decode(root, "", &doc)
	if len(d.Problems) != 1 || !strings.Contains(d.Problems[0].Message, "YAML aliases expand to more than 100000 values") {
		t.Fatalf("want one expansion problem, got %v", d.Problems)
	}
	// A few values in flight when the budget runs out are still visited.
	if d.visits > d.budget+64 {
		t.Errorf("decoding went on after the budget: %d visits for a budget of %d", d.visits, d.budget)
	}
}
