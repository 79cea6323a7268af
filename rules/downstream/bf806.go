package downstream

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode"

	"golang.org/x/tools/go/analysis"

	"github.com/bflint/bflint/parser/manifest"
	"github.com/bflint/bflint/rules"
)

// StaleManifest reports nodes on the target's lineage whose file changed
// after the manifest was written.
var StaleManifest = &rules.Rule{
	Code:     "BF806",
	Name:     "stale-manifest",
	Severity: rules.SeverityWarning,
	Scope:    rules.ScopePlan,
	Doc: rules.Doc{
		Title: "A model on the target's lineage changed after the manifest was written",
		Why: "bflint computes what must be rebuilt, and in which order, from target/manifest.json, which is only as recent as the last dbt parse, compile or run. " +
			"When a model between the target and what must be rebuilt has been edited since (a new ref(), a view turned into a table), " +
			"the lineage in the manifest is not the lineage that will run, and a plan that satisfies it can still miss a stale table. " +
			"dbt records a sha256 checksum of each file; a file that no longer matches it means the manifest is older than the code. " +
			"Run dbt parse (or dbt compile) and lint again.",
		Bad: rules.Example{Lang: "yaml", Text: `target: model.shop.fct_orders
downstream:
  manifest: target/manifest.json   # written before models/int_orders.sql gained a ref()
  rebuild: [model.shop.revenue_daily]
`},
		Good: rules.Example{Lang: "yaml", Text: `# after dbt parse: the manifest matches the models on disk
target: model.shop.fct_orders
downstream:
  manifest: target/manifest.json
  rebuild: [model.shop.revenue_daily, model.shop.customer_ltv]
`},
	},
	Run: func(pass *rules.Pass) error {
		l, target := targetOf(pass)
		if target == "" || l.m.Path == "" {
			return nil
		}
		root := projectDir(filepath.Dir(l.m.Path))
		if root == "" {
			return nil
		}
		key := downstreamOf(pass.Plan).Manifest.Key
		for _, id := range onLineage(l, target) {
			n := l.m.Node(id)
			if n == nil || !checkable(l.m, n) {
				continue
			}
			f, err := pass.Unit.DBT.OpenFile(filepath.Join(root, filepath.FromSlash(n.OriginalFilePath)))
			if err != nil || strings.EqualFold(dbtChecksum(f.Content), n.Checksum.Checksum) {
				continue
			}
			d := rules.Diagnostic{}
			d.Pos = pass.PlanStart()
			if key.IsValid() {
				d.Pos = key
			}
			d.Message = fmt.Sprintf("%q has changed since the manifest was written: %s no longer matches the checksum dbt recorded, so the lineage bflint checked (what must be rebuilt, and in which order) may be wrong\nhelp: run dbt parse or dbt compile and lint again", id, n.OriginalFilePath)
			d.Related = []analysis.RelatedInformation{{Pos: f.Pos(0), Message: "changed after the manifest was written"}}
			pass.Report(d)
		}
		return nil
	},
}

// projectDir returns the dbt project the manifest belongs to: the nearest
// folder at or above dir that holds dbt_project.yml; "" when none does.
func projectDir(dir string) string {
	for {
		if info, err := os.Stat(filepath.Join(dir, "dbt_project.yml")); err == nil && info.Mode().IsRegular() {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// checkable reports whether n's checksum can be compared with a file of
// the root project: packages live elsewhere (dbt_packages/), and seeds too
// large to hash record their path instead.
func checkable(m *manifest.Manifest, n *manifest.Node) bool {
	return n.Checksum.Name == "sha256" && n.Checksum.Checksum != "" &&
		(m.ProjectName == "" || n.PackageName == m.ProjectName) &&
		n.OriginalFilePath != "" && filepath.IsLocal(filepath.FromSlash(n.OriginalFilePath))
}

// dbtChecksum hashes a file as dbt does: the sha256 of its text with
// leading and trailing whitespace stripped, where whitespace is Python's
// str.isspace, which also counts the separators U+001C to U+001F.
func dbtChecksum(content []byte) string {
	text := strings.TrimFunc(string(content), func(r rune) bool {
		return unicode.IsSpace(r) || (r >= 0x1c && r <= 0x1f)
	})
	sum := sha256.Sum256([]byte(text))
	return hex.EncodeToString(sum[:])
}

// onLineage returns the target and every node on a path from it to a node
// that must be rebuilt, both ends included, sorted: the nodes whose
// edges decide the rebuild set. It walks down from the target the way the
// rebuild set is reached (not beyond snapshots, seeds, analyses and
// tests), then up from the required nodes within what it reached.
func onLineage(l *lookup, target string) []string {
	reached := map[string]bool{target: true}
	stack := []string{target}
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if v != target && !l.carries(v) {
			continue
		}
		for _, c := range l.m.Children(v) {
			if !reached[c] {
				reached[c] = true
				stack = append(stack, c)
			}
		}
	}
	on := map[string]bool{target: true}
	stack = l.g.Rebuild(target)
	for _, id := range stack {
		on[id] = true
	}
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, p := range l.m.Parents(v) {
			if reached[p] && !on[p] {
				on[p] = true
				stack = append(stack, p)
			}
		}
	}
	out := make([]string, 0, len(on))
	for id := range on {
		out = append(out, id)
	}
	slices.Sort(out)
	return out
}
