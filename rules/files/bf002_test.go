package files

import (
	"fmt"
	"go/token"
	"strings"
	"testing"

	"github.com/bflint/bflint/rules"
	"golang.org/x/tools/go/analysis"
)

// A file of hundreds of fragments gives one finding noting the first
// maxNoted others and counting the rest.
func TestRejectedStatementsOfAFileAreOneFinding(t *testing.T) {
	var rejected []rejection
	for i := range 25 {
		rejected = append(rejected, rejection{pos: token.Pos(10 * (i + 1)), at: fmt.Sprintf("%q", fmt.Sprint("w", i)), msg: "syntax error"})
	}
	var findings []string
	var related []analysis.RelatedInformation
	reportRejected(rejected, func(pos token.Pos, rel []analysis.RelatedInformation, format string, args ...any) {
		findings = append(findings, fmt.Sprintf("%d: ", pos)+fmt.Sprintf(format, args...))
		related = rel
	})
	if len(findings) != 1 {
		t.Fatalf("findings %q, want one", findings)
	}
	headline, help := rules.SplitHelp(findings[0])
	if !strings.HasPrefix(headline, `10: cannot parse this statement at "w0"`) ||
		!strings.HasSuffix(headline, ", nor the 24 other statements of this file the parser rejected (the first 20 noted below)") {
		t.Errorf("headline %q, want one at the first statement counting 24 others", headline)
	}
	if !strings.Contains(help, "add it to exclude in .bflint.yaml") {
		t.Errorf("help %q, want the exclude a file of fragments belongs in", help)
	}
	if len(related) != maxNoted || related[0].Pos != 20 || related[maxNoted-1].Pos != 210 {
		t.Fatalf("%d related places, first at %d, want %d from 20 to 210", len(related), related[0].Pos, maxNoted)
	}
	if want := `the parser also rejected this statement, at "w20", and 4 more statements not noted here`; related[maxNoted-1].Message != want {
		t.Errorf("last note %q, want %q", related[maxNoted-1].Message, want)
	}
}
