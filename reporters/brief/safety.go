package brief

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/bflint/bflint/parser/bqetl"
	"github.com/bflint/bflint/parser/plan"
)

// Safety is how the run is made safe before anything is published. A nil
// part is one the plan does not answer.
type Safety struct {
	Rerun   *Rerun   `json:"rerun"`
	Staging *Staging `json:"staging"`
	Run     string   `json:"run,omitempty"` // run.command
	Compute *Compute `json:"compute"`
	Checks  []Check  `json:"checks"`
	Trial   string   `json:"trial,omitempty"`
	// Unrecorded names what the plan's format has no place for, which a
	// reviewer has to check elsewhere.
	Unrecorded []string `json:"unrecorded,omitempty"`
}

// Rerun is the answer to "is a re-run safe".
type Rerun struct {
	Write           string   `json:"write,omitempty"`
	Key             []string `json:"key,omitempty"`
	UniquenessCheck string   `json:"uniqueness_check,omitempty"`
	// TestedOn is the partition run twice against a populated copy, ""
	// when the plan records no such test; Identical its outcome.
	TestedOn  string `json:"tested_on,omitempty"`
	Identical bool   `json:"identical"`
}

// Staging is where the recompute writes before anything is published.
type Staging struct {
	Relation string `json:"relation,omitempty"`
	Build    string `json:"build,omitempty"`
}

// Compute is where the recompute runs.
type Compute struct {
	Environment    string `json:"environment,omitempty"`
	MaxConcurrency int    `json:"max_concurrency,omitempty"`
	Window         string `json:"window,omitempty"`
}

// Check is one validation query with its pass criterion.
type Check struct {
	Name    string  `json:"name"`
	SQL     string  `json:"sql,omitempty"`
	Pass    string  `json:"pass,omitempty"`
	Control *Period `json:"control,omitempty"`
	// Open are the codes of findings on the check's pass criterion.
	Open []string `json:"open,omitempty"`
}

// Period is a span of partitions, such as a control period.
type Period struct {
	Start string `json:"start"`
	End   string `json:"end"`
}

// Undo is how the publish is reversed.
type Undo struct {
	Mechanism     string `json:"mechanism,omitempty"`
	Location      string `json:"location,omitempty"`
	RetainedUntil string `json:"retained_until,omitempty"`
	RestorableBy  string `json:"restorable_by,omitempty"`
	RestoreTime   string `json:"restore_time,omitempty"`
	Capture       string `json:"capture,omitempty"`
	SQL           string `json:"sql,omitempty"`
	Tested        bool   `json:"tested"`
}

func safety(p *plan.Plan) *Safety {
	s := &Safety{Checks: []Check{}}
	if r := p.Rerun; r != nil {
		s.Rerun = &Rerun{Write: answer(r.Write.V), Key: r.Key.Values(), UniquenessCheck: answer(r.UniquenessCheck.V)}
		if t := r.Tested; t != nil {
			s.Rerun.TestedOn, s.Rerun.Identical = answer(t.Partition.Raw), t.Identical.V
		}
	}
	if st := p.Staging; st != nil {
		s.Staging = &Staging{Relation: answer(st.Relation.V), Build: answer(st.Build.V)}
	}
	if r := p.Run; r != nil {
		s.Run = oneLine(answer(r.Command.V))
	}
	if c := p.Compute; c != nil {
		s.Compute = &Compute{Environment: answer(c.Environment.V), MaxConcurrency: c.MaxConcurrency.V, Window: answer(c.Window.V)}
	}
	if v := p.Validation; v != nil {
		for _, c := range v.Checks {
			check := Check{Name: answer(c.Name.V), SQL: answer(c.SQL.V), Pass: answer(c.Pass.V)}
			if c.Control != nil {
				check.Control = &Period{Start: answer(c.Control.Start.Raw), End: answer(c.Control.End.Raw)}
			}
			s.Checks = append(s.Checks, check)
		}
	}
	if t := p.Trial; t != nil {
		s.Trial = answer(t.Partition.Raw)
	}
	return s
}

func undo(p *plan.Plan) *Undo {
	r := p.Rollback
	if r == nil {
		return nil
	}
	return &Undo{Mechanism: answer(r.Mechanism.V), Location: answer(r.Location.V), RetainedUntil: answer(r.RetainedUntil.Raw), RestorableBy: answer(r.RestorableBy.V),
		RestoreTime: answer(r.RestoreTime.V), Capture: answer(r.Capture.V), SQL: answer(r.SQL.V), Tested: r.Tested.V}
}

// entrySafety is what bqetl does for every entry: it runs the query for
// each date into a staging table no consumer reads.
func entrySafety(pl *bqetl.Planned) *Safety {
	s := &Safety{Checks: []Check{}, Staging: &Staging{Relation: pl.Staging},
		Unrecorded: []string{"a re-run test", "validation queries with pass criteria", "a trial partition", "where the compute runs"}}
	if q := pl.Entry.CustomQueryPath.V; q != "" {
		s.Staging.Build = q
	}
	return s
}

// entryUndo is the clone bqetl takes when it completes an entry.
func entryUndo(pl *bqetl.Planned) *Undo {
	return &Undo{Mechanism: "restore_copy", Location: bqetl.BackupTable(pl.Target, pl.Entry.Date.T)}
}

// headline is the brief's first sentence: the target and the range, what
// consumers will see change, and what does not move.
func headline(b *Brief, p *plan.Plan, entry *bqetl.Planned) string {
	span := "over a range the plan does not state"
	if r := b.Range; r != nil && r.Start != "" && r.End != "" {
		span = fmt.Sprintf("for %s to %s", r.Start, r.End)
	}
	stale := ""
	if slices.ContainsFunc(b.Risks, func(r Risk) bool { return r.Code == "BF801" }) {
		stale = "; bflint finds derived tables that would keep the old numbers (BF801, under open risks)"
	}
	if entry != nil {
		s := fmt.Sprintf("We are backfilling %s %s", b.Target, span)
		switch {
		case strings.EqualFold(b.Status, "Complete"):
			s = fmt.Sprintf("This entry backfilled %s %s (Complete)", b.Target, span)
		case entry.Entry.Cancelled():
			s = fmt.Sprintf("This entry was to backfill %s %s, and was cancelled", b.Target, span)
		}
		if b.Reason != "" {
			s += ": " + strings.TrimSuffix(b.Reason, ".")
		}
		return s + stale + "."
	}
	s := fmt.Sprintf("We are correcting %s %s", cmp.Or(b.Relation, b.Target), span)
	change := ""
	if b.Moves != nil {
		change = strings.TrimSuffix(b.Moves.ExpectedChange, ".")
	}
	if change == "" {
		return s + "; the plan does not say what consumers will see change" + stale + "."
	}
	s += "; " + lowerFirst(change)
	switch outside := reachesOutside(b.Risks); {
	case outside != "":
		s += fmt.Sprintf("; bflint finds SQL that may write outside the range (%s, under open risks)", outside)
	case !saysWhatStays(change):
		s += fmt.Sprintf("; nothing of %s outside the range is recomputed", cmp.Or(b.Relation, b.Target))
	}
	return s + stale + "."
}

// reachesOutside names the open findings that say the plan's SQL writes
// beyond its range, "" when there are none.
func reachesOutside(risks []Risk) string {
	var codes []string
	for _, r := range risks {
		switch r.Code {
		case "BF104", "BF203", "BF302":
			if !slices.Contains(codes, r.Code) {
				codes = append(codes, r.Code)
			}
		}
	}
	return strings.Join(codes, ", ")
}

// saysWhatStays reports whether the plan's own words already say what does
// not move, so the headline does not say it twice.
func saysWhatStays(change string) bool {
	c := strings.ToLower(change)
	for _, phrase := range []string{"not move", "outside", "unchanged", "do not change", "does not change", "stay"} {
		if strings.Contains(c, phrase) {
			return true
		}
	}
	return false
}

// lowerFirst lower-cases the first letter of a sentence joined into the
// headline, unless the word is an acronym or a name in capitals.
func lowerFirst(s string) string {
	if len(s) < 2 || s[0] < 'A' || s[0] > 'Z' || (s[1] >= 'A' && s[1] <= 'Z') {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}
