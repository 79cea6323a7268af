package lineage

import "github.com/bflint/bflint/parser/window"

// Windows are the windows over which each node reads its parents (see
// window.Window), read once per node and only for the nodes asked about:
// reading them means parsing the node's SQL.
type Windows struct {
	parents *PerNode[map[string]window.Window]
}

// NewWindows reads windows with read, which returns how the node id reads
// each parent it can bound, by parent id.
func NewWindows(read func(id string) map[string]window.Window) *Windows {
	return &Windows{parents: NewPerNode(read)}
}

// Of returns the window over which child reads parent; ok is false when
// it is not known.
func (w *Windows) Of(child, parent string) (window.Window, bool) {
	if w == nil {
		return window.Window{}, false
	}
	win, ok := w.parents.Of(child)[parent]
	return win, ok
}

// Along composes the windows of a path, from the node corrected to a node
// derived from it (each node reads the one before it): the window of the
// first node's partitions the last one reads. ok is false when one step
// is not known.
func (w *Windows) Along(path []string) (window.Window, bool) {
	total := window.Same
	for i := 1; i < len(path); i++ {
		step, ok := w.Of(path[i], path[i-1])
		if !ok {
			return window.Window{}, false
		}
		total = total.Then(step)
	}
	return total, true
}
