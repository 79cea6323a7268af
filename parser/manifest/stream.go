package manifest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/bflint/bflint/parser/source"
	"io"
	"os"
	"reflect"
	"strings"
)

// MaxSize is the largest manifest.json or catalog.json bflint reads: 1 GiB.
// The largest dbt projects write manifests of a few hundred MB; a bigger
// file is more likely a wrong path than a project, and reading it would
// hold the lint run for minutes.
const MaxSize int64 = 1 << 30

// Error is a manifest or catalog that could not be read: truncated, not
// JSON, or with a value of the wrong shape where lineage needs one.
type Error struct {
	// Path is the file, as passed to Load or LoadCatalog; empty after
	// Decode.
	Path string
	// Offset is the 0-based byte offset of the failure, -1 when unknown:
	// the offending byte of invalid JSON, the end of a truncated file, the
	// start of a value of the wrong type, or for a field inside a node the
	// place encoding/json reports (just after the field's value).
	Offset int64
	// Line and Column (1-based, Column in bytes) locate Offset; only Load
	// and LoadCatalog, which can read the file again, fill them.
	Line, Column int
	Msg          string
	Err          error
}

func (e *Error) Error() string {
	var b strings.Builder
	switch {
	case e.Path != "" && e.Line > 0:
		fmt.Fprintf(&b, "%s:%d:%d: ", e.Path, e.Line, e.Column)
	case e.Path != "":
		fmt.Fprintf(&b, "%s: ", e.Path)
	}
	b.WriteString(e.Msg)
	if e.Offset >= 0 {
		fmt.Fprintf(&b, " (at byte %d)", e.Offset)
	}
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

var errTooLarge = errors.New("input larger than the size limit")

// countingReader counts what the decoder consumed, to place an unexpected
// end of input, and enforces the size limit on readers that cannot be
// measured in advance (pipes, Decode).
type countingReader struct {
	r     io.Reader
	n     int64
	limit int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	if c.n > c.limit {
		return 0, errTooLarge
	}
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// stream walks the outer levels of a dbt artifact token by token and hands
// each entry of a section to encoding/json on its own, so the decoder's
// buffer holds one node at a time instead of the whole file.
type stream struct {
	dec     *json.Decoder
	in      *countingReader
	limit   int64
	started bool // a first token was read: running out of input now is truncation
}

func newStream(r io.Reader, limit int64) *stream {
	in := &countingReader{r: bufio.NewReaderSize(r, 64<<10), limit: limit}
	return &stream{dec: json.NewDecoder(in), in: in, limit: limit}
}

// skipped absorbs a value the caller has no use for without copying it.
type skipped struct{}

func (*skipped) UnmarshalJSON([]byte) error { return nil }

// dataStart returns where the bytes of the next value begin as
// encoding/json counts them for UnmarshalTypeError.Offset (just after the
// colon or comma that Decode will consume, whitespace included) and where
// its first non-space byte is. The decoder has usually buffered those bytes
// already; when it has not, the current offset is the best estimate.
func (s *stream) dataStart() (data, token int64) {
	off := s.dec.InputOffset()
	var head [64]byte
	n, _ := io.ReadFull(s.dec.Buffered(), head[:])
	data = off
	for i, c := range head[:n] {
		switch c {
		case ' ', '\t', '\r', '\n':
			continue
		case ':', ',':
			data = off + int64(i) + 1
			continue
		}
		return data, off + int64(i)
	}
	return data, data
}

// object consumes the start of an object named what, described in messages
// as want; a JSON null is an absent object, which dbt writes for empty
// optional sections.
func (s *stream) object(what, want string) (bool, error) {
	_, at := s.dataStart()
	tok, err := s.dec.Token()
	if err != nil {
		return false, s.fail(err, what)
	}
	s.started = true
	switch tok {
	case json.Delim('{'):
		return true, nil
	case nil:
		return false, nil
	}
	return false, &Error{Offset: at, Msg: fmt.Sprintf("%s is %s, expected %s", what, tokenKind(tok), want)}
}

// key reads the next key of an object whose More has returned true.
func (s *stream) key(what string) (string, error) {
	tok, err := s.dec.Token()
	if err != nil {
		return "", s.fail(err, what)
	}
	// In key position the decoder yields a string or a syntax error.
	k, _ := tok.(string)
	return k, nil
}

// end consumes the delimiter that closes what.
func (s *stream) end(what string) error {
	if _, err := s.dec.Token(); err != nil {
		return s.fail(err, what)
	}
	return nil
}

// value decodes the next value into v. section and key name it in
// messages, formatted only when something is wrong.
func (s *stream) value(v any, section, key string) error {
	start, token := s.dataStart()
	err := s.dec.Decode(v)
	if err == nil {
		return nil
	}
	where := section
	if key != "" {
		where = fmt.Sprintf("%s[%q]", section, key)
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		// encoding/json places a nested type error just after the
		// offending value, and one raised by an UnmarshalJSON method at
		// no position at all; the value's own start is the better place
		// for the latter and for the entry as a whole.
		at := token
		if te.Field != "" {
			where += "." + te.Field
			if te.Offset > 0 {
				at = start + te.Offset
			}
		}
		return &Error{
			Offset: at,
			Msg:    fmt.Sprintf("%s is %s, expected %s", where, valueKind(te.Value), expected(te.Type)),
			Err:    err,
		}
	}
	return s.fail(err, where)
}

// skip consumes the next value. Objects and arrays are walked one level
// deep so that a large section (macros, docs, disabled) is never buffered
// whole.
func (s *stream) skip(what string) error {
	tok, err := s.dec.Token()
	if err != nil {
		return s.fail(err, what)
	}
	if tok != json.Delim('{') && tok != json.Delim('[') {
		return nil
	}
	for s.dec.More() {
		if tok == json.Delim('{') {
			if _, err := s.key(what); err != nil {
				return err
			}
		}
		if err := s.value(new(skipped), what, ""); err != nil {
			return err
		}
	}
	return s.end(what)
}

// finish checks that nothing but whitespace follows the top-level value: a
// second document after it means the file was concatenated or corrupted.
func (s *stream) finish(what string) error {
	_, at := s.dataStart()
	_, err := s.dec.Token()
	switch {
	case err == io.EOF:
		return nil
	case err != nil:
		return s.fail(err, what)
	}
	return &Error{Offset: at, Msg: fmt.Sprintf("unexpected data after the end of %s", what)}
}

// fail turns a decoder or reader error met inside what into an *Error.
func (s *stream) fail(err error, what string) error {
	var se *json.SyntaxError
	switch {
	case errors.Is(err, errTooLarge):
		return &Error{Offset: -1, Msg: fmt.Sprintf("the file is larger than %s, the most bflint reads", sizeText(s.limit)), Err: err}
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		if !s.started {
			return &Error{Offset: 0, Msg: "the file is empty", Err: err}
		}
		return &Error{Offset: s.in.n, Msg: fmt.Sprintf("the file ends inside %s: it is truncated", what), Err: err}
	case errors.As(err, &se):
		return &Error{Offset: s.syntaxOffset(se), Msg: fmt.Sprintf("invalid JSON in %s: %s", what, se.Error()), Err: err}
	}
	return &Error{Offset: -1, Msg: fmt.Sprintf("reading %s: %v", what, err), Err: err}
}

// syntaxOffset returns the offset of the byte a syntax error is about.
// Errors the decoder raises between values carry an absolute offset, but
// errors inside a value count bytes from an origin it does not expose.
// After such an error the decoder still buffers the failed value from its
// start, so a fresh decoder over that buffer finds the same byte again,
// counting from a known place.
func (s *stream) syntaxOffset(se *json.SyntaxError) int64 {
	var again *json.SyntaxError
	if err := json.NewDecoder(s.dec.Buffered()).Decode(new(skipped)); errors.As(err, &again) {
		return s.dec.InputOffset() + again.Offset - 1
	}
	return se.Offset
}

// locate fills in the path, and the line and column of the offset by
// reading the file again: the stream keeps no line table, and a failure is
// rare enough that the second read costs nothing that matters.
func locate(err error, path string) error {
	var e *Error
	if !errors.As(err, &e) {
		return err
	}
	e.Path = path
	if e.Offset < 0 {
		return e
	}
	f, _, openErr := source.OpenRegular(path, 0)
	if openErr != nil {
		return e
	}
	defer f.Close()
	r := io.LimitReader(f, e.Offset)
	line, lineStart, pos := 1, int64(0), int64(0)
	buf := make([]byte, 64<<10)
	for {
		n, readErr := r.Read(buf)
		chunk := buf[:n]
		if k := bytes.Count(chunk, []byte{'\n'}); k > 0 {
			line += k
			lineStart = pos + int64(bytes.LastIndexByte(chunk, '\n')) + 1
		}
		pos += int64(n)
		if readErr != nil {
			break
		}
	}
	if pos == e.Offset {
		e.Line, e.Column = line, int(e.Offset-lineStart)+1
	}
	return e
}

// checkSize refuses a file over limit before any of it is read.
func checkSize(f *os.File, limit int64) error {
	info, err := f.Stat()
	if err != nil {
		return err
	}
	if info.Mode().IsRegular() && info.Size() > limit {
		return &Error{Offset: -1, Msg: fmt.Sprintf("the file is %s, larger than %s, the most bflint reads", sizeText(info.Size()), sizeText(limit))}
	}
	return nil
}

func sizeText(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%d bytes", n)
}

func tokenKind(tok json.Token) string {
	switch tok.(type) {
	case json.Delim:
		if tok == json.Delim('[') {
			return "a list"
		}
		return fmt.Sprintf("%q", tok)
	case string:
		return "a string"
	case float64, json.Number:
		return "a number"
	case bool:
		return "a boolean"
	}
	return "null"
}

// valueKind words encoding/json's UnmarshalTypeError.Value ("array",
// "number 3", ...) for a message.
func valueKind(v string) string {
	switch {
	case v == "array":
		return "a list"
	case v == "object":
		return "an object"
	case v == "bool":
		return "a boolean"
	case strings.HasPrefix(v, "number"):
		return "a number"
	case v == "string":
		return "a string"
	}
	return v
}

func expected(t reflect.Type) string {
	switch t {
	case reflect.TypeFor[StringList]():
		return "a string or a list of strings"
	case reflect.TypeFor[ModelVersion]():
		return "a string or a number"
	case reflect.TypeFor[Checksum]():
		return "an object or a string"
	}
	switch t.Kind() {
	case reflect.Struct, reflect.Map:
		return "an object"
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	}
	return "a number"
}
