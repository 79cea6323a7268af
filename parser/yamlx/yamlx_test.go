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
	// The alias that crosses the bound is the last one followed.
	if d.expansion > maxAliasExpansion+countNodes(root) {
		t.Errorf("decoding went on after the budget: aliases added %d values", d.expansion)
	}
}

// Many mappings decoded one by one with one Decoder, as the entries of a
// bigquery-etl backfill.yaml are, are all read whatever their number:
// only what aliases add counts against the bound.
func TestManyMappingsAreReadWhole(t *testing.T) {
	var b strings.Builder
	for i := range 30_000 {
		fmt.Fprintf(&b, "e%d:\n  items: [a, b, c]\n", i)
	}
	f := source.Add(token.NewFileSet(), "many.yaml", []byte(b.String()))
	root, problems := Parse(f)
	if root == nil {
		t.Fatalf("not parsed: %v", problems)
	}
	d := &Decoder{File: f}
	read := 0
	for i := 1; i < len(root.Content); i += 2 {
		var doc listDoc
		d.Decode(root.Content[i], "", &doc)
		read += len(doc.Items.Items)
	}
	if len(d.Problems) != 0 || read != 90_000 {
		t.Fatalf("read %d items of 90000, problems %v", read, d.Problems)
	}
}
