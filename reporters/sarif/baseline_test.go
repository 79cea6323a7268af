package sarif

import (
	"testing"

	"github.com/bflint/bflint/reporters/internal/reportertest"
	"github.com/bflint/bflint/rules"
	"github.com/bflint/bflint/rules/baseline"
)

// TestBaselineSuppressionIsExternal applies a baseline holding the
// fixture's first active finding, as the CLI does, and checks that the log
// tells it apart from the in-source suppression and still matches both
// schemas.
func TestBaselineSuppressionIsExternal(t *testing.T) {
	res := reportertest.Result()
	prints := rules.Fingerprints(res.Findings)
	target := -1
	for i, f := range res.Findings {
		if f.Suppressed == nil {
			target = i
			break
		}
	}
	if target < 0 {
		t.Fatal("the fixture has no active finding")
	}
	all := baseline.New(res.Findings, prints)
	var b baseline.Baseline
	b.Version = baseline.Version
	for _, e := range all.Findings {
		if e.Fingerprint == prints[target] {
			b.Findings = append(b.Findings, e)
		}
	}
	const why = "in baseline .bflint-baseline.json"
	stale := b.Apply(res.Findings, prints, why, func(baseline.Entry) bool { return true })
	if len(stale) != 0 {
		t.Fatalf("stale entries %+v, want none", stale)
	}

	out := render(t, res, Options{ToolVersion: "1.0.0", SrcRoot: goldenRoot})
	for _, file := range []string{"sarif-schema-2.1.0.json", "sarif-schema-2.1.0.draft-07.json"} {
		validate(t, loadSchema(t, file), out)
	}
	r := decode(t, out)
	kinds := map[string]int{}
	for i, got := range r.Results {
		if got.PartialFingerprints[FingerprintKey] != prints[i] {
			t.Errorf("result %d: fingerprint changed by the baseline", i)
		}
		for _, s := range got.Suppressions {
			kinds[s.Kind]++
		}
		if i == target {
			want := []suppression{{Kind: "external", Justification: why}}
			if len(got.Suppressions) != 1 || got.Suppressions[0] != want[0] {
				t.Errorf("baseline result suppressions = %+v, want %+v", got.Suppressions, want)
			}
		}
	}
	if kinds["external"] != 1 || kinds["inSource"] != 1 {
		t.Errorf("suppression kinds %v, want one external and one inSource", kinds)
	}
}
