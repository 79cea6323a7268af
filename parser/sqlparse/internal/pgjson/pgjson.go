// Package pgjson parses SQL with pg_query through its JSON output.
package pgjson

// pg_query.Parse has the C library pack the parse tree as protobuf and Go
// unpack it again, which costs about eight times what parsing to JSON does.
// So bflint decodes pg_query's JSON straight into the same protobuf Go
// structs. The decoder is driven by tables built once from the protobuf
// descriptors, and writes fields through unsafe pointers at the offsets
// reflect reports: per node it costs a key lookup and one allocation, where
// proto.Unmarshal spends three.

import (
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"

	pg_query "github.com/pganalyze/pg_query_go/v5"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// Parse parses text like pg_query.Parse, through pg_query's JSON. Its
// errors for invalid SQL are those of pg_query.ParseToJSON (a
// *parser.Error with the cursor position).
//
// The JSON leaves out an Integer's value unless it is positive, so a 0
// cannot be told from a negative number there. Constants carry a location,
// and their literal in text settles it; an array bound without a number is
// -1. Any other Integer the JSON leaves in doubt sends the statement
// through pg_query.Parse instead, as does a constant whose literal is not
// plain, and a tree too deep for protobuf, so that pg_query.Parse's error
// is the one returned.
func Parse(text string) (*pg_query.ParseResult, error) {
	js, err := pg_query.ParseToJSON(text)
	if err != nil {
		return nil, err
	}
	d, err := newJSONDecoder(js)
	if err != nil {
		return nil, err
	}
	defer d.release()
	res, err := d.parseResult()
	if errors.Is(err, errTooDeep) || err == nil && !d.repair(text) {
		return pg_query.Parse(text)
	}
	if err != nil {
		return nil, err
	}
	return res, nil
}

// Prepare builds what parsing needs before its first statement, the
// decoding tables (some 14 ms), so that a caller with other work to do
// first, such as reading files, can have it done alongside.
func Prepare() {
	// A failure to build them is returned by the first parse instead.
	_, _ = parseResultTable()
}

// pbKind is how a field's value is written and stored.
type pbKind uint8

const (
	kBool pbKind = iota
	kInt32
	kInt64
	kUint32
	kUint64
	kFloat
	kDouble
	kString
	kEnum
	kMessage
)

// pbField says how to decode one protobuf field.
type pbField struct {
	json, name string // pg_query writes the JSON name; the proto name is accepted too
	index      int    // in pbMessage.fields
	kind       pbKind
	list       bool
	// offset is where the value lives: in the message, or for a oneof
	// member in its wrapper struct (pg_query.Node_SelectStmt).
	offset uintptr
	msg    *pbMessage       // kMessage
	enum   map[string]int32 // kEnum
	elem   reflect.Type     // the element type of a list of scalars
	member *pbMember        // set for a member of a oneof
}

// pbMember is a field of a oneof. Its value sits in a wrapper struct that the
// message holds through an interface field; the wrapper and its message
// are allocated as one block, and for a node as one block with the node.
type pbMember struct {
	iface   uintptr        // offset of the interface field in the message
	tab     unsafe.Pointer // the interface's type word for the wrapper
	wrapper reflect.Type
	// block holds the wrapper and then the message, at msgOff.
	block  reflect.Type
	msgOff uintptr
	// nodeBlock holds a node, the wrapper at nodeWrapOff and the message
	// at nodeMsgOff, for messages that are a single oneof (pg_query.Node).
	nodeBlock               reflect.Type
	nodeWrapOff, nodeMsgOff uintptr
}

// pbMessage is the decoding table of one message type.
type pbMessage struct {
	typ    reflect.Type
	fields []*pbField // in proto order, which is the order pg_query writes them
	names  fieldNames // JSON and proto names
	// node is set when the message is nothing but one oneof, like
	// pg_query.Node, whose single key names the member.
	node bool
	hook pbHook
}

// pbHook marks the messages whose decoding notes Integers the JSON left in
// doubt.
type pbHook uint8

const (
	hookInteger pbHook = iota + 1
	hookAConst
	hookTypeName
)

// ifaceWords is the layout of a non-empty interface value.
type ifaceWords struct {
	tab, data unsafe.Pointer
}

var pbTables struct {
	once sync.Once
	root *pbMessage
	err  error
}

func parseResultTable() (*pbMessage, error) {
	pbTables.once.Do(func() {
		b := tableBuilder{msgs: map[reflect.Type]*pbMessage{}, enums: map[protoreflect.FullName]map[string]int32{}}
		pbTables.root, pbTables.err = b.message(reflect.TypeFor[pg_query.ParseResult]())
	})
	return pbTables.root, pbTables.err
}

type tableBuilder struct {
	msgs  map[reflect.Type]*pbMessage
	enums map[protoreflect.FullName]map[string]int32
}

// message builds the table of the message with Go struct type t, and of
// every message it refers to.
func (b *tableBuilder) message(t reflect.Type) (*pbMessage, error) {
	if m := b.msgs[t]; m != nil {
		return m, nil
	}
	pm, ok := reflect.New(t).Interface().(proto.Message)
	if !ok {
		return nil, fmt.Errorf("%v is not a protobuf message", t)
	}
	md := pm.ProtoReflect().Descriptor()
	m := &pbMessage{typ: t}
	b.msgs[t] = m
	switch t {
	case reflect.TypeFor[pg_query.Integer]():
		m.hook = hookInteger
	case reflect.TypeFor[pg_query.A_Const]():
		m.hook = hookAConst
	case reflect.TypeFor[pg_query.TypeName]():
		m.hook = hookTypeName
	}

	structFields := map[string]reflect.StructField{}
	for i := range t.NumField() {
		sf := t.Field(i)
		if name, ok := sf.Tag.Lookup("protobuf_oneof"); ok {
			structFields["oneof "+name] = sf
		} else if name := protoTagName(sf.Tag.Get("protobuf")); name != "" {
			structFields[name] = sf
		}
	}

	fds := md.Fields()
	oneofs := 0
	for i := range fds.Len() {
		fd := fds.Get(i)
		if fd.IsMap() {
			return nil, fmt.Errorf("%s: map fields are not supported", fd.FullName())
		}
		f := &pbField{json: fd.JSONName(), name: string(fd.Name()), index: i, list: fd.IsList()}
		var goType reflect.Type // the Go type of the value (of an element for a list)
		if od := fd.ContainingOneof(); od != nil && !od.IsSynthetic() {
			oneofs++
			sf, ok := structFields["oneof "+string(od.Name())]
			if !ok {
				return nil, fmt.Errorf("%s: no Go field for oneof %s", t, od.Name())
			}
			mem, err := newMember(t, sf, fd)
			if err != nil {
				return nil, err
			}
			f.member = mem
			inner := mem.wrapper.Field(0)
			f.offset, goType = inner.Offset, inner.Type
		} else {
			sf, ok := structFields[string(fd.Name())]
			if !ok {
				return nil, fmt.Errorf("%s: no Go field for %s", t, fd.Name())
			}
			f.offset, goType = sf.Offset, sf.Type
			if f.list {
				if goType.Kind() != reflect.Slice {
					return nil, fmt.Errorf("%s.%s: list field of Go type %v", t, fd.Name(), goType)
				}
				goType = goType.Elem()
				f.elem = goType
			}
		}
		if err := b.setKind(f, fd, goType); err != nil {
			return nil, fmt.Errorf("%s.%s: %w", t, fd.Name(), err)
		}
		m.fields = append(m.fields, f)
	}
	m.names = newFieldNames(m.fields)
	m.node = oneofs > 0 && oneofs == fds.Len() && md.Oneofs().Len() == 1
	if m.node {
		for _, f := range m.fields {
			if f.kind != kMessage {
				continue
			}
			mem := f.member
			mem.nodeBlock = reflect.StructOf([]reflect.StructField{
				{Name: "N", Type: t},
				{Name: "W", Type: mem.wrapper},
				{Name: "M", Type: f.msg.typ},
			})
			mem.nodeWrapOff = mem.nodeBlock.Field(1).Offset
			mem.nodeMsgOff = mem.nodeBlock.Field(2).Offset
		}
	}
	return m, nil
}

// setKind fills in how fd's values are read and stored, checking that the
// Go type agrees.
func (b *tableBuilder) setKind(f *pbField, fd protoreflect.FieldDescriptor, goType reflect.Type) error {
	var want reflect.Kind
	switch fd.Kind() {
	case protoreflect.BoolKind:
		f.kind, want = kBool, reflect.Bool
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
		f.kind, want = kInt32, reflect.Int32
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		f.kind, want = kInt64, reflect.Int64
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		f.kind, want = kUint32, reflect.Uint32
	case protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		f.kind, want = kUint64, reflect.Uint64
	case protoreflect.FloatKind:
		f.kind, want = kFloat, reflect.Float32
	case protoreflect.DoubleKind:
		f.kind, want = kDouble, reflect.Float64
	case protoreflect.StringKind:
		f.kind, want = kString, reflect.String
	case protoreflect.EnumKind:
		f.kind, want = kEnum, reflect.Int32
		f.enum = b.enums[fd.Enum().FullName()]
		if f.enum == nil {
			vals := fd.Enum().Values()
			f.enum = make(map[string]int32, vals.Len())
			for i := range vals.Len() {
				v := vals.Get(i)
				f.enum[string(v.Name())] = int32(v.Number())
			}
			b.enums[fd.Enum().FullName()] = f.enum
		}
	case protoreflect.MessageKind:
		f.kind, want = kMessage, reflect.Pointer
		if goType.Kind() != reflect.Pointer || goType.Elem().Kind() != reflect.Struct {
			return fmt.Errorf("message field of Go type %v", goType)
		}
		msg, err := b.message(goType.Elem())
		if err != nil {
			return err
		}
		if msg.typ != goType.Elem() {
			return fmt.Errorf("Go type %v for message %s", goType, fd.Message().FullName())
		}
		f.msg = msg
		if f.member != nil {
			f.member.block = reflect.StructOf([]reflect.StructField{
				{Name: "W", Type: f.member.wrapper},
				{Name: "M", Type: msg.typ},
			})
			f.member.msgOff = f.member.block.Field(1).Offset
		}
	default:
		return fmt.Errorf("%v fields are not supported", fd.Kind())
	}
	if goType.Kind() != want {
		return fmt.Errorf("%v field of Go type %v", fd.Kind(), goType)
	}
	return nil
}

// newMember finds the wrapper type of oneof member fd of the message with
// Go type t by setting it on a fresh message, and reads the interface's type
// word for it.
func newMember(t reflect.Type, oneof reflect.StructField, fd protoreflect.FieldDescriptor) (*pbMember, error) {
	v := reflect.New(t)
	pm := v.Interface().(proto.Message).ProtoReflect()
	pm.Set(fd, pm.NewField(fd))
	fv := v.Elem().FieldByIndex(oneof.Index)
	if fv.Kind() != reflect.Interface || fv.IsNil() || fv.Elem().Kind() != reflect.Pointer {
		return nil, fmt.Errorf("%s: oneof member %s did not set a wrapper", t, fd.Name())
	}
	wrapper := fv.Elem().Type().Elem()
	if wrapper.Kind() != reflect.Struct || wrapper.NumField() != 1 {
		return nil, fmt.Errorf("%s: unexpected wrapper %v for %s", t, wrapper, fd.Name())
	}
	tab := (*ifaceWords)(fv.Addr().UnsafePointer()).tab
	return &pbMember{iface: oneof.Offset, tab: tab, wrapper: wrapper}, nil
}

// protoTagName returns the name= of a protobuf struct tag.
func protoTagName(tag string) string {
	for part := range strings.SplitSeq(tag, ",") {
		if name, ok := strings.CutPrefix(part, "name="); ok {
			return name
		}
	}
	return ""
}

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
		block := reflect.New(mem.block).UnsafePointer()
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
	block := reflect.New(mem.nodeBlock).UnsafePointer()
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
		c := d.ws()
		if c == ',' {
			d.pos++
			d.ws()
			continue
		}
		if c != ']' {
			return d.unexpected("',' or ']'")
		}
		d.pos++
		break
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
		c := d.ws()
		if c == ',' {
			d.pos++
			d.ws()
			continue
		}
		if c != ']' {
			return d.unexpected("',' or ']'")
		}
		d.pos++
		return nil
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

// number returns the text of a number, bare or, as protobuf JSON allows,
// quoted.
func (d *jsonDecoder) number() (string, error) {
	quoted := d.peek() == '"'
	if quoted {
		d.pos++
	}
	start := d.pos
	for d.pos < len(d.data) && isNumberByte(d.data[d.pos]) {
		d.pos++
	}
	s := d.data[start:d.pos]
	if quoted {
		if d.pos >= len(d.data) || d.data[d.pos] != '"' {
			return "", d.unexpected("'\"' after a number")
		}
		d.pos++
	}
	if s == "" {
		return "", d.unexpected("a number")
	}
	return s, nil
}

func isNumberByte(c byte) bool {
	return c >= '0' && c <= '9' || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E'
}

func (d *jsonDecoder) int(lo, hi int64) (int64, error) {
	// Most numbers are short, unquoted locations and lengths.
	start, digits := d.pos, d.pos
	if d.peek() == '-' {
		digits++
	}
	var v int64
	i := digits
	for ; i < len(d.data) && i-digits < 18; i++ {
		c := d.data[i]
		if c < '0' || c > '9' {
			break
		}
		v = v*10 + int64(c-'0')
	}
	if digits > start {
		v = -v
	}
	if i > digits && i-digits < 18 && i < len(d.data) && !isNumberByte(d.data[i]) && v >= lo && v <= hi {
		d.pos = i
		return v, nil
	}
	s, err := d.number()
	if err != nil {
		return 0, err
	}
	v, err = strconv.ParseInt(s, 10, 64)
	if err != nil || v < lo || v > hi {
		d.pos = start
		return 0, d.fail("%q is not an integer in [%d, %d]", s, lo, hi)
	}
	return v, nil
}

func (d *jsonDecoder) uint(hi uint64) (uint64, error) {
	start := d.pos
	s, err := d.number()
	if err != nil {
		return 0, err
	}
	v, err := strconv.ParseUint(s, 10, 64)
	if err != nil || v > hi {
		d.pos = start
		return 0, d.fail("%q is not an integer in [0, %d]", s, hi)
	}
	return v, nil
}

func (d *jsonDecoder) float(bits int) (float64, error) {
	for _, special := range []string{`"NaN"`, `"Infinity"`, `"-Infinity"`} {
		if strings.HasPrefix(d.data[d.pos:], special) {
			d.pos += len(special)
			return strconv.ParseFloat(special[1:len(special)-1], bits)
		}
	}
	start := d.pos
	s, err := d.number()
	if err != nil {
		return 0, err
	}
	v, err := strconv.ParseFloat(s, bits)
	if err != nil {
		d.pos = start
		return 0, d.fail("%q is not a number", s)
	}
	return v, nil
}

// jsonStrClass sorts the bytes of a JSON string: 0 for those the fast path
// copies as they are, 1 for the closing quote, 2 for a backslash, 3 for
// control characters, which JSON forbids, and 4 for the bytes of UTF-8
// sequences, to be checked.
var jsonStrClass = func() (t [256]uint8) {
	t['"'], t['\\'] = 1, 2
	for c := range 0x20 {
		t[c] = 3
	}
	for c := 0x80; c < 0x100; c++ {
		t[c] = 4
	}
	return t
}()

// str reads a string at its opening quote. The result is a substring of
// the document, or with escapes a view of d.buf that the next string
// overwrites: keep it to store it.
func (d *jsonDecoder) str() (string, error) {
	start := d.pos + 1
	ascii := true
	for i := start; i < len(d.data); i++ {
		switch jsonStrClass[d.data[i]] {
		case 0:
			continue
		case 1:
			s := d.data[start:i]
			if !ascii && !utf8.ValidString(s) {
				return "", d.fail("invalid UTF-8 in a string")
			}
			d.pos = i + 1
			return s, nil
		case 2:
			d.pos = i
			return d.unescape(start)
		case 3:
			d.pos = i
			return "", d.fail("control character in a string")
		case 4:
			ascii = false
		}
	}
	d.pos = len(d.data)
	return "", d.fail("unterminated string")
}

// unescape reads the rest of a string with escapes, from the first
// backslash at d.pos; start is where the string's text begins.
func (d *jsonDecoder) unescape(start int) (string, error) {
	b := append(d.buf[:0], d.data[start:d.pos]...)
	for d.pos < len(d.data) {
		c := d.data[d.pos]
		switch jsonStrClass[c] {
		case 1:
			d.pos++
			d.buf = b
			if !utf8.Valid(b) {
				return "", d.fail("invalid UTF-8 in a string")
			}
			return unsafe.String(unsafe.SliceData(b), len(b)), nil
		case 3:
			return "", d.fail("control character in a string")
		case 2:
			if d.pos+1 >= len(d.data) {
				return "", d.fail("unterminated string")
			}
			e := d.data[d.pos+1]
			d.pos += 2
			switch e {
			case '"', '\\', '/':
				b = append(b, e)
			case 'b':
				b = append(b, '\b')
			case 'f':
				b = append(b, '\f')
			case 'n':
				b = append(b, '\n')
			case 'r':
				b = append(b, '\r')
			case 't':
				b = append(b, '\t')
			case 'u':
				r, ok := d.hex4()
				if !ok {
					return "", d.fail("bad \\u escape")
				}
				if utf16.IsSurrogate(r) {
					// Half of a pair is no character; like encoding/json,
					// read it as U+FFFD.
					r2 := rune(utf8.RuneError)
					if strings.HasPrefix(d.data[d.pos:], `\u`) {
						save := d.pos
						d.pos += 2
						if lo, ok := d.hex4(); ok && utf16.DecodeRune(r, lo) != utf8.RuneError {
							r2 = utf16.DecodeRune(r, lo)
						} else {
							d.pos = save
						}
					}
					r = r2
				}
				b = utf8.AppendRune(b, r)
			default:
				return "", d.fail("bad escape \\%c", e)
			}
		default:
			b = append(b, c)
			d.pos++
		}
	}
	return "", d.fail("unterminated string")
}

// hex4 reads the four hex digits of a \u escape.
func (d *jsonDecoder) hex4() (rune, bool) {
	if d.pos+4 > len(d.data) {
		return 0, false
	}
	var r rune
	for _, c := range []byte(d.data[d.pos : d.pos+4]) {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	d.pos += 4
	return r, true
}

// repair restores the Integers the JSON left out, from text; false means
// the tree cannot be trusted and the statement must go through protobuf.
func (d *jsonDecoder) repair(text string) bool {
	if d.unknown != 0 {
		return false
	}
	// An array bound is -1 for [] or ARRAY, and 0 only for a literal
	// [0], which is rare enough to settle by re-parsing.
	if len(d.bounds) > 0 && zeroBound(text) {
		return false
	}
	for _, b := range d.bounds {
		b.Ival = -1
	}
	for _, c := range d.consts {
		v, ok := constAt(text, int(c.Location))
		if !ok {
			return false
		}
		c.Val.(*pg_query.A_Const_Ival).Ival.Ival = v
	}
	return true
}

// zeroBound reports whether text may hold an array bound of 0: a '['
// followed, past blanks and comments, by a '0'.
func zeroBound(text string) bool {
	for i := 0; i < len(text); i++ {
		if text[i] == '[' {
			if j := skipSQLBlank(text, i+1); j < len(text) && text[j] == '0' {
				return true
			}
		}
	}
	return false
}

// constAt reads the integer constant at loc, whose value the JSON says is 0
// or negative. The grammar places such a constant at its literal, or at the
// unary minus folded into it (-1, - (2), - -3), or at the keyword of a
// flag it sets (READ WRITE), which is never negative.
func constAt(text string, loc int) (int32, bool) {
	if loc < 0 || loc >= len(text) {
		return 0, false
	}
	if isSQLIdentStart(text[loc]) {
		return 0, true
	}
	i, neg := loc, false
	if text[i] == '+' {
		i++
	}
	for {
		i = skipSQLBlank(text, i)
		if i < len(text) && text[i] == '-' {
			neg = !neg
			i++
			continue
		}
		if i < len(text) && text[i] == '(' {
			i++
			continue
		}
		break
	}
	mag, ok := intLiteral(text[i:])
	if !ok || mag > 1<<31 {
		return 0, false
	}
	v := int64(mag)
	if neg {
		v = -v
	}
	if v > 0 || v < -1<<31 {
		return 0, false
	}
	return int32(v), true
}

// intLiteral reads a PostgreSQL integer literal at the start of s: decimal,
// 0x, 0o or 0b, with underscores between digits.
func intLiteral(s string) (uint64, bool) {
	base, i := uint64(10), 0
	if len(s) > 2 && s[0] == '0' {
		switch s[1] {
		case 'x', 'X':
			base, i = 16, 2
		case 'o', 'O':
			base, i = 8, 2
		case 'b', 'B':
			base, i = 2, 2
		}
	}
	var v uint64
	digits := 0
	for ; i < len(s); i++ {
		c := s[i]
		var n uint64
		switch {
		case c == '_' && digits > 0 && i+1 < len(s) && s[i+1] != '_':
			continue
		case c >= '0' && c <= '9':
			n = uint64(c - '0')
		case c >= 'a' && c <= 'f':
			n = uint64(c-'a') + 10
		case c >= 'A' && c <= 'F':
			n = uint64(c-'A') + 10
		default:
			n = base
		}
		if n >= base {
			break
		}
		v = v*base + n
		digits++
		if v > 1<<32 {
			return 0, false
		}
	}
	// A fraction, exponent or letter after the digits is another token
	// than the integer literal this must be.
	if digits == 0 || i < len(s) && (s[i] == '.' || isSQLIdentStart(s[i]) || s[i] >= '0' && s[i] <= '9') {
		return 0, false
	}
	return v, true
}

func isSQLIdentStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c >= 0x80
}

// skipSQLBlank skips white space and comments from i.
func skipSQLBlank(text string, i int) int {
	for i < len(text) {
		switch {
		case strings.IndexByte(" \t\n\r\f\v", text[i]) >= 0:
			i++
		case strings.HasPrefix(text[i:], "--"):
			nl := strings.IndexByte(text[i:], '\n')
			if nl < 0 {
				return len(text)
			}
			i += nl + 1
		case strings.HasPrefix(text[i:], "/*"):
			depth := 0
			for i < len(text) {
				if strings.HasPrefix(text[i:], "/*") {
					depth++
					i += 2
				} else if strings.HasPrefix(text[i:], "*/") {
					depth--
					i += 2
					if depth == 0 {
						break
					}
				} else {
					i++
				}
			}
		default:
			return i
		}
	}
	return i
}
