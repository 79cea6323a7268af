// Package pgtypes lists pg_query's protobuf messages and the Go types of
// their oneof members, for the generators that write code over them
// (walkgen, blockgen).
package pgtypes

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v5"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
)

// Messages returns the message types of pg_query's protobuf package, by
// name.
func Messages() []protoreflect.MessageType {
	pkg := (&pg_query.Node{}).ProtoReflect().Descriptor().ParentFile().Package()
	var types []protoreflect.MessageType
	protoregistry.GlobalTypes.RangeMessages(func(mt protoreflect.MessageType) bool {
		if mt.Descriptor().ParentFile().Package() == pkg {
			types = append(types, mt)
		}
		return true
	})
	slices.SortFunc(types, func(a, b protoreflect.MessageType) int {
		return strings.Compare(string(a.Descriptor().Name()), string(b.Descriptor().Name()))
	})
	return types
}

// MessageMembers returns the Go wrapper types (pg_query.Node_SelectStmt)
// of the members whose value is a message of the oneof held in struct
// field f of mt, in field order. They are found by setting each member
// through protobuf reflection and looking at what lands in the field.
func MessageMembers(mt protoreflect.MessageType, f reflect.StructField) ([]reflect.Type, error) {
	var od protoreflect.OneofDescriptor
	oneofs := mt.Descriptor().Oneofs()
	for i := range oneofs.Len() {
		if string(oneofs.Get(i).Name()) == f.Tag.Get("protobuf_oneof") {
			od = oneofs.Get(i)
		}
	}
	if od == nil {
		return nil, fmt.Errorf("%s.%s: no oneof %q", mt.Descriptor().Name(), f.Name, f.Tag.Get("protobuf_oneof"))
	}
	var wrappers []reflect.Type
	fields := od.Fields()
	for i := range fields.Len() {
		fd := fields.Get(i)
		if fd.Message() == nil {
			continue
		}
		m := mt.New()
		m.Set(fd, m.NewField(fd))
		wrappers = append(wrappers, reflect.ValueOf(m.Interface()).Elem().FieldByName(f.Name).Elem().Type().Elem())
	}
	return wrappers, nil
}
