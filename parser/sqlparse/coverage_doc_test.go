package sqlparse

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCoverageDoc reads every example of docs/sql-coverage.md and checks
// that bflint reads it as the page says.
func TestCoverageDoc(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "sql-coverage.md"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]Coverage{"parsed": CoverageParsed, "tokens": CoverageTokens, "not read": CoverageNone}
	rows := 0
	for i, line := range strings.Split(string(b), "\n") {
		cells := strings.Split(strings.ReplaceAll(line, `\|`, "\x00"), "|")
		if len(cells) != 5 || !strings.HasPrefix(strings.TrimSpace(cells[2]), "`") {
			continue
		}
		example := strings.ReplaceAll(strings.Trim(strings.TrimSpace(cells[2]), "`"), "\x00", "|")
		read, ok := want[strings.TrimSpace(cells[3])]
		if !ok {
			t.Errorf("line %d: read %q is none of parsed, tokens, not read", i+1, cells[3])
			continue
		}
		rows++
		f := Parse(example, Options{ModelName: "m"})
		if len(f.Statements) == 0 {
			t.Errorf("line %d: %q holds no statement", i+1, example)
		}
		// The branches of an is_incremental() block are one statement each.
		for _, st := range f.Statements {
			if got := st.Coverage(); got != read {
				problem := ""
				if st.Problem != nil {
					problem = ": " + st.Problem.Msg
				}
				t.Errorf("line %d: %q is read as %s, the page says %s%s", i+1, example, got, strings.TrimSpace(cells[3]), problem)
			}
		}
	}
	if rows < 20 {
		t.Errorf("read %d examples from the page, want at least 20", rows)
	}
}
