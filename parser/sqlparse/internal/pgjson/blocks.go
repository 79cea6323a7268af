package pgjson

import (
	"reflect"
	"unsafe"
)

//go:generate go run ./blockgen/cmd/main.go -o blocks_gen.go

// The decoder allocates a oneof member whose value is a message together
// with its wrapper (pg_query.Node_SelectStmt) and, for a node, with the
// node: one allocation where protobuf makes three. The blocks are Go
// types of their own, generated for every member (blocks_gen.go), so
// that they are allocated with new(): reflect.New of a struct type made
// at run time looks its pointer type up in a global map every time,
// which was a fifth of what decoding spent.

// blockType gives the block types of one member, and their allocators.
type blockType interface {
	// node is the block of a node that is this member: the node, then
	// the wrapper, then the message.
	node() (reflect.Type, func() unsafe.Pointer)
	// member is the block of this member in any other message: the
	// wrapper, then the message.
	member() (reflect.Type, func() unsafe.Pointer)
}

// blockOf is the blockType of a member with wrapper W and message M, in
// the message N.
type blockOf[N, W, M any] struct{}

type nodeBlock[N, W, M any] struct {
	N N
	W W
	M M
}

type memberBlock[W, M any] struct {
	W W
	M M
}

func (blockOf[N, W, M]) node() (reflect.Type, func() unsafe.Pointer) {
	return reflect.TypeFor[nodeBlock[N, W, M]](), func() unsafe.Pointer { return unsafe.Pointer(new(nodeBlock[N, W, M])) }
}

func (blockOf[N, W, M]) member() (reflect.Type, func() unsafe.Pointer) {
	return reflect.TypeFor[memberBlock[W, M]](), func() unsafe.Pointer { return unsafe.Pointer(new(memberBlock[W, M])) }
}
