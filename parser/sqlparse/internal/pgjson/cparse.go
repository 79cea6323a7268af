package pgjson

// The library's JSON is read where the C library wrote it: pg_query's own
// ParseToJSON copies it into a Go string first, which for a large file is
// more memory than the tree decoded from it. The declarations are those of
// pg_query.h, whose definitions the pg_query_go module links in.

/*
#include <stdlib.h>
#include <string.h>

typedef struct {
	char* message;
	char* funcname;
	char* filename;
	int lineno;
	int cursorpos;
	char* context;
} PgQueryError;

typedef struct {
	char* parse_tree;
	char* stderr_buffer;
	PgQueryError* error;
} PgQueryParseResult;

PgQueryParseResult pg_query_parse(const char* input);
void pg_query_free_parse_result(PgQueryParseResult result);
*/
import "C"

import (
	"unsafe"

	"github.com/pganalyze/pg_query_go/v5/parser"
)

// parsedJSON is pg_query's JSON for one text, held in C memory until free.
type parsedJSON struct {
	res C.PgQueryParseResult
}

// parseToJSON parses text as pg_query.ParseToJSON does and returns its
// JSON without copying it; free must be called once the JSON is no longer
// read. Its error is the *parser.Error ParseToJSON returns.
func parseToJSON(text string) (*parsedJSON, string, error) {
	input := C.CString(text)
	defer C.free(unsafe.Pointer(input))
	p := &parsedJSON{res: C.pg_query_parse(input)}
	if e := p.res.error; e != nil {
		err := &parser.Error{
			Message:   C.GoString(e.message),
			Lineno:    int(e.lineno),
			Cursorpos: int(e.cursorpos),
		}
		if e.funcname != nil {
			err.Funcname = C.GoString(e.funcname)
		}
		if e.filename != nil {
			err.Filename = C.GoString(e.filename)
		}
		if e.context != nil {
			err.Context = C.GoString(e.context)
		}
		p.free()
		return nil, "", err
	}
	if p.res.parse_tree == nil {
		// What ParseToJSON would return, C.GoString of nothing.
		return p, "", nil
	}
	js := unsafe.String((*byte)(unsafe.Pointer(p.res.parse_tree)), int(C.strlen(p.res.parse_tree)))
	return p, js, nil
}

func (p *parsedJSON) free() { C.pg_query_free_parse_result(p.res) }
