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

	pg_query "github.com/pganalyze/pg_query_go/v5"
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
	res, _, err := ParseSized(text)
	return res, err
}

// ParseSized is Parse that also returns the length of pg_query's JSON for
// text, which grows with the parse tree: callers that keep many trees
// budget their memory by it.
func ParseSized(text string) (*pg_query.ParseResult, int, error) {
	parsed, js, err := parseToJSON(text)
	if err != nil {
		return nil, 0, err
	}
	defer parsed.free()
	d, err := newJSONDecoder(js)
	if err != nil {
		return nil, 0, err
	}
	defer d.release()
	res, err := d.parseResult()
	if errors.Is(err, errTooDeep) || err == nil && !d.repair(text) {
		res, err = pg_query.Parse(text)
	}
	if err != nil {
		return nil, 0, err
	}
	return res, len(js), nil
}

// Prepare builds what parsing needs before its first statement, the
// decoding tables (some 14 ms), so that a caller with other work to do
// first, such as reading files, can have it done alongside.
func Prepare() {
	// A failure to build them is returned by the first parse instead.
	_, _ = parseResultTable()
}
