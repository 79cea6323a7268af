package lineage

import "time"

// History is what version control says a tree of definitions held on an
// earlier day: a table created after a correction upstream computed every
// partition it has from corrected rows.
type History interface {
	// DefinedOn reports, for each name of a table or view, whether the
	// tree defined it on the last commit before day. ok is false when the
	// history does not reach back to that day or cannot be read.
	DefinedOn(day time.Time, names []string) (defined map[string]bool, ok bool)
}
