package pgjson

import (
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// Numbers and strings, read as encoding/json reads them.

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
