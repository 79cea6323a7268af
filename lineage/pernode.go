package lineage

import "sync"

// PerNode is a fact of each node read once, for the nodes asked about
// only, from any goroutine: reading one means reading the node's SQL.
type PerNode[T any] struct {
	read  func(id string) T
	mu    sync.Mutex
	cache map[string]T
}

// NewPerNode reads the fact of a node with read.
func NewPerNode[T any](read func(id string) T) *PerNode[T] {
	return &PerNode[T]{read: read, cache: map[string]T{}}
}

// Of returns the fact of node id.
func (p *PerNode[T]) Of(id string) T {
	p.mu.Lock()
	v, done := p.cache[id]
	p.mu.Unlock()
	if !done {
		v = p.read(id)
		p.mu.Lock()
		p.cache[id] = v
		p.mu.Unlock()
	}
	return v
}
