package manifest

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"io"
	"math/bits"
	"sync/atomic"
	"unicode/utf8"
)

// The scanner is the fast path of decode: it walks a manifest byte by byte
// through a small window on the file, validates what it skips as strictly
// as encoding/json would, and fills exactly what the stream decoder fills,
// without reflection and without allocating for anything it does not keep.
// It gives up, leaving the stream decoder to read the same bytes again,
// wherever a faithful reading would need encoding/json's own wording or its
// less common rules: any syntax or type error (whose message and offset the
// stream decoder words), a field name that matches only without regard to
// case, a depends_on.nodes list given twice, a key written with escapes, or
// nesting deeper than any manifest has.

// padding is the number of zero bytes after the input in the scanner's
// window. A zero byte is valid nowhere in JSON, so every loop stops at it
// without checking the length first (and refills the window there), and
// the string loop may read whole words.
const padding = 8

// scanWindow is the size of the window on a file: small enough to stay in
// the CPU's cache and to cost few page faults (which, on some virtual
// machines, cost more than reading the file), large enough that reads are
// few. It grows for a string longer than itself.
const scanWindow = 256 << 10

// maxScanDepth is far beyond what dbt writes and well within encoding/json's
// own limit, so that input the stream decoder would refuse for its depth
// never gets this far.
const maxScanDepth = 1000

type scanner struct {
	r     io.Reader // nil once all the input is in buf
	buf   []byte    // the window: input up to end, then padding zero bytes
	end   int
	pos   int
	base  int64 // the offset in the file r starts at
	read  int64 // input bytes read so far
	limit int64
	err   error // what ended the input early: a read error or the limit
	// cancel, when set, ends the input early once it is true.
	cancel   *atomic.Bool
	key      []byte // the key being read, copied out of the window
	depth    int
	b        *builder
	strs     map[string]string // repeated values, stored once
	idSlab   []string          // backing store of the edge lists
	depNodes bool              // see dependsOnField
	sawNodes bool              // a "nodes" section was read
	sawMeta  bool              // a metadata section was read
	// split and guess are set on the first of two scanners that share a
	// file (see scanFile); stopped, once it has reached where the second
	// one started.
	split   *split
	guess   int64
	stopped bool
}

func newScanner(limit int64) *scanner {
	return &scanner{
		limit: limit,
		b:     newBuilder(),
		strs:  map[string]string{},
	}
}

// scanBytes decodes data, whose cap must hold padding zero bytes past its
// len, or reports false when the stream decoder must read it instead.
func scanBytes(data []byte, limit int64) (*Manifest, bool) {
	s := newScanner(limit)
	s.buf, s.end, s.read = data[:len(data)+padding], len(data), int64(len(data))
	return s.run()
}

// scanReader decodes what r yields; false with a nil error leaves the
// input to the stream decoder.
func scanReader(r io.Reader, limit int64) (*Manifest, bool, error) {
	s := newScanner(limit)
	s.r, s.buf = r, make([]byte, padding+scanWindow)
	m, ok := s.run()
	if s.err != nil && !errors.Is(s.err, errTooLarge) {
		return nil, false, s.err
	}
	return m, ok, nil
}

func (s *scanner) run() (*Manifest, bool) {
	if !s.manifest() || !s.sawNodes || s.err != nil || s.read > s.limit {
		return nil, false
	}
	s.b.build()
	return s.b.m, true
}

// offset is the position in the file of the byte at s.pos.
func (s *scanner) offset() int64 { return s.base + s.read - int64(s.end) + int64(s.pos) }

// fill moves the input from keep on to the start of the window and reads
// more after it, growing the window when what is kept fills half of it.
// Positions in the window move back by keep: fill adjusts pos, callers
// adjust those they hold. It reports whether any input was added.
func (s *scanner) fill(keep int) bool {
	if s.cancel != nil && s.cancel.Load() {
		s.r, s.err = nil, errCanceled
	}
	if s.r == nil {
		return false
	}
	kept := copy(s.buf, s.buf[keep:s.end])
	s.pos -= keep
	s.end = kept
	if room := len(s.buf) - padding - kept; room < (len(s.buf)-padding)/2 {
		grown := make([]byte, 2*len(s.buf))
		copy(grown, s.buf[:kept])
		s.buf = grown
	}
	for {
		n, err := s.r.Read(s.buf[s.end : len(s.buf)-padding])
		s.end += n
		s.read += int64(n)
		switch {
		case s.read > s.limit:
			s.r, s.err = nil, errTooLarge
		case err == io.EOF:
			s.r = nil
		case err != nil:
			s.r, s.err = nil, err
		}
		// A reader may use all of the slice it is given as scratch.
		clear(s.buf[s.end : s.end+padding])
		if n > 0 || s.r == nil {
			return s.end > kept
		}
	}
}

// ensure makes n bytes from pos available, as far as the input has them.
func (s *scanner) ensure(n int) {
	for s.end-s.pos < n && s.fill(s.pos) {
	}
}

func (s *scanner) manifest() bool {
	if s.ws() != '{' {
		return false
	}
	return s.object(s.topLevel) && (s.stopped || s.ws() == 0 && s.pos == s.end)
}

func (s *scanner) topLevel(key []byte) bool {
	switch k := string(key); {
	case k == "metadata":
		return s.metadata()
	case nodeSections[k]:
		s.sawNodes = s.sawNodes || k == "nodes"
		return s.section()
	case k == "child_map":
		return s.edges(&s.b.childMap)
	case k == "parent_map":
		return s.edges(&s.b.parentMap)
	}
	return s.skip()
}

// ws skips whitespace and returns the byte after it, 0 at the end.
func (s *scanner) ws() byte {
	for {
		switch c := s.buf[s.pos]; c {
		case ' ', '\n', '\r', '\t':
			s.pos++
		case 0:
			if s.pos < s.end || !s.fill(s.pos) {
				return 0
			}
		default:
			return c
		}
	}
}

// object walks the object at s.pos, calling value for each key with s.pos
// at the key's value; value must consume it, and may use key only until
// then. Keys written with escapes are refused: decoded, they might name a
// field.
func (s *scanner) object(value func(key []byte) bool) bool {
	empty, ok := s.open()
	return ok && (empty || s.members(value, nil))
}

// open consumes the brace that opens an object, and the whole object when
// it is empty.
func (s *scanner) open() (empty, ok bool) {
	s.pos++
	if s.depth++; s.depth > maxScanDepth {
		return false, false
	}
	if s.ws() == '}' {
		s.pos++
		s.depth--
		return true, true
	}
	return false, true
}

// members reads an object's members from a key on, and its closing brace.
// boundary, when set, is asked before each key whether to stop there,
// which leaves s.stopped set and the rest of the input unread.
func (s *scanner) members(value func(key []byte) bool, boundary func() bool) bool {
	for {
		if s.ws() != '"' {
			return false
		}
		if boundary != nil && boundary() {
			s.stopped = true
			return true
		}
		start, escaped, ok := s.skipString()
		if !ok || escaped {
			return false
		}
		s.key = append(s.key[:0], s.buf[start+1:s.pos-1]...)
		if s.ws() != ':' {
			return false
		}
		s.pos++
		s.ws()
		if !value(s.key) {
			return false
		}
		if s.stopped {
			return true
		}
		c := s.ws()
		s.pos++
		switch c {
		case ',':
		case '}':
			s.depth--
			return true
		default:
			return false
		}
	}
}

// array walks the array at s.pos, calling value with s.pos at each element;
// value must consume it.
func (s *scanner) array(value func() bool) bool {
	s.pos++
	if s.depth++; s.depth > maxScanDepth {
		return false
	}
	if s.ws() == ']' {
		s.pos++
		s.depth--
		return true
	}
	for {
		if !value() {
			return false
		}
		c := s.ws()
		s.pos++
		switch c {
		case ',':
			s.ws()
		case ']':
			s.depth--
			return true
		default:
			return false
		}
	}
}

// skip validates and consumes the value at s.pos. It has its own loops
// rather than object's and array's callbacks: most of a manifest is
// skipped.
func (s *scanner) skip() bool {
	switch s.buf[s.pos] {
	case '"':
		_, _, ok := s.skipString()
		return ok
	case '{':
		return s.skipObject()
	case '[':
		return s.skipArray()
	case 't':
		return s.literal("true")
	case 'f':
		return s.literal("false")
	case 'n':
		return s.literal("null")
	}
	_, ok := s.number()
	return ok
}

func (s *scanner) skipObject() bool {
	s.pos++
	if s.depth++; s.depth > maxScanDepth {
		return false
	}
	c := s.ws()
	if c == '}' {
		s.pos++
		s.depth--
		return true
	}
	for {
		if c != '"' {
			return false
		}
		if _, _, ok := s.skipString(); !ok || s.ws() != ':' {
			return false
		}
		s.pos++
		s.ws()
		if !s.skip() {
			return false
		}
		c = s.ws()
		s.pos++
		switch c {
		case ',':
			c = s.ws()
		case '}':
			s.depth--
			return true
		default:
			return false
		}
	}
}

func (s *scanner) skipArray() bool {
	s.pos++
	if s.depth++; s.depth > maxScanDepth {
		return false
	}
	if s.ws() == ']' {
		s.pos++
		s.depth--
		return true
	}
	for {
		if !s.skip() {
			return false
		}
		c := s.ws()
		s.pos++
		switch c {
		case ',':
			s.ws()
		case ']':
			s.depth--
			return true
		default:
			return false
		}
	}
}

func (s *scanner) literal(word string) bool {
	s.ensure(len(word))
	if !bytes.HasPrefix(s.buf[s.pos:s.end], []byte(word)) {
		return false
	}
	s.pos += len(word)
	return true
}

// null consumes a null if one is at s.pos.
func (s *scanner) null() bool { return s.buf[s.pos] == 'n' && s.literal("null") }

// number consumes a number in JSON's grammar and returns where it starts.
func (s *scanner) number() (start int, ok bool) {
	for {
		end, ok := numberEnd(s.buf, s.pos)
		// Stopped by the end of the window, the number may go on.
		if end == s.end && s.fill(s.pos) {
			continue
		}
		if !ok {
			return 0, false
		}
		start, s.pos = s.pos, end
		return start, true
	}
}

// numberEnd returns where the number at i in d ends, or where it breaks
// JSON's grammar. d must end with a byte that is not part of a number.
func numberEnd(d []byte, i int) (int, bool) {
	if d[i] == '-' {
		i++
	}
	switch {
	case d[i] == '0':
		i++
	case '1' <= d[i] && d[i] <= '9':
		for i++; isDigit(d[i]); i++ {
		}
	default:
		return i, false
	}
	if d[i] == '.' {
		i++
		if !isDigit(d[i]) {
			return i, false
		}
		for i++; isDigit(d[i]); i++ {
		}
	}
	if d[i] == 'e' || d[i] == 'E' {
		i++
		if d[i] == '+' || d[i] == '-' {
			i++
		}
		if !isDigit(d[i]) {
			return i, false
		}
		for i++; isDigit(d[i]); i++ {
		}
	}
	return i, true
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// stringStop marks, in the high bit of each byte, the bytes of w that end
// a run of plain string content: a quote, a backslash or a control
// character. Only the lowest mark is exact (a borrow may set the ones above
// it), and it is the only one used.
func stringStop(w uint64) uint64 {
	quote := w ^ (ones * '"')
	backslash := w ^ (ones * '\\')
	return ((quote-ones)&^quote | (backslash-ones)&^backslash | (w-ones*0x20)&^w) & highs
}

// skipString consumes the string at s.pos, eight bytes at a time between
// escapes, and returns where its opening quote now is and whether it holds
// an escape. encoding/json accepts any byte from 0x20 up inside a string,
// invalid UTF-8 included, and so does this.
func (s *scanner) skipString() (start int, escaped, ok bool) {
	start = s.pos
	i := start + 1
	for {
		d := s.buf
		for {
			if stop := stringStop(binary.LittleEndian.Uint64(d[i:])); stop != 0 {
				i += bits.TrailingZeros64(stop) >> 3
				break
			}
			i += 8
		}
		switch d[i] {
		case '"':
			s.pos = i + 1
			return start, escaped, true
		case '\\':
			// An escape cut by the end of the window is read again.
			if i+6 <= s.end || s.r == nil {
				escaped = true
				i++
				switch d[i] {
				case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
					i++
				case 'u':
					for range 4 {
						i++
						if !isHex(d[i]) {
							return 0, false, false
						}
					}
					i++
				default:
					return 0, false, false
				}
				continue
			}
		case 0:
			if i < s.end || s.r == nil {
				return 0, false, false
			}
		default:
			return 0, false, false
		}
		// The string runs past the window: keep it and read on. fill
		// either adds input or ends it, so this cannot repeat forever.
		s.pos = start
		s.fill(start)
		i -= start
		start = s.pos
	}
}

func isHex(c byte) bool {
	return isDigit(c) || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// str consumes the string at s.pos and returns its bytes as they are when
// they need no decoding, else decoded as encoding/json decodes them
// (invalid UTF-8 becomes U+FFFD); plain is false in the second case, where
// raw is no longer the value. raw is valid until the scanner reads on.
func (s *scanner) str() (raw []byte, decoded string, plain bool, ok bool) {
	start, escaped, ok := s.skipString()
	if !ok {
		return nil, "", false, false
	}
	raw = s.buf[start+1 : s.pos-1]
	if !escaped && utf8.Valid(raw) {
		return raw, "", true, true
	}
	decoded, ok = unquote(s.buf[start:s.pos])
	return nil, decoded, false, ok
}

// unquote decodes a JSON string as encoding/json does.
func unquote(quoted []byte) (string, bool) {
	var v string
	err := json.Unmarshal(quoted, &v)
	return v, err == nil
}

// text consumes a string and returns it as a new string.
func (s *scanner) text() (string, bool) {
	raw, decoded, plain, ok := s.str()
	if plain {
		return string(raw), true
	}
	return decoded, ok
}

// shared consumes a string and returns the stored copy of an equal one, for
// values many nodes repeat (resource types, schemas, configurations).
func (s *scanner) shared() (string, bool) {
	raw, decoded, plain, ok := s.str()
	if !plain {
		return decoded, ok
	}
	if v, ok := s.strs[string(raw)]; ok {
		return v, true
	}
	v := string(raw)
	s.strs[v] = v
	return v, true
}

// id consumes a unique_id in an edge list: the defined node's own copy when
// there is one, so that every mention shares it.
func (s *scanner) id() (string, bool) {
	raw, decoded, plain, ok := s.str()
	if !plain {
		return decoded, ok
	}
	return s.internID(raw), true
}

func (s *scanner) internID(raw []byte) string {
	if n := s.b.nodes[string(raw)]; n != nil {
		return n.UniqueID
	}
	if v, ok := s.strs[string(raw)]; ok {
		return v
	}
	v := string(raw)
	s.strs[v] = v
	return v
}

// keyID is id for an edge map's key, which object has already consumed.
func (s *scanner) keyID(key []byte) (string, bool) {
	if utf8.Valid(key) {
		return s.internID(key), true
	}
	return s.keyText(key)
}

// stringInto stores the string at s.pos in dst. A null leaves dst as it
// was, as encoding/json does for strings; any other kind of value is a type
// error for the stream decoder to word.
func (s *scanner) stringInto(dst *string, read func() (string, bool)) bool {
	switch s.buf[s.pos] {
	case '"':
		v, ok := read()
		*dst = v
		return ok
	case 'n':
		return s.null()
	}
	return false
}

// unknown consumes the value of a key that names no field of a struct with
// the given field names. A key equal to one of them but for case would be
// that field for encoding/json.
func (s *scanner) unknown(key []byte, fields []string) bool {
	folds := false
	for _, c := range key {
		folds = folds || 'A' <= c && c <= 'Z' || c >= utf8.RuneSelf
	}
	if folds {
		for _, f := range fields {
			if bytes.EqualFold(key, []byte(f)) {
				return false
			}
		}
	}
	return s.skip()
}

// structInto walks the object at s.pos into a struct through field, which
// handles each key. A null leaves the struct as it was; a repeated struct
// field merges into it, as encoding/json does.
func (s *scanner) structInto(field func(key []byte) bool) bool {
	switch s.buf[s.pos] {
	case '{':
		return s.object(field)
	case 'n':
		return s.null()
	}
	return false
}
