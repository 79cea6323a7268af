package brief

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/bflint/bflint/reporters"
)

// WriteMarkdown renders the document as GitHub-flavoured Markdown: one
// level-one heading per plan, its sections as level-two headings, tables
// for lists, and the rebuild order as a Mermaid block, which GitHub draws.
func WriteMarkdown(w io.Writer, doc *Document) error {
	return reporters.WritePrintable(w, func(w io.Writer) error { return writeMarkdown(w, doc) })
}

// writeMarkdown writes what its exported form passes through reporters.WritePrintable.
func writeMarkdown(w io.Writer, doc *Document) error {
	bw := bufio.NewWriter(w)
	for i, b := range doc.Briefs {
		if i > 0 {
			bw.WriteString("\n")
		}
		m := mdWriter{bw}
		m.brief(b, doc.AsOf[:min(len(doc.AsOf), 10)])
	}
	return bw.Flush()
}

type mdWriter struct{ *bufio.Writer }

func (m mdWriter) f(format string, args ...any) { fmt.Fprintf(m, format, args...) }

func (m mdWriter) brief(b *Brief, asOf string) {
	if !b.Readable {
		m.f("# No brief for %s: %s\n", code(b.Plan), text(b.Problem))
		return
	}
	span := ""
	if r := b.Range; r != nil && r.Start != "" && r.End != "" {
		span = ", " + r.Start + " to " + r.End
	}
	name := cmp.Or(b.Relation, b.Target)
	m.f("# Backfill brief: %s%s\n\n", code(name), span)
	m.f("**%s**\n\n", strings.Replace(text(b.Headline), text(name), code(name), 1))
	m.facts(b, asOf)
	m.rangeSection(b)
	m.movesSection(b)
	m.safetySection(b)
	m.undoSection(b)
	if b.Format != "bqetl" {
		m.approvalSection(b)
	}
	m.risksSection(b, asOf)
}

func (m mdWriter) facts(b *Brief, asOf string) {
	m.f("| | |\n|---|---|\n")
	plan := code(b.Plan)
	if b.Format == "bqetl" {
		plan += fmt.Sprintf(", the bigquery-etl entry of line %d", b.Line)
	}
	if b.ID != "" {
		plan += " (id " + code(b.ID) + ")"
	}
	m.f("| Plan | %s |\n", cell(plan))
	if b.Relation != "" {
		m.f("| Relation | %s, the table of %s |\n", cell(code(b.Relation)), cell(code(b.Target)))
	}
	if b.Status != "" {
		m.f("| Status | %s |\n", cell(text(b.Status)))
	}
	owner := "not stated (`owner`)"
	if b.Format == "bqetl" {
		owner = "not stated (`watchers`)"
	}
	if b.Owner != "" {
		owner = text(b.Owner)
	}
	label := "Owner"
	if b.Format == "bqetl" {
		label = "Watchers"
	}
	m.f("| %s | %s |\n", label, cell(owner))
	if b.Reason != "" {
		m.f("| Why | %s |\n", cell(text(b.Reason)))
	}
	if len(b.After) > 0 {
		m.f("| Runs after | %s |\n", cell(codes(b.After)))
	}
	m.f("| Checks by bflint | %s |\n\n", cell(verdict(b, asOf)))
}

// verdict counts the open risks by severity.
func verdict(b *Brief, asOf string) string {
	if len(b.Risks) == 0 {
		return "nothing outstanding, as of " + asOf
	}
	counts := map[string]int{}
	for _, r := range b.Risks {
		counts[r.Severity]++
	}
	var parts []string
	for _, sev := range []string{"error", "warning", "info"} {
		if n := counts[sev]; n > 0 {
			parts = append(parts, reporters.Plural(n, sev))
		}
	}
	s := strings.Join(parts, ", ")
	if b.RisksOmitted > 0 {
		s += fmt.Sprintf(" and %d more", b.RisksOmitted)
	}
	return s + " open, as of " + asOf + " (see Open risks)"
}

func (m mdWriter) rangeSection(b *Brief) {
	m.heading(b, "Range", aboutRange)
	r := b.Range
	if r == nil {
		m.f("The plan states no range (`range`): what is recomputed is unknown.\n\n")
		return
	}
	what := fmt.Sprintf("%s to %s, both included", valueOr(r.Start, "range.start", text), valueOr(r.End, "range.end", text))
	if r.Partitions > 0 {
		what += fmt.Sprintf(": %s", reporters.Plural(r.Partitions, grainly[r.Grain]+" partition"))
	}
	if r.PartitionColumn != "" {
		what += " of " + code(r.PartitionColumn)
	}
	if r.Timezone != "" {
		what += ", in " + r.Timezone
	}
	if b.Format == "bflint" && r.PartitionColumn == "" {
		what += "; the partition column is not stated (`range.partition_column`)"
	}
	if b.Format == "bflint" && r.Timezone == "" {
		what += "; the timezone is not stated (`range.timezone`)"
	}
	m.f("- **Partitions**: %s.\n", what)
	if len(r.Excluded) > 0 {
		m.f("- **Excluded dates**: %s.\n", strings.Join(r.Excluded, ", "))
	}
	if r.EntryDates != nil {
		m.f("- **Entry dates**: %s to %s, which the table's `date_partition_offset` moves by %s to the partitions above.\n", r.EntryDates.Start, r.EntryDates.End, reporters.Plural(r.OffsetDays, "day"))
	}
	if r.PipelineOwns > 0 {
		newest := "the newest partition"
		if r.PipelineOwns > 1 {
			newest = fmt.Sprintf("the newest %d partitions", r.PipelineOwns)
		}
		m.f("- **Scheduled pipeline**: it still writes %s, which the range must end before.\n", newest)
	}
	switch bd := r.Boundary; {
	case bd != nil:
		m.f("- **Boundary**: %s.\n", boundary(bd))
	case b.Format != "bqetl":
		m.f("- **Boundary**: the plan does not record how the start was found (`range.boundary`).\n")
	}
	m.f("\n")
}

// The rules about each section of a brief, by code.
func aboutRange(code string) bool { return strings.HasPrefix(code, "BF1") }
func aboutMoves(code string) bool {
	return code == "BF501" || code == "BF502" || strings.HasPrefix(code, "BF8") || code == "BF902"
}
func aboutSafety(code string) bool {
	return strings.HasPrefix(code, "BF2") || strings.HasPrefix(code, "BF3") || strings.HasPrefix(code, "BF4") ||
		code == "BF503" || code == "BF504" || code == "BF901"
}
func aboutUndo(code string) bool       { return strings.HasPrefix(code, "BF6") }
func aboutGovernance(code string) bool { return code == "BF903" || code == "BF904" }

// heading starts a section, naming the open findings of the rules about
// it first, so that nothing the section says reads as settled while
// bflint disputes it.
func (m mdWriter) heading(b *Brief, title string, about func(code string) bool) {
	m.f("## %s\n\n", title)
	m.openHere(b, about)
}

func (m mdWriter) openHere(b *Brief, about func(code string) bool) {
	var codes []string
	for _, r := range b.Risks {
		if about(r.Code) && !slices.Contains(codes, r.Code) {
			codes = append(codes, r.Code)
		}
	}
	slices.Sort(codes)
	if len(codes) > 0 {
		m.f("**Open here**: bflint reports %s on this part of the plan (see Open risks).\n\n", strings.Join(codes, ", "))
	}
}

func boundary(bd *Boundary) string {
	var parts []string
	if bd.Candidate != "" {
		s := "the deploy history points at " + bd.Candidate
		if bd.IntroducedBy != "" {
			s += " (" + code(bd.IntroducedBy) + ")"
		}
		parts = append(parts, s)
	}
	switch {
	case bd.Confirmed != "" && bd.Confirmed == bd.Candidate:
		parts = append(parts, "the data confirms it")
	case bd.Confirmed != "":
		parts = append(parts, "the data puts it at "+bd.Confirmed)
	default:
		parts = append(parts, "not confirmed in the data (`range.boundary.confirmed`)")
	}
	s := strings.Join(parts, "; ")
	if bd.Evidence != "" {
		s += ", by " + code(bd.Evidence)
	}
	return s
}

func (m mdWriter) movesSection(b *Brief) {
	m.heading(b, "What moves and when", aboutMoves)
	mv := b.Moves
	m.f("%s\n\n", text(mv.Window))
	if mv.Publish != nil && mv.Publish.SQL != "" {
		m.f("The publish is %s.\n\n", code(mv.Publish.SQL))
	}
	if len(mv.Consumers) > 0 {
		m.f("Consumers: %s.\n\n", text(strings.Join(mv.Consumers, ", ")))
	} else if b.Format != "bqetl" {
		m.f("The plan names no consumers to tell (`communication.consumers`).\n\n")
	}
	switch {
	case mv.Lineage != "" && b.Format == "bqetl":
		m.f("Downstream, from the lineage of the bigquery-etl tree %s:\n\n", code(mv.Lineage))
	case mv.Lineage != "":
		m.f("Downstream, from the lineage in %s:\n\n", code(mv.Lineage))
	case b.Format == "bqetl":
		m.f("Downstream: no lineage was read for this table.\n\n")
	default:
		m.f("Downstream, from the plan's own lists (no dbt manifest was read, so nothing confirms they are complete):\n\n")
	}
	switch {
	case len(mv.Downstream) == 0 && mv.Lineage == "":
		m.f("The plan lists nothing to rebuild.\n\n")
	case len(mv.Downstream) == 0:
		m.f("Nothing derived from the target needs a rebuild.\n\n")
	default:
		m.f("| order | node | kind | how it follows |\n|---:|---|---|---|\n")
		for _, st := range mv.Downstream {
			order := ""
			if st.Order > 0 {
				order = fmt.Sprint(st.Order)
			}
			follows := how(st, b.Format)
			if st.Range != "" {
				follows += fmt.Sprintf("; to be rebuilt over %s, since it reads the target over %s", st.Range, st.Window)
			}
			m.f("| %s | %s | %s | %s |\n", order, cell(code(st.Node)), cell(text(cmp.Or(st.Kind, "not known (no lineage)"))), cell(follows))
		}
		omitted(m, mv.DownstreamOmitted, "node", b.Target)
		m.f("\n")
	}
	if len(mv.Views) > 0 {
		m.f("Views that read the corrected rows as soon as it is published: %s", codes(mv.Views))
		if mv.ViewsOmitted > 0 {
			m.f(" and %d more", mv.ViewsOmitted)
		}
		m.f(".\n\n")
	}
	if len(mv.Exposures) > 0 {
		m.f("| exposure | owner | in the plan's notify list |\n|---|---|---|\n")
		for _, e := range mv.Exposures {
			told := "no"
			if e.Told {
				told = "yes"
			}
			m.f("| %s | %s | %s |\n", cell(code(e.Node)), cell(text(cmp.Or(e.Owner, "unknown"))), told)
		}
		omitted(m, mv.ExposuresOmitted, "exposure", b.Target)
		m.f("\n")
	}
	for _, s := range mv.Snapshots {
		m.f("- Snapshot %s: the history it recorded is not rewritten; its next run records the corrected rows as new versions, valid from that day.", code(s.Node))
		if s.Reason != "" {
			m.f(" The plan: %s.", text(strings.TrimSuffix(s.Reason, ".")))
		}
		m.f("\n")
	}
	if len(mv.Snapshots) > 0 {
		omitted(m, mv.SnapshotsOmitted, "snapshot", b.Target)
		m.f("\n")
	}
	m.f("```mermaid\n%s```\n\n", mv.Diagram)
}

// how says in words how a step follows the correction.
func how(st Step, format string) string {
	switch st.By {
	case ByRebuild:
		return fmt.Sprintf("rebuilt by this plan, step %d", st.Order)
	case ByPlan:
		if format == "bqetl" {
			return "backfilled by the entry of " + st.Plan + " in its own backfill.yaml"
		}
		return "corrected by plan " + code(st.Plan) + ", which runs after this one"
	case BySkip:
		return "not rebuilt: " + valueOr(st.Reason, "downstream.skip[].reason", text)
	case BySchedule:
		return "written whole by its next scheduled run"
	case ByUnion:
		return "reached only through a view unioning other relations: check whether it reads these rows"
	case ByNewer:
		return "created since the entry's day, from corrected rows"
	}
	switch {
	case format == "bqetl" && st.Reason != "":
		return "no entry dated on or after this one backfills it; " + text(st.Reason)
	case format == "bqetl":
		return "incremental, and no entry dated on or after this one backfills it"
	}
	return "in none of the plan's downstream lists"
}

func omitted(m mdWriter, n int, what, target string) {
	if n > 0 {
		m.f("\nAnd %d more %s: `bflint lineage %s` lists every one.\n", n, pluralWord(n, what), target)
	}
}

func (m mdWriter) safetySection(b *Brief) {
	m.heading(b, "How it is made safe", aboutSafety)
	s := b.Safety
	if s.Rerun != nil || b.Format != "bqetl" {
		m.f("- **Re-run**: %s.\n", rerun(s.Rerun))
	}
	if st := s.Staging; st != nil && st.Relation != "" {
		line := "written to " + code(st.Relation)
		if st.Build != "" {
			line += " by " + code(st.Build)
		}
		m.f("- **Staging**: %s.\n", line)
	} else if b.Format != "bqetl" {
		m.f("- **Staging**: not stated (`staging`): the recompute may write where consumers read.\n")
	}
	if s.Run != "" {
		m.f("- **Run**: %s.\n", code(s.Run))
	}
	if c := s.Compute; c != nil {
		line := valueOr(c.Environment, "compute.environment", text)
		if c.MaxConcurrency > 0 {
			line += fmt.Sprintf(", at most %s at a time", reporters.Plural(c.MaxConcurrency, "partition"))
		}
		if c.Window != "" {
			line += ", in the window " + text(c.Window)
		}
		m.f("- **Compute**: %s.\n", line)
	} else if b.Format != "bqetl" {
		m.f("- **Compute**: not stated (`compute`).\n")
	}
	if s.Trial != "" {
		m.f("- **Trial**: partition %s runs end to end first, and is inspected before the rest.\n", s.Trial)
	} else if b.Format != "bqetl" {
		m.f("- **Trial**: no trial partition (`trial.partition`).\n")
	}
	if len(s.Unrecorded) > 0 {
		m.f("- **Not recorded**: the bigquery-etl format has no place for %s; the pull request has to show them.\n", joinAnd(s.Unrecorded))
	}
	m.f("\n")
	switch {
	case len(s.Checks) > 0:
		m.f("| check | query | passes when | over |\n|---|---|---|---|\n")
		for _, c := range s.Checks {
			over := "the range"
			if c.Control != nil {
				over = fmt.Sprintf("%s to %s, a control period the error did not touch", c.Control.Start, c.Control.End)
				if c.Control.Start == "" || c.Control.End == "" {
					over = "a control period whose dates are not stated (`control`)"
				}
			}
			passes := valueOr(c.Pass, "pass", code)
			if slices.Contains(c.Open, "BF402") {
				passes = "no numeric criterion (BF402): " + code(c.Pass)
			}
			m.f("| %s | %s | %s | %s |\n", cell(valueOr(c.Name, "name", text)), cell(valueOr(c.SQL, "sql", code)), cell(passes), cell(over))
		}
		m.f("\n")
	case b.Format != "bqetl":
		m.f("No validation check is written (`validation.checks`): nothing stops a wrong result before the publish.\n\n")
	}
}

func rerun(r *Rerun) string {
	if r == nil {
		return "not stated (`rerun`): whether a second run duplicates rows is unknown"
	}
	s := code(orUnstated(r.Write))
	if r.Write == "append" {
		s += ": re-running a partition adds its rows again"
	}
	if len(r.Key) > 0 {
		s += " on " + codes(r.Key)
	}
	if r.UniquenessCheck != "" {
		s += ", the key checked unique by " + code(r.UniquenessCheck)
	}
	switch {
	case r.TestedOn == "":
		s += "; never run twice against a populated copy (`rerun.tested`)"
	case r.Identical:
		s += fmt.Sprintf("; run twice on %s against a populated copy, with identical results", r.TestedOn)
	default:
		s += fmt.Sprintf("; run twice on %s against a populated copy, and the results were not recorded identical", r.TestedOn)
	}
	return s
}

func (m mdWriter) undoSection(b *Brief) {
	m.heading(b, "How it is undone", aboutUndo)
	u := b.Undo
	if u == nil {
		m.f("The plan states no rollback (`rollback`): nothing keeps the rows the publish replaces, so once published the old numbers are gone.\n\n")
		return
	}
	if b.Format == "bqetl" {
		took := "Completing the entry clones"
		if strings.EqualFold(b.Status, "Complete") {
			took = "When the entry was completed, bqetl cloned"
		}
		m.f("%s the table to %s (the name bqetl gives the clone today) before the copy: restoring partitions from that clone is the undo. bigquery-etl records no retention, owner or restore time for it; a later entry over the same dates is undone with it.\n\n", took, code(u.Location))
		return
	}
	m.f("| | |\n|---|---|\n")
	m.f("| Mechanism | %s |\n", cell(valueOr(u.Mechanism, "rollback.mechanism", text)))
	where := valueOr(u.Location, "rollback.location", code)
	if u.Capture != "" {
		where += ", captured by " + code(u.Capture) + " before the publish"
	}
	m.f("| Copy | %s |\n", cell(where))
	m.f("| Kept until | %s |\n", cell(valueOr(u.RetainedUntil, "rollback.retained_until", text)))
	m.f("| Restorable by | %s |\n", cell(valueOr(u.RestorableBy, "rollback.restorable_by", text)))
	m.f("| Restore time | %s |\n", cell(valueOr(u.RestoreTime, "rollback.restore_time", text)))
	if u.SQL != "" {
		m.f("| Restore | %s |\n", cell(code(u.SQL)))
	}
	tested := "no: the restore has never been exercised"
	if u.Tested {
		tested = "yes, on the trial partition"
	}
	m.f("| Tested | %s |\n\n", tested)
	var rebuilt []string
	for _, st := range b.Moves.Downstream {
		if st.By == ByRebuild {
			rebuilt = append(rebuilt, code(st.Node))
		}
	}
	if len(rebuilt) > 0 {
		m.f("The restore puts back %s only: %s %s the corrected numbers until rebuilt again.\n\n", code(b.Target), listing(rebuilt, 3), verb(len(rebuilt), "keeps", "keep"))
	}
}

func (m mdWriter) approvalSection(b *Brief) {
	m.heading(b, "Approval and personal data", aboutGovernance)
	switch a := b.Approval; {
	case a == nil:
		m.f("- **Approval**: not stated (`approval`).\n")
	case a.Required && a.ApprovedBy != "":
		m.f("- **Approval**: required, and given by %s.\n", text(a.ApprovedBy))
	case a.Required:
		m.f("- **Approval**: required; no approver recorded (`approval.approved_by`).\n")
	default:
		m.f("- **Approval**: not required.\n")
	}
	switch d := b.Data; {
	case d == nil:
		m.f("- **Personal data**: not stated (`data.contains_pii`).\n")
	case !d.ContainsPII:
		m.f("- **Personal data**: none, as the plan declares.\n")
	default:
		line := "present; suppression list: " + valueOr(d.Suppression, "data.suppression", code)
		line += "; grants of the staged copy: " + valueOr(d.Grants, "data.grants", text)
		m.f("- **Personal data**: %s.\n", line)
	}
	m.f("\n")
}

func (m mdWriter) risksSection(b *Brief, asOf string) {
	m.f("## Open risks\n\n")
	if len(b.Risks) == 0 {
		m.f("bflint reports nothing on this plan or its SQL, as of %s.\n", asOf)
		return
	}
	m.f("What bflint still reports on this plan and its SQL, as of %s:\n\n", asOf)
	m.f("| rule | severity | where | finding |\n|---|---|---|---|\n")
	for _, r := range b.Risks {
		finding := text(r.Message)
		if r.Help != "" {
			finding += "<br>help: " + text(r.Help)
		}
		m.f("| [%s](%s) %s | %s | %s | %s |\n", r.Code, r.URL, text(r.Name), r.Severity, cell(code(fmt.Sprintf("%s:%d:%d", r.File, r.Line, r.Column))), cell(finding))
	}
	if b.RisksOmitted > 0 {
		m.f("\nAnd %d more %s: `bflint %s` lists every one.\n", b.RisksOmitted, pluralWord(b.RisksOmitted, "finding"), b.Plan)
	}
}

// textEscaper makes plan text safe in Markdown: no character starts
// markup, and line breaks become spaces.
var textEscaper = strings.NewReplacer(
	`\`, `\\`, "`", "\\`", "*", `\*`, "_", `\_`, "[", `\[`, "]", `\]`, "#", `\#`,
	"<", "&lt;", ">", "&gt;", "&", "&amp;", "\r\n", " ", "\n", " ", "\r", " ",
)

func text(s string) string { return textEscaper.Replace(s) }

// cell keeps rendered text inside a table cell: a pipe would end it.
func cell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

// code is s as a code span, whatever backticks it holds.
func code(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if s == "" {
		return ""
	}
	fence := "`"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") || len(fence) > 1 {
		return fence + " " + s + " " + fence
	}
	return fence + s + fence
}

func codes(items []string) string {
	out := make([]string, len(items))
	for i, s := range items {
		out[i] = code(s)
	}
	return strings.Join(out, ", ")
}

// pluralWord is word for n things.
func pluralWord(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// grainly names a partition of each grain.
var grainly = map[string]string{"hour": "hourly", "day": "daily", "week": "weekly", "month": "monthly"}

// valueOr renders a plan value, or says which key would hold it.
func valueOr(v, key string, render func(string) string) string {
	if v == "" {
		return "not stated (" + code(key) + ")"
	}
	return render(v)
}
