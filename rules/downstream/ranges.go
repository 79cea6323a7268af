package downstream

import (
	"fmt"
	"time"

	"github.com/bflint/bflint/parser/window"
	"github.com/bflint/bflint/rules"
)

// derived is the range a node must be rebuilt over when the target is
// corrected over start..end: the target's range widened by the window
// over which the node reads it, along the path ps finds.
type derived struct {
	window   window.Window
	from, to time.Time
}

// rebuildRange reads the window over which id reads the target along ps
// and the range it must then be rebuilt over, up to until (the partitions
// after it are computed later, from corrected rows); ok is false when a
// step's window is not known (a dbt project, a read bflint cannot bound)
// or the node reads the target's partitions one for one.
func rebuildRange(pass *rules.Pass, ps *paths, id string, start, end, until time.Time) (derived, bool) {
	if pass.Unit.DBT == nil || pass.Unit.DBT.Windows == nil {
		return derived{}, false
	}
	w, ok := pass.Unit.DBT.Windows.Along(ps.to(id))
	if !ok || w.IsSame() {
		return derived{}, false
	}
	from, to := w.Affected(start, end)
	if to.After(until) {
		to = until
	}
	if to.Before(from) {
		return derived{}, false
	}
	return derived{window: w, from: from, to: to}, true
}

func (d derived) String() string {
	return fmt.Sprintf("%s..%s (it reads the target over %s for each partition)", d.from.Format(time.DateOnly), d.to.Format(time.DateOnly), d.window)
}

// span is a range of days.
type span struct{ from, to time.Time }

// uncovered returns the parts of want that none of have covers.
func uncovered(want span, have []span) []span {
	gaps := []span{want}
	for _, h := range have {
		var next []span
		for _, g := range gaps {
			if h.to.Before(g.from) || h.from.After(g.to) {
				next = append(next, g)
				continue
			}
			if g.from.Before(h.from) {
				next = append(next, span{g.from, h.from.AddDate(0, 0, -1)})
			}
			if g.to.After(h.to) {
				next = append(next, span{h.to.AddDate(0, 0, 1), g.to})
			}
		}
		gaps = next
	}
	return gaps
}

func (s span) String() string {
	return s.from.Format(time.DateOnly) + ".." + s.to.Format(time.DateOnly)
}
