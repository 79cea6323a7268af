package reporters

import (
	"fmt"
	"sort"
	"strings"

	"github.com/bflint/bflint/rules"
)

// Counts are a run's findings by severity as they are shown (suppressed
// findings and inventory entries counted apart), and its internal errors.
type Counts struct {
	Errors, Warnings, Infos, Suppressed, Inventory, Internal int
}

// Count tallies the findings and internal errors of res.
func Count(res *rules.Result) Counts {
	c := Counts{Internal: len(res.Errors)}
	for _, f := range res.Findings {
		if f.Suppressed != nil {
			c.Suppressed++
			continue
		}
		if f.Inventory {
			// The model line counts them (ModelLine).
			c.Inventory++
			continue
		}
		switch EffectiveSeverity(f) {
		case rules.SeverityError:
			c.Errors++
		case rules.SeverityWarning:
			c.Warnings++
		default:
			c.Infos++
		}
	}
	return c
}

// String is the summary a report closes or opens with: the counts a user
// acts on, with suppressed findings and internal errors only when there
// are some.
func (c Counts) String() string {
	s := c.findings()
	if c.Internal > 0 {
		s += "; " + Plural(c.Internal, "internal error")
	}
	return s
}

// findings is String without the internal errors.
func (c Counts) findings() string {
	var s string
	if c.Errors+c.Warnings+c.Infos == 0 {
		s = "no findings"
	} else {
		s = Plural(c.Errors, "error") + ", " + Plural(c.Warnings, "warning")
		if c.Infos > 0 {
			s += ", " + Plural(c.Infos, "info")
		}
	}
	if c.Suppressed > 0 {
		s += fmt.Sprintf(" (%d suppressed)", c.Suppressed)
	}
	return s
}

// Summary is the line a text or Markdown report closes or opens with: the
// counts, and what the run linted ("3 errors, 2 warnings in 2 plans, 14
// SQL files and 1 dbt manifest"), so that a clean run says what it
// checked.
func Summary(res *rules.Result) string {
	var parts []string
	add := func(n int, word string) {
		if n > 0 {
			parts = append(parts, Plural(n, word))
		}
	}
	in := res.Inputs
	add(in.Plans, "plan")
	add(in.Entries, "bigquery-etl entry")
	add(res.Coverage.Files, "SQL file")
	add(in.DBTManifests, "dbt manifest")
	if in.DBTProjects > 0 {
		parts = append(parts, Plural(in.DBTProjects, "dbt project")+" read from project files (no manifest)")
	}
	add(in.BqetlTrees, "bigquery-etl tree")
	c := Count(res)
	s := c.findings()
	switch len(parts) {
	case 0:
	case 1:
		s += " in " + parts[0]
	default:
		s += " in " + strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
	}
	if c.Internal > 0 {
		s += "; " + Plural(c.Internal, "internal error")
	}
	return s
}

// ModelLine says which of the run's dbt models can be backfilled by
// range, for the text and Markdown reports; "" when the run read no model.
func ModelLine(res *rules.Result) string {
	c := rules.CountModels(res.Models)
	if c.Models == 0 {
		return ""
	}
	return ModelCounts(c) + "; bflint models lists them"
}

// PlanHint tells a run over a dbt project or a bigquery-etl tree that
// linted no plan how to start one; "" when a plan was linted or there is
// no model to plan for.
func PlanHint(res *rules.Result) string {
	if res.Inputs.Plans > 0 || res.Inputs.Entries > 0 || len(res.Models) == 0 {
		return ""
	}
	return "no backfill plan among these files: bflint init --target MODEL --start DATE --end DATE -o FILE writes one, filled from the project"
}

// ModelCounts is "412 dbt models: 380 can be backfilled by range, 31
// only by a full refresh (clock 25, high-water mark 6), 1 appends on a
// re-run".
func ModelCounts(c rules.ModelCounts) string {
	s := fmt.Sprintf("%s: %s can be backfilled by range", Plural(c.Models, "model"), thousands(c.ByRange))
	if full := c.Clock + c.Watermark; full > 0 {
		var why []string
		if c.Clock > 0 {
			why = append(why, "clock "+thousands(c.Clock))
		}
		if c.Watermark > 0 {
			why = append(why, "high-water mark "+thousands(c.Watermark))
		}
		s += fmt.Sprintf(", %s only by a full refresh (%s)", thousands(full), strings.Join(why, ", "))
	}
	if c.Unknown > 0 {
		s += fmt.Sprintf(", %s undecided (a filter bflint cannot read)", thousands(c.Unknown))
	}
	if c.Append > 0 {
		verb := "append"
		if c.Append == 1 {
			verb = "appends"
		}
		s += fmt.Sprintf(", %s %s on a re-run", thousands(c.Append), verb)
	}
	return s
}

// Plural is "1 word" or "n words".
func Plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	if strings.HasSuffix(word, "ry") {
		return fmt.Sprintf("%s %sies", thousands(n), strings.TrimSuffix(word, "y"))
	}
	return fmt.Sprintf("%s %ss", thousands(n), word)
}

// CoverageLine says how the run's SQL statements were read, for the text
// and Markdown reports: "2,136 SQL files, 9,812 statements: 96.1% parsed,
// 3.7% read from tokens, 0.2% not read". It is "" when the run read no SQL
// statement.
func CoverageLine(c rules.Coverage) string {
	n := c.Total()
	if n == 0 {
		return ""
	}
	files := thousands(c.Files) + " SQL files"
	if c.Files == 1 {
		files = "1 SQL file"
	}
	statements := thousands(n) + " statements"
	if n == 1 {
		statements = "1 statement"
	}
	return fmt.Sprintf("%s, %s: %s parsed, %s read from tokens, %s not read", files, statements,
		percent(c.Parsed(), n), percent(c.FromTokens(), n), percent(c.NotRead(), n))
}

func percent(n, whole int) string { return fmt.Sprintf("%.1f%%", 100*float64(n)/float64(whole)) }

// thousands writes n with a comma between groups of three digits.
func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// MessageWithHelp is a finding's headline with its help on a line of its
// own, for the formats that show one text per finding (SARIF, GitHub
// annotations, reviewdog).
func MessageWithHelp(f rules.Finding) string {
	if f.Help == "" {
		return f.Message
	}
	return f.Message + "\nhelp: " + f.Help
}

// RuleCount is how many findings one rule reported, at the highest
// severity among them.
type RuleCount struct {
	Rule     *rules.Rule
	Severity rules.Severity
	Count    int
}

// ByRule counts findings per rule, most findings first, then by code.
func ByRule(findings []rules.Finding) []RuleCount {
	index := map[string]int{}
	var out []RuleCount
	for _, f := range findings {
		code := RuleCode(f.Rule)
		i, ok := index[code]
		if !ok {
			i = len(out)
			index[code] = i
			out = append(out, RuleCount{Rule: f.Rule, Severity: EffectiveSeverity(f)})
		}
		out[i].Count++
		out[i].Severity = max(out[i].Severity, EffectiveSeverity(f))
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Count != out[j].Count {
			return out[i].Count > out[j].Count
		}
		return RuleCode(out[i].Rule) < RuleCode(out[j].Rule)
	})
	return out
}

// ByRuleLine is ByRule for the text report: "by rule: 8 BF003
// missing-file, 2 BF402 validation-not-numeric, 1 BF001 plan-invalid".
// It names the byRuleNamed rules with the most findings and counts the
// rest, and is "" unless a rule reported twice: with one finding per rule
// it would only repeat the report.
func ByRuleLine(res *rules.Result) string {
	var active []rules.Finding
	for _, f := range res.Findings {
		if f.Listed() {
			active = append(active, f)
		}
	}
	counts := ByRule(active)
	if len(counts) == 0 || counts[0].Count < 2 {
		return ""
	}
	var parts []string
	for _, r := range counts[:min(len(counts), byRuleNamed)] {
		parts = append(parts, fmt.Sprintf("%d %s %s", r.Count, RuleCode(r.Rule), RuleName(r.Rule)))
	}
	if rest := len(counts) - byRuleNamed; rest > 0 {
		parts = append(parts, "and "+Plural(rest, "more rule"))
	}
	return "by rule: " + strings.Join(parts, ", ")
}

// byRuleNamed is how many rules the by-rule line names.
const byRuleNamed = 5
