package runcmd

import (
	"go/token"
	"strings"

	"github.com/bflint/bflint/parser/source"
	"github.com/bflint/bflint/parser/yamlx"
)

// Field is a plan's run.command: its commands, or why they cannot be read,
// and where an offset in the command lies in the plan file.
//
// An offset maps to its own byte of the file when the value is written
// verbatim on its key's line (a plain scalar, or a quoted one without
// escapes), or spread over lines that YAML joins with a space or a newline
// (a folded or literal block scalar, a plain scalar over several lines).
// A quoted string with escapes, or a block whose lines do not add up to the
// value, maps every offset to the start of the value.
type Field struct {
	Commands []*Command
	Err      *SyntaxError

	file  *source.File
	value token.Pos
	base  int // the file offset of the command's first byte; -1 when not verbatim
	// pieces map a value spread over lines, when base is -1.
	pieces []piece
}

// piece is a run of the value written unchanged on one line of the file.
type piece struct{ value, file, n int }

// Read parses the run.command value s of the plan file f; nil when the
// plan has no command.
func Read(f *source.File, s yamlx.String) *Field {
	if !s.Set {
		return nil
	}
	fd := &Field{file: f, value: s.Value, base: -1}
	if s.Value.IsValid() && f.Contains(s.Value) {
		at := f.Offset(s.Value)
		fd.base = verbatimAt(string(f.Content[at:]), s.V)
		if fd.base >= 0 {
			fd.base += at
		} else {
			fd.pieces = linesOf(f.Content, at, s.V)
		}
	}
	cmds, err := Parse(s.V)
	if err != nil {
		fd.Err = err.(*SyntaxError)
		return fd
	}
	fd.Commands = cmds
	return fd
}

// verbatimAt returns where value starts in text, the file from the value's
// position on, when it is written there unchanged on one line; else -1.
func verbatimAt(text, value string) int {
	if strings.ContainsAny(value, "\r\n") {
		return -1
	}
	if strings.HasPrefix(text, value) {
		return 0
	}
	if text != "" && (text[0] == '"' || text[0] == '\'') && strings.HasPrefix(text[1:], value+text[:1]) && !strings.Contains(value, text[:1]) {
		return 1
	}
	return -1
}

// linesOf finds value in the lines of content from offset at on: after a
// block indicator line (> or |), or from at itself for a plain scalar, each
// line's text without its indentation must come next in value, followed by
// the space or newline YAML joined it with. nil when they do not add up.
func linesOf(content []byte, at int, value string) []piece {
	text := string(content[at:])
	pos := at
	if strings.HasPrefix(text, ">") || strings.HasPrefix(text, "|") {
		nl := strings.IndexByte(text, '\n')
		if nl < 0 {
			return nil
		}
		pos += nl + 1
	}
	var pieces []piece
	v := 0
	for v < len(value) && pos < len(content) {
		end := pos
		for end < len(content) && content[end] != '\n' {
			end++
		}
		line := string(content[pos:end])
		trimmed := strings.TrimLeft(line, " \t")
		trimmed = strings.TrimRight(trimmed, " \t\r")
		start := pos + len(line) - len(strings.TrimLeft(line, " \t"))
		if trimmed != "" {
			// A line indented more than the block keeps its extra
			// indentation in the value.
			for v < len(value) && (value[v] == ' ' || value[v] == '\t') {
				v++
			}
			if !strings.HasPrefix(value[v:], trimmed) {
				return nil
			}
			pieces = append(pieces, piece{value: v, file: start, n: len(trimmed)})
			v += len(trimmed)
			if v < len(value) && (value[v] == ' ' || value[v] == '\n') {
				v++
			}
		}
		pos = end + 1
	}
	if v != len(value) {
		return nil
	}
	return pieces
}

// Pos returns the position in the plan file of a byte offset in the
// command.
func (f *Field) Pos(offset int) token.Pos {
	if f.base >= 0 {
		return f.file.Pos(f.base + offset)
	}
	for i := len(f.pieces) - 1; i >= 0; i-- {
		if p := f.pieces[i]; offset >= p.value {
			return f.file.Pos(p.file + min(offset-p.value, p.n))
		}
	}
	return f.value
}
