package manifest

import (
	"bytes"
	"errors"
	"io"
	"os"
	"runtime"
	"strings"
	"sync/atomic"
)

// A large manifest is scanned by two scanners at once, one from the start
// and one from the middle, where JSON gives no way to know what a byte
// belongs to. The second guesses: it starts at the first key after the
// middle that looks like a node's unique_id in a section ("}, "model.x":
// {"), reads on as if it were one, and reads the rest of the manifest. The
// first scanner checks the guess when it gets there: if it is at that very
// key of a section, the second has read exactly what it would have, and
// their results join; if not, the second scanner is stopped and the first
// reads on alone, as if there had been no guess. A wrong guess so costs
// time, never correctness.

// splitMin is the smallest file scanned by two scanners: below it, the
// second one's start costs more than it saves. Tests lower it.
var splitMin int64 = 16 << 20

// guessWindow bounds how far past the middle the second scanner looks for
// a node to start at; past it, the middle is in a section whose entries
// are not nodes (macros, docs), and the first scanner reads alone.
const guessWindow = 4 << 20

// unknownGuess is the first scanner's guess until it gets the second's.
const unknownGuess = -2

var errCanceled = errors.New("scan canceled")

// split is what the two scanners of a file share.
type split struct {
	from  int64      // where the second scanner starts looking
	guess chan int64 // the offset of the key it starts at, -1 for none
	stop  atomic.Bool
}

// scanFile is scanReader for a file of the given size, on two cores when
// the file is large and there are two.
func scanFile(f *os.File, size, limit int64) (*Manifest, bool, error) {
	if size < splitMin || runtime.GOMAXPROCS(0) < 2 {
		return scanReader(f, limit)
	}
	m, ok, _, err := scanSplit(f, size, limit)
	return m, ok, err
}

// scanSplit scans f with two scanners; joined reports whether the second
// one's guess was right and its work used.
func scanSplit(f *os.File, size, limit int64) (m *Manifest, ok, joined bool, err error) {
	sp := &split{from: size / 2, guess: make(chan int64, 1)}
	seconds := make(chan *scanner, 1)
	go func() {
		second := newScanner(limit)
		second.base, second.cancel = sp.from, &sp.stop
		second.r = io.NewSectionReader(f, sp.from, limit+1-sp.from)
		second.buf = make([]byte, padding+scanWindow)
		at := second.startOfNode()
		sp.guess <- at
		if at < 0 || !second.rest() {
			second = nil
		}
		seconds <- second
	}()

	first := newScanner(limit)
	first.r, first.buf = f, make([]byte, padding+scanWindow)
	first.split, first.guess = sp, unknownGuess
	ok = first.manifest()
	if !first.stopped {
		sp.stop.Store(true)
	}
	second := <-seconds
	switch {
	case first.err != nil && !errors.Is(first.err, errTooLarge):
		return nil, false, false, first.err
	case !ok:
		return nil, false, false, nil
	case first.stopped:
		if second == nil || second.err != nil {
			return nil, false, false, nil
		}
		first.join(second)
	case first.read > limit:
		return nil, false, false, nil
	}
	if !first.sawNodes {
		return nil, false, false, nil
	}
	first.b.build()
	return first.b.m, true, first.stopped, nil
}

// atSplit is the first scanner's boundary in a section: whether s.pos is
// the key the second scanner started at. It waits for the second
// scanner's guess once past where that one started looking.
func (s *scanner) atSplit() bool {
	if s.split == nil {
		return false
	}
	at := s.offset()
	if s.guess == unknownGuess {
		if at < s.split.from {
			return false
		}
		s.guess = <-s.split.guess
	}
	switch {
	case s.guess < 0:
	case at == s.guess:
		return true
	case at > s.guess:
		// Passed without meeting it: the guess was wrong.
		s.split.stop.Store(true)
		s.guess = -1
	}
	return false
}

// join adds what the second scanner read, which follows what s read.
func (s *scanner) join(second *scanner) {
	for id, n := range second.b.nodes {
		s.b.nodes[id] = n
	}
	if second.sawMeta {
		*s.b.m = *second.b.m
	}
	s.b.childMap = joinEdges(s.b.childMap, second.b.childMap)
	s.b.parentMap = joinEdges(s.b.parentMap, second.b.parentMap)
	s.sawNodes = s.sawNodes || second.sawNodes
}

// joinEdges is what edges leaves when it reads into, then from.
func joinEdges(into, from map[string][]string) map[string][]string {
	if into == nil {
		return from
	}
	for id, ids := range from {
		into[id] = append(into[id], ids...)
	}
	return into
}

// nodeKinds are the starts of the unique_ids of section entries, which the
// second scanner looks for.
var nodeKinds = []string{Model, Snapshot, Seed, Source, Test, UnitTest, Analysis, Operation, Exposure, Metric, SemanticModel, SavedQuery, Function}

// startOfNode moves to the first key at or after s.base that looks like a
// node's unique_id in a section, and returns its offset; -1 when there is
// none within guessWindow.
func (s *scanner) startOfNode() int64 {
	// A key that straddles the end of the window is looked at again
	// after the move, from this many bytes before the end.
	const overlap = 4 << 10
	for s.read < guessWindow {
		keep := max(0, s.end-overlap)
		s.pos = keep
		if !s.fill(keep) {
			return -1
		}
		for i := 0; ; i++ {
			q := bytes.IndexByte(s.buf[i:s.end], '"')
			if q < 0 {
				break
			}
			i += q
			if s.nodeKeyAt(i) {
				s.pos = i
				return s.offset()
			}
		}
	}
	return -1
}

// nodeKeyAt reports whether the quote at i opens a key that follows a
// closed object and a comma, names a node and holds an object:
// `}, "model.x": {`.
func (s *scanner) nodeKeyAt(i int) bool {
	d := s.buf
	j := i - 1
	for j >= 0 && isSpace(d[j]) {
		j--
	}
	if j < 0 || d[j] != ',' {
		return false
	}
	for j--; j >= 0 && isSpace(d[j]); j-- {
	}
	if j < 0 || d[j] != '}' {
		return false
	}
	end := bytes.IndexByte(d[i+1:s.end], '"')
	if end < 0 {
		return false
	}
	key := string(d[i+1 : i+1+end])
	kind, _, dotted := strings.Cut(key, ".")
	if !dotted || strings.ContainsRune(key, '\\') || !isNodeKind(kind) {
		return false
	}
	k := i + 2 + end
	for isSpace(d[k]) {
		k++
	}
	if d[k] != ':' {
		return false
	}
	for k++; isSpace(d[k]); k++ {
	}
	return d[k] == '{'
}

func isNodeKind(kind string) bool {
	for _, k := range nodeKinds {
		if k == kind {
			return true
		}
	}
	return false
}

func isSpace(c byte) bool { return c == ' ' || c == '\n' || c == '\r' || c == '\t' }

// rest reads on from a section's key as the second scanner: the rest of the
// section, then the rest of the manifest.
func (s *scanner) rest() bool {
	s.depth = 2 // the manifest's object and the section's
	if !s.members(s.entry, nil) {
		return false
	}
	c := s.ws()
	s.pos++
	switch c {
	case ',':
		if !s.members(s.topLevel, nil) {
			return false
		}
	case '}':
		s.depth--
	default:
		return false
	}
	return s.ws() == 0 && s.pos == s.end && s.err == nil
}
