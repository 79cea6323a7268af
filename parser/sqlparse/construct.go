package sqlparse

import (
	"fmt"
	"strings"
)

// Construct names what stands at offset off of src, where the parser
// stopped: a word, a quoted name or string, a run of operator characters,
// one character, or the end of the statement when off is at or past end.
func Construct(src []byte, off, end int) string {
	end = min(end, len(src))
	for off < end && (src[off] == ' ' || src[off] == '\t' || src[off] == '\n' || src[off] == '\r') {
		off++
	}
	if off >= end || src[off] == ';' {
		return "the end of the statement"
	}
	i := off + 1
	switch c := src[off]; {
	case isWordByte(c):
		for i < end && isWordByte(src[i]) {
			i++
		}
	case c == '\'' || c == '"' || c == '`':
		for i < end && src[i] != c {
			i++
		}
		i = min(i+1, end)
	case strings.IndexByte(operatorBytes, c) >= 0:
		for i < end && strings.IndexByte(operatorBytes, src[i]) >= 0 {
			i++
		}
	}
	const most = 40
	text := string(src[off:i])
	if len(text) > most {
		text = strings.ToValidUTF8(text[:most], "") + "..."
	}
	return fmt.Sprintf("%q", text)
}

const operatorBytes = "+-*/<>=~!@#%^&|?:"

func isWordByte(c byte) bool {
	return c == '_' || c == '$' || c >= '0' && c <= '9' || c|0x20 >= 'a' && c|0x20 <= 'z' || c >= 0x80
}
