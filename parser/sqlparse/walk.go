package sqlparse

import (
	"reflect"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v5"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
)

// The walks below read pg_query's generated structs through a plan per
// message type, built once with reflect, instead of protobuf reflection:
// protoreflect asks every one of Node's 250 oneof members whether it is set,
// which made walking a statement cost more than parsing it.

type childKind uint8

const (
	singleChild childKind = iota // *Message
	listChild                    // []*Message
	oneofChild                   // an interface holding a wrapper whose only field is *Message
)

type childField struct {
	index int
	kind  childKind
	// with marks with_clause, whose queries inspect scopes.
	with bool
}

// messagePlan is what the walks need of one message type.
type messagePlan struct {
	children []childField
	// location is the index of the int32 "location" field, -1 when none.
	location int
}

var messageType = reflect.TypeFor[proto.Message]()

// plans holds a plan for every pg_query message, built before any walk so
// that the walks read it without locking.
var plans = func() map[reflect.Type]*messagePlan {
	out := map[reflect.Type]*messagePlan{}
	protoregistry.GlobalTypes.RangeMessages(func(mt protoreflect.MessageType) bool {
		if mt.Descriptor().ParentFile().Package() == pgQueryPackage {
			t := reflect.TypeOf(mt.Zero().Interface()).Elem()
			out[t] = newPlan(t)
		}
		return true
	})
	return out
}()

var pgQueryPackage = (&pg_query.Node{}).ProtoReflect().Descriptor().ParentFile().Package()

// planOf returns the plan of a struct type; a message from outside
// pg_query (none is expected) gets one built on the spot.
func planOf(t reflect.Type) *messagePlan {
	if p, ok := plans[t]; ok {
		return p
	}
	return newPlan(t)
}

func newPlan(t reflect.Type) *messagePlan {
	p := &messagePlan{location: -1}
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name := protobufName(f)
		switch {
		case f.Type.Kind() == reflect.Pointer && f.Type.Implements(messageType):
			p.children = append(p.children, childField{index: i, kind: singleChild, with: name == "with_clause"})
		case f.Type.Kind() == reflect.Slice && f.Type.Elem().Kind() == reflect.Pointer && f.Type.Elem().Implements(messageType):
			p.children = append(p.children, childField{index: i, kind: listChild})
		case f.Type.Kind() == reflect.Interface && f.Tag.Get("protobuf_oneof") != "":
			p.children = append(p.children, childField{index: i, kind: oneofChild})
		case name == "location" && f.Type.Kind() == reflect.Int32:
			p.location = i
		}
	}
	return p
}

// protobufName is the field's name in the .proto file, from the struct tag
// protoc-gen-go writes ("varint,3,opt,name=location,proto3").
func protobufName(f reflect.StructField) string {
	tag := f.Tag.Get("protobuf")
	for len(tag) > 0 {
		var part string
		part, tag, _ = strings.Cut(tag, ",")
		if name, ok := strings.CutPrefix(part, "name="); ok {
			return name
		}
	}
	return ""
}

// structOf returns the struct m points to and its plan; ok is false for a
// nil message.
func structOf(m proto.Message) (reflect.Value, *messagePlan, bool) {
	v := reflect.ValueOf(m)
	if v.Kind() != reflect.Pointer || v.IsNil() {
		return reflect.Value{}, nil, false
	}
	s := v.Elem()
	return s, planOf(s.Type()), true
}

// eachChild calls fn for every message directly below the struct s, in
// field order.
func eachChild(s reflect.Value, p *messagePlan, fn func(child proto.Message, with bool)) {
	for _, c := range p.children {
		fv := s.Field(c.index)
		switch c.kind {
		case singleChild:
			if !fv.IsNil() {
				fn(fv.Interface().(proto.Message), c.with)
			}
		case listChild:
			for i := range fv.Len() {
				if e := fv.Index(i); !e.IsNil() {
					fn(e.Interface().(proto.Message), false)
				}
			}
		case oneofChild:
			if fv.IsNil() {
				continue
			}
			if inner := fv.Elem().Elem().Field(0); inner.Kind() == reflect.Pointer && !inner.IsNil() {
				if child, ok := inner.Interface().(proto.Message); ok {
					fn(child, false)
				}
			}
		}
	}
}

// location returns m's own location field, when its type has one.
func location(m proto.Message) (int32, bool) {
	s, p, ok := structOf(m)
	if !ok || p.location < 0 {
		return 0, false
	}
	return int32(s.Field(p.location).Int()), true
}

func setLocation(m proto.Message, loc int32) {
	if s, p, ok := structOf(m); ok && p.location >= 0 {
		s.Field(p.location).SetInt(int64(loc))
	}
}
