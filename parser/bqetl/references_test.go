package bqetl

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestReferencesAgreement compares the lineage read from SQL with the
// references bqetl generated, on a bigquery-etl tree named by
// BFLINT_BQETL_TREE (its sql/ folder, from the generated-sql branch);
// scripts/bqetl-lineage.sh runs it. Every edge either side has alone is
// written to BFLINT_BQETL_DIFF when that is set.
func TestReferencesAgreement(t *testing.T) {
	root := os.Getenv("BFLINT_BQETL_TREE")
	if root == "" {
		t.Skip("BFLINT_BQETL_TREE is not set")
	}
	withRefs, err := ReadLineage(root, true)
	if err != nil {
		t.Fatal(err)
	}
	fromSQL, err := ReadLineage(root, false)
	if err != nil {
		t.Fatal(err)
	}
	var both, refsOnly, sqlOnly, compared, partial int
	var diff strings.Builder
	for _, o := range withRefs.Objects {
		if withRefs.ParentsOf(o.Name) != FromReferences || fromSQL.ParentsOf(o.Name) == Unknown {
			continue
		}
		compared++
		if fromSQL.ParentsOf(o.Name) == FromPartialSQL {
			partial++
		}
		want := parentsOf(withRefs, o.Name)
		got := parentsOf(fromSQL, o.Name)
		for _, p := range want {
			if slices.Contains(got, p) {
				both++
			} else {
				refsOnly++
				fmt.Fprintf(&diff, "missing %s <- %s\n", filepath.Join(o.Name, o.Definition), p)
			}
		}
		for _, p := range got {
			if !slices.Contains(want, p) {
				sqlOnly++
				fmt.Fprintf(&diff, "extra   %s <- %s\n", filepath.Join(o.Name, o.Definition), p)
			}
		}
	}
	recall := float64(both) / float64(both+refsOnly)
	precision := float64(both) / float64(both+sqlOnly)
	t.Logf("objects compared %d (%d with a statement unread); edges in both %d, only in references %d, only from SQL %d; recall %.1f%%, precision %.1f%%",
		compared, partial, both, refsOnly, sqlOnly, 100*recall, 100*precision)
	if out := os.Getenv("BFLINT_BQETL_DIFF"); out != "" {
		if err := os.WriteFile(out, []byte(diff.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if recall < 0.95 || precision < 0.95 {
		t.Errorf("the SQL lineage agrees with references on fewer than 95%% of edges")
	}
}

func parentsOf(l *Lineage, name string) []string {
	n := l.Manifest.Node(name)
	if n == nil {
		return nil
	}
	var out []string
	for _, p := range n.DependsOn.Nodes {
		out = append(out, strings.ToLower(p))
	}
	return out
}
