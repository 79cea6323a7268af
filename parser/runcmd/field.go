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
// verbatim on its key's line: a plain scalar, or a quoted one without
// escapes. A block scalar, a folded plain scalar or a quoted string with
// escapes differ from their value byte for byte, so every offset in them
// maps to the start of the value.
type Field struct {
	Commands []*Command
	Err      *SyntaxError

	file  *source.File
	value token.Pos
	base  int // the file offset of the command's first byte; -1 when not verbatim
}

// Read parses the run.command value s of the plan file f; nil when the
// plan has no command.
func Read(f *source.File, s yamlx.String) *Field {
	if !s.Set {
		return nil
	}
	fd := &Field{file: f, value: s.Value, base: -1}
	if s.Value.IsValid() && f.Contains(s.Value) {
		fd.base = verbatimAt(string(f.Content[f.Offset(s.Value):]), s.V)
		if fd.base >= 0 {
			fd.base += f.Offset(s.Value)
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

// Pos returns the position in the plan file of a byte offset in the
// command.
func (f *Field) Pos(offset int) token.Pos {
	if f.base < 0 {
		return f.value
	}
	return f.file.Pos(f.base + offset)
}
