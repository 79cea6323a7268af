package markdown

import (
	"bytes"
	"flag"
	"strings"
	"testing"

	"github.com/bflint/bflint/reporters/internal/reportertest"
	"github.com/bflint/bflint/rules"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

func render(t *testing.T, res *rules.Result, opts Options) string {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, res, opts); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func TestGolden(t *testing.T) {
	reportertest.Golden(t, "report.md", []byte(render(t, reportertest.Result(), Options{})), *update)
}

// TestCellsStayCells checks that a message cannot break out of its table
// cell: every row of the findings table has the table's five pipes once
// escaped pipes are left out, and the message's line break is a <br>.
func TestCellsStayCells(t *testing.T) {
	res := reportertest.Result()
	res.Findings[0].Message = "a | b <script>x</script> [link](http://x) *bold* `code`\nsecond line"
	out := render(t, res, Options{})
	for _, line := range strings.Split(out, "\n") {
		if !strings.HasPrefix(line, "| ") || strings.HasPrefix(line, "| rule") {
			continue
		}
		cells := strings.Count(strings.ReplaceAll(line, `\|`, ""), "|")
		if cells != 5 && cells != 4 {
			t.Errorf("row has %d unescaped pipes: %s", cells, line)
		}
	}
	for _, bad := range []string{"<script>", "[link](http://x)", "\nsecond line"} {
		if strings.Contains(out, bad) {
			t.Errorf("output contains %q unescaped:\n%s", bad, out)
		}
	}
	if !strings.Contains(out, `a \| b &lt;script&gt;`) || !strings.Contains(out, "<br>second line") {
		t.Errorf("message not escaped as expected:\n%s", out)
	}
}

func TestLimit(t *testing.T) {
	out := render(t, reportertest.Result(), Options{MaxFindings: 2})
	// The fixture has six active findings: two listed, four left out.
	if got := strings.Count(out, "\n| error |") + strings.Count(out, "\n| warning |") + strings.Count(out, "\n| info |"); got != 2 {
		t.Errorf("listed %d findings, want 2:\n%s", got, out)
	}
	if !strings.Contains(out, "4 findings more not listed here") {
		t.Errorf("no note about the 4 findings left out:\n%s", out)
	}
	if !strings.HasPrefix(out, "### bflint: 3 errors, 2 warnings, 1 info (1 suppressed) in 2 SQL files; 1 internal error\n") {
		t.Errorf("the headline must count every finding:\n%s", out)
	}
}

func TestClean(t *testing.T) {
	if got, want := render(t, &rules.Result{}, Options{}), "### bflint: no findings\n\n"; got != want {
		t.Errorf("clean run rendered %q, want %q", got, want)
	}
}
