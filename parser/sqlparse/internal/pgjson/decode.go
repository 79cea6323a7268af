package pgjson

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"unsafe"

	pg_query "github.com/pganalyze/pg_query_go/v5"
	"google.golang.org/protobuf/encoding/protowire"
)

// The decoder: pg_query's JSON read straight into protobuf structs through
// the tables, one allocation per node.

// jsonDecoder reads one JSON document.
type jsonDecoder struct {
	root *pbMessage
	data string
	pos  int
	// stack holds the elements of the lists being read, so that each list
	// is allocated once at its final length.
	stack []unsafe.Pointer
	buf   []byte // for unescaping strings
	// ptrs is a chunk of the backing arrays of lists. Chunks serve a
	// single document: arrays shared between trees would tie their lives.
	ptrs []unsafe.Pointer
	// ptrNext is the size of the next chunk, which doubles.
	ptrNext int
	// strs is a chunk of string bytes, like ptrs; strNext is the size of
	// the next one.
	strs    []byte
	strNext int

	// Integers whose value the JSON left out: constants to settle from
	// their literal, array bounds, and how many others.
	consts  []*pg_query.A_Const
	bounds  []*pg_query.Integer
	unknown int

	depth int // of the message being read, 1 for the ParseResult
}

// errTooDeep is a tree nesting messages deeper than protobuf decodes:
// pg_query.Parse fails on it.
var errTooDeep = errors.New("pg_query JSON: messages nest deeper than protobuf's recursion limit")

// Decoders are pooled for their buffers, which hold nothing of the tree
// between documents.
var jsonDecoders sync.Pool

func newJSONDecoder(data string) (*jsonDecoder, error) {
	root, err := parseResultTable()
	if err != nil {
		return nil, err
	}
	d, _ := jsonDecoders.Get().(*jsonDecoder)
	if d == nil {
		d = &jsonDecoder{root: root}
	}
	d.data = data
	d.ptrNext = ptrFirst
	// Strings make up about a tenth of a document.
	d.strNext = min(max(len(data)/16, strFirst), strLast)
	return d, nil
}

// release returns d to the pool, dropping what it holds of the tree.
func (d *jsonDecoder) release() {
	clear(d.stack)
	clear(d.consts)
	clear(d.bounds)
	*d = jsonDecoder{root: d.root, stack: d.stack[:0], buf: d.buf[:0], consts: d.consts[:0], bounds: d.bounds[:0]}
	jsonDecoders.Put(d)
}

// The chunks of list arrays start at ptrFirst pointers and double up to
// ptrLast; a list longer than a quarter of that gets an array of its own.
const (
	ptrFirst = 16
	ptrLast  = 512
)

// String chunks start at strFirst bytes or a share of the document, and
// double up to strLast.
const (
	strFirst = 64
	strLast  = 16 << 10
)

// keep copies s, as str returned it, into the document's string chunks.
// A substring would keep the whole document alive as long as the tree,
// and the document is about eight times the size of its strings.
func (d *jsonDecoder) keep(s string) string {
	if s == "" {
		return ""
	}
	if len(s) > cap(d.strs)-len(d.strs) {
		size := max(d.strNext, len(s))
		d.strs = make([]byte, 0, size)
		d.strNext = min(2*size, strLast)
	}
	off := len(d.strs)
	d.strs = append(d.strs, s...)
	// The bytes are never written again: only appended after.
	return unsafe.String(&d.strs[off], len(s))
}

// pointers returns a slice of n nil pointers, with no room to append.
func (d *jsonDecoder) pointers(n int) []unsafe.Pointer {
	if n > ptrLast/4 {
		return make([]unsafe.Pointer, n)
	}
	if n > len(d.ptrs) {
		size := max(d.ptrNext, n)
		d.ptrs = make([]unsafe.Pointer, size)
		d.ptrNext = min(2*size, ptrLast)
	}
	s := d.ptrs[:n:n]
	d.ptrs = d.ptrs[n:]
	return s
}

// decodeError is malformed JSON, or JSON that does not fit the protobuf
// messages.
type decodeError struct {
	off int
	msg string
}

func (e *decodeError) Error() string {
	return fmt.Sprintf("pg_query JSON at offset %d: %s", e.off, e.msg)
}

func (d *jsonDecoder) fail(format string, args ...any) error {
	return &decodeError{d.pos, fmt.Sprintf(format, args...)}
}

// unexpected reports the byte at the current position.
func (d *jsonDecoder) unexpected(want string) error {
	if d.pos >= len(d.data) {
		return d.fail("unexpected end, want %s", want)
	}
	return d.fail("unexpected %q, want %s", d.data[d.pos], want)
}

func (d *jsonDecoder) parseResult() (*pg_query.ParseResult, error) {
	res := new(pg_query.ParseResult)
	if d.ws() != '{' {
		return nil, d.unexpected("'{'")
	}
	if err := d.object(d.root, unsafe.Pointer(res)); err != nil {
		return nil, err
	}
	if d.ws(); d.pos < len(d.data) {
		return nil, d.fail("data after the document")
	}
	return res, nil
}

// ws skips white space and returns the next byte, 0 at the end.
func (d *jsonDecoder) ws() byte {
	// pg_query writes no blanks: make that case cheap.
	if d.pos < len(d.data) && d.data[d.pos] > ' ' {
		return d.data[d.pos]
	}
	for d.pos < len(d.data) {
		switch c := d.data[d.pos]; c {
		case ' ', '\t', '\n', '\r':
			d.pos++
		default:
			return c
		}
	}
	return 0
}

// object reads an object, at its '{', into the message m at p.
func (d *jsonDecoder) object(m *pbMessage, p unsafe.Pointer) error {
	if d.depth++; d.depth > protowire.DefaultRecursionLimit {
		return errTooDeep
	}
	d.pos++
	next := 0 // the field expected next: keys come in proto order
	if d.ws() == '}' {
		d.pos++
		d.finish(m, p)
		d.depth--
		return nil
	}
	for {
		f, err := d.key(m, next)
		if err != nil {
			return err
		}
		next = f.index + 1
		if f.member != nil {
			err = d.member(f, p)
		} else if f.list {
			err = d.list(f, unsafe.Add(p, f.offset))
		} else {
			err = d.value(f, unsafe.Add(p, f.offset))
		}
		if err != nil {
			return err
		}
		switch d.ws() {
		case ',':
			d.pos++
			continue
		case '}':
			d.pos++
			d.finish(m, p)
			d.depth--
			return nil
		}
		return d.unexpected("',' or '}'")
	}
}

// key reads an object key of message m, and the colon after it. Keys
// usually come in proto order, so the fields from next on are tried first,
// right on the document.
func (d *jsonDecoder) key(m *pbMessage, next int) (*pbField, error) {
	if d.ws() != '"' {
		return nil, d.unexpected("a key")
	}
	rest := d.data[d.pos+1:]
	if !m.node {
		for _, f := range m.fields[min(next, len(m.fields)):] {
			if n := len(f.json); len(rest) > n && rest[n] == '"' && rest[:n] == f.json {
				d.pos += n + 2
				return f, d.colon()
			}
		}
	}
	// Hash the key while looking for its end; a key with escapes goes the
	// slow way.
	h := uint32(fnvBasis)
	for i := 0; i < len(rest); i++ {
		c := rest[i]
		if c == '"' {
			key := rest[:i]
			f := m.names.find(key, h)
			if f == nil {
				return nil, d.fail("%s has no field %q", m.typ, key)
			}
			d.pos += i + 2
			return f, d.colon()
		}
		if c == '\\' {
			break
		}
		h = (h ^ uint32(c)) * fnvPrime
	}
	key, err := d.str()
	if err != nil {
		return nil, err
	}
	f := m.names.find(key, fnv(key))
	if f == nil {
		return nil, d.fail("%s has no field %q", m.typ, key)
	}
	return f, d.colon()
}

// colon reads the colon after a key.
func (d *jsonDecoder) colon() error {
	if d.ws() != ':' {
		return d.unexpected("':'")
	}
	d.pos++
	d.ws()
	return nil
}

// fieldNames finds the fields of a message by name, like a map but without
// hashing the key a second time.
type fieldNames struct {
	mask  uint32
	slots []nameSlot
}

type nameSlot struct {
	name string
	f    *pbField
}

const (
	fnvBasis = 2166136261
	fnvPrime = 16777619
)

func fnv(s string) uint32 {
	h := uint32(fnvBasis)
	for i := 0; i < len(s); i++ {
		h = (h ^ uint32(s[i])) * fnvPrime
	}
	return h
}

func newFieldNames(fields []*pbField) fieldNames {
	size := 4
	for size < 4*len(fields) {
		size *= 2
	}
	n := fieldNames{mask: uint32(size - 1), slots: make([]nameSlot, size)}
	for _, f := range fields {
		n.add(f.json, f)
		if f.name != f.json {
			n.add(f.name, f)
		}
	}
	return n
}

func (n *fieldNames) add(name string, f *pbField) {
	i := fnv(name) & n.mask
	for n.slots[i].f != nil {
		i = (i + 1) & n.mask
	}
	n.slots[i] = nameSlot{name, f}
}

// find returns the field named key, whose hash is h, or nil.
func (n *fieldNames) find(key string, h uint32) *pbField {
	for i := h & n.mask; ; i = (i + 1) & n.mask {
		s := &n.slots[i]
		if s.f == nil || s.name == key {
			return s.f
		}
	}
}

// finish notes an Integer whose value the JSON left out.
func (d *jsonDecoder) finish(m *pbMessage, p unsafe.Pointer) {
	switch m.hook {
	case hookInteger:
		if (*pg_query.Integer)(p).Ival == 0 {
			d.unknown++
		}
	case hookAConst:
		c := (*pg_query.A_Const)(p)
		if v, ok := c.Val.(*pg_query.A_Const_Ival); ok && v.Ival != nil && v.Ival.Ival == 0 {
			d.unknown--
			d.consts = append(d.consts, c)
		}
	case hookTypeName:
		for _, n := range (*pg_query.TypeName)(p).ArrayBounds {
			if v, ok := n.Node.(*pg_query.Node_Integer); ok && v.Integer.Ival == 0 {
				d.unknown--
				d.bounds = append(d.bounds, v.Integer)
			}
		}
	}
}

// member reads the value of oneof member f into the message at p.
func (d *jsonDecoder) member(f *pbField, p unsafe.Pointer) error {
	mem := f.member
	slot := (*ifaceWords)(unsafe.Add(p, mem.iface))
	if slot.tab != nil {
		return d.fail("a second member of a oneof: %q", f.json)
	}
	if d.peekNull() {
		return nil
	}
	var w unsafe.Pointer
	if f.kind == kMessage {
		if d.peek() != '{' {
			return d.unexpected("'{'")
		}
		block := mem.newBlock()
		w = block
		msg := unsafe.Add(block, mem.msgOff)
		*(*unsafe.Pointer)(unsafe.Add(w, f.offset)) = msg
		if err := d.object(f.msg, msg); err != nil {
			return err
		}
	} else {
		w = reflect.New(mem.wrapper).UnsafePointer()
		if err := d.scalar(f, unsafe.Add(w, f.offset)); err != nil {
			return err
		}
	}
	*slot = ifaceWords{mem.tab, w}
	return nil
}

// node reads, at its '{', a message that is a single oneof, allocating it
// together with its member.
func (d *jsonDecoder) node(m *pbMessage) (unsafe.Pointer, error) {
	start := d.pos
	d.pos++
	if d.ws() == '}' {
		if d.depth >= protowire.DefaultRecursionLimit {
			return nil, errTooDeep
		}
		d.pos++
		p := reflect.New(m.typ).UnsafePointer()
		d.finish(m, p)
		return p, nil
	}
	f, err := d.key(m, 0)
	if err != nil {
		return nil, err
	}
	if f.kind != kMessage || f.list || d.peekNull() {
		// Not the common shape: read it as any other message.
		d.pos = start
		p := reflect.New(m.typ).UnsafePointer()
		return p, d.object(m, p)
	}
	if d.peek() != '{' {
		return nil, d.unexpected("'{'")
	}
	// The node is a level of its own, as in protobuf.
	if d.depth++; d.depth > protowire.DefaultRecursionLimit {
		return nil, errTooDeep
	}
	mem := f.member
	block := mem.newNodeBlock()
	w := unsafe.Add(block, mem.nodeWrapOff)
	msg := unsafe.Add(block, mem.nodeMsgOff)
	*(*unsafe.Pointer)(unsafe.Add(w, f.offset)) = msg
	*(*ifaceWords)(unsafe.Add(block, mem.iface)) = ifaceWords{mem.tab, w}
	if err := d.object(f.msg, msg); err != nil {
		return nil, err
	}
	switch d.ws() {
	case '}':
		d.pos++
		d.finish(m, block)
		d.depth--
		return block, nil
	case ',':
		return nil, d.fail("a second member of a oneof in %s", m.typ)
	}
	return nil, d.unexpected("'}'")
}

// peek returns the byte at the current position, 0 at the end.
func (d *jsonDecoder) peek() byte {
	if d.pos < len(d.data) {
		return d.data[d.pos]
	}
	return 0
}

// peekNull consumes a null and reports whether there was one.
func (d *jsonDecoder) peekNull() bool {
	if strings.HasPrefix(d.data[d.pos:], "null") {
		d.pos += 4
		return true
	}
	return false
}

// messagePtr reads a message value, at its '{', into a new message.
func (d *jsonDecoder) messagePtr(m *pbMessage) (unsafe.Pointer, error) {
	if d.ws() != '{' {
		return nil, d.unexpected("'{'")
	}
	if m.node {
		return d.node(m)
	}
	p := reflect.New(m.typ).UnsafePointer()
	return p, d.object(m, p)
}

// value reads a single value of field f into p; null leaves it unset.
func (d *jsonDecoder) value(f *pbField, p unsafe.Pointer) error {
	if d.peekNull() {
		return nil
	}
	if f.kind == kMessage {
		v, err := d.messagePtr(f.msg)
		if err != nil {
			return err
		}
		*(*unsafe.Pointer)(p) = v
		return nil
	}
	return d.scalar(f, p)
}

// list reads an array of field f into the slice at p.
func (d *jsonDecoder) list(f *pbField, p unsafe.Pointer) error {
	if d.peekNull() {
		return nil
	}
	if d.peek() != '[' {
		return d.unexpected("'['")
	}
	d.pos++
	if d.ws() == ']' {
		d.pos++
		return nil
	}
	if f.kind != kMessage {
		return d.scalarList(f, p)
	}
	start := len(d.stack)
	for {
		v, err := d.messagePtr(f.msg)
		if err != nil {
			return err
		}
		d.stack = append(d.stack, v)
		more, err := d.nextElement()
		if err != nil {
			return err
		}
		if !more {
			break
		}
	}
	// Every []*T has the layout of []unsafe.Pointer, and a slice made so
	// holds pointers for the collector.
	s := d.pointers(len(d.stack) - start)
	copy(s, d.stack[start:])
	clear(d.stack[start:])
	d.stack = d.stack[:start]
	*(*[]unsafe.Pointer)(p) = s
	return nil
}

// nextElement reads what follows an element of an array: true after a
// ',' (another element follows), false after the closing ']'.
func (d *jsonDecoder) nextElement() (bool, error) {
	switch d.ws() {
	case ',':
		d.pos++
		d.ws()
		return true, nil
	case ']':
		d.pos++
		return false, nil
	}
	return false, d.unexpected("',' or ']'")
}

// scalarList reads the elements of an array of scalars, after its '['.
// pg_query writes none in parse trees, so it goes through reflect.
func (d *jsonDecoder) scalarList(f *pbField, p unsafe.Pointer) error {
	s := reflect.NewAt(reflect.SliceOf(f.elem), p).Elem()
	e := reflect.New(f.elem)
	for {
		e.Elem().SetZero()
		if err := d.scalar(f, e.UnsafePointer()); err != nil {
			return err
		}
		s.Set(reflect.Append(s, e.Elem()))
		if more, err := d.nextElement(); err != nil || !more {
			return err
		}
	}
}

// scalar reads a value of a scalar field into p.
func (d *jsonDecoder) scalar(f *pbField, p unsafe.Pointer) error {
	switch f.kind {
	case kString:
		if d.peek() != '"' {
			return d.unexpected("a string")
		}
		s, err := d.str()
		*(*string)(p) = d.keep(s)
		return err
	case kBool:
		switch {
		case strings.HasPrefix(d.data[d.pos:], "true"):
			*(*bool)(p) = true
			d.pos += 4
		case strings.HasPrefix(d.data[d.pos:], "false"):
			*(*bool)(p) = false
			d.pos += 5
		default:
			return d.unexpected("true or false")
		}
		return nil
	case kEnum:
		if d.peek() == '"' {
			name, err := d.str()
			if err != nil {
				return err
			}
			v, ok := f.enum[name]
			if !ok {
				return d.fail("%q is not a value of %s", name, f.json)
			}
			*(*int32)(p) = v
			return nil
		}
		v, err := d.int(-1<<31, 1<<31-1)
		*(*int32)(p) = int32(v)
		return err
	case kInt32:
		v, err := d.int(-1<<31, 1<<31-1)
		*(*int32)(p) = int32(v)
		return err
	case kInt64:
		v, err := d.int(-1<<63, 1<<63-1)
		*(*int64)(p) = v
		return err
	case kUint32:
		v, err := d.uint(1<<32 - 1)
		*(*uint32)(p) = uint32(v)
		return err
	case kUint64:
		v, err := d.uint(1<<64 - 1)
		*(*uint64)(p) = v
		return err
	case kFloat:
		v, err := d.float(32)
		*(*float32)(p) = float32(v)
		return err
	case kDouble:
		v, err := d.float(64)
		*(*float64)(p) = v
		return err
	}
	return d.fail("field %s of unknown kind", f.json)
}
