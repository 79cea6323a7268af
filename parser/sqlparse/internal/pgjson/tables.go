package pgjson

import (
	"fmt"
	"reflect"
	"strings"
	"sync"
	"unsafe"

	pg_query "github.com/pganalyze/pg_query_go/v5"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// The decoding tables: one per protobuf message, built once from the
// descriptors, with each field's kind, offset and JSON names.

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
	// block holds the wrapper and then the message, at msgOff;
	// newBlock allocates one (blocks.go).
	block    reflect.Type
	newBlock func() unsafe.Pointer
	msgOff   uintptr
	// nodeBlock holds a node, the wrapper at nodeWrapOff and the message
	// at nodeMsgOff, for messages that are a single oneof (pg_query.Node).
	nodeBlock               reflect.Type
	newNodeBlock            func() unsafe.Pointer
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
			bt, ok := blockTypes[mem.wrapper]
			if !ok {
				return nil, fmt.Errorf("%v: no block type for %v: run go generate ./parser/sqlparse/internal/pgjson", t, mem.wrapper)
			}
			mem.nodeBlock, mem.newNodeBlock = bt.node()
			if mem.nodeBlock.Field(0).Type != t || mem.nodeBlock.Field(1).Type != mem.wrapper || mem.nodeBlock.Field(2).Type != f.msg.typ {
				return nil, fmt.Errorf("%v: block type %v does not hold %v", t, mem.nodeBlock, mem.wrapper)
			}
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
		if mem := f.member; mem != nil {
			bt, ok := blockTypes[mem.wrapper]
			if !ok {
				return fmt.Errorf("no block type for %v: run go generate ./parser/sqlparse/internal/pgjson", mem.wrapper)
			}
			mem.block, mem.newBlock = bt.member()
			if mem.block.Field(0).Type != mem.wrapper || mem.block.Field(1).Type != msg.typ {
				return fmt.Errorf("block type %v does not hold %v", mem.block, mem.wrapper)
			}
			mem.msgOff = mem.block.Field(1).Offset
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
