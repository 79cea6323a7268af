package all

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite docs/rules from the rule declarations")

const docsDir = "../../docs/rules"

// TestRuleDocs keeps docs/rules in step with the documentation declared
// beside each rule; run with -update after changing a rule's Doc.
func TestRuleDocs(t *testing.T) {
	pages := map[string]string{"README.md": index()}
	for _, r := range Registry().All() {
		pages[r.Code+".md"] = r.Markdown()
	}
	if *update {
		if err := os.MkdirAll(docsDir, 0o755); err != nil {
			t.Fatal(err)
		}
		for name, text := range pages {
			if err := os.WriteFile(filepath.Join(docsDir, name), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	for name, want := range pages {
		got, err := os.ReadFile(filepath.Join(docsDir, name))
		if err != nil {
			t.Errorf("%v (run go test ./rules/all -update)", err)
			continue
		}
		if string(got) != want {
			t.Errorf("docs/rules/%s is out of date with the rule's Doc (run go test ./rules/all -update)", name)
		}
	}
	entries, _ := os.ReadDir(docsDir)
	for _, e := range entries {
		if _, ok := pages[e.Name()]; !ok {
			t.Errorf("docs/rules/%s documents no registered rule", e.Name())
		}
	}
}

func index() string {
	var b strings.Builder
	b.WriteString("# Rules\n\nEvery rule bflint runs, by code. `bflint rules` prints the same list and `bflint explain CODE` one page.\n\n")
	b.WriteString("| code | name | severity | what it reports |\n|---|---|---|---|\n")
	for _, r := range Registry().All() {
		fmt.Fprintf(&b, "| [%s](%s.md) | %s | %s | %s |\n", r.Code, r.Code, r.Name, r.Severity, strings.ReplaceAll(r.Doc.Title, "|", "\\|"))
	}
	return b.String()
}
