// Package scratch lends the buffers that reading one SQL file needs only
// while it reads it: token lists, bracket tables, per-token marks. A run
// over thousands of files allocates them about once per worker instead
// of once per file; in spellbook they were a quarter of what a run
// allocated, and each allocation is work for the collector.
package scratch

import "sync"

// Pool lends slices of T. Its zero value is ready to use. T must hold no
// pointers: a lent slice is reused whatever it held.
type Pool[T any] struct {
	mu   sync.Mutex
	free [][]T
}

// Int32s lends the tables kept per token while a file is read
// (sqltext.Table).
var Int32s Pool[int32]

// What a pool keeps is memory the collector cannot reclaim, so it is
// bounded: a few buffers, each of the size a file of some 40 KiB needs
// (99 in 100 SQL files of the development repositories are under 23 KiB).
// A larger file's buffers are left to the collector. With 16 buffers of
// up to 64K elements, the pools held 4 to 8 MiB of spellbook's 40 to 50
// MiB live heap.
const (
	// maxKept is how many buffers a pool keeps: those the workers that
	// read files at once have out.
	maxKept = 8
	// maxLen bounds the buffers a pool keeps, in elements.
	maxLen = 8 << 10
)

// Get returns a zeroed slice of length n, which the caller gives back
// with Put once nothing reads it.
func (p *Pool[T]) Get(n int) []T {
	p.mu.Lock()
	for i, s := range p.free {
		if cap(s) >= n {
			last := len(p.free) - 1
			p.free[i] = p.free[last]
			p.free[last] = nil
			p.free = p.free[:last]
			p.mu.Unlock()
			s = s[:n]
			clear(s)
			return s
		}
	}
	p.mu.Unlock()
	return make([]T, n)
}

// Put gives s back. Neither s nor any slice of its array may be used
// after.
func (p *Pool[T]) Put(s []T) {
	if cap(s) == 0 || cap(s) > maxLen {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.free) < maxKept {
		p.free = append(p.free, s[:0])
	}
}
