package yamlx

import (
	"strings"

	"github.com/bflint/bflint/parser/source"
)

// Comment is a YAML comment with the span of the line it governs: its own
// line when it trails a value, else the next line that holds a key.
type Comment struct {
	Text   string // after the '#', trimmed
	Line   int    // where the comment stands
	Target int    // the line it applies to; 0 when nothing follows
	Col    int    // 1-based byte column of the '#'
}

// Comments finds the comments of a YAML file by scanning its lines. A '#'
// counts when it starts the line or follows white space outside quotes, as
// YAML defines; block scalars are not tracked, which only matters for a
// "bflint:ignore" written inside one.
func Comments(f *source.File) []Comment {
	lines := strings.Split(string(f.Content), "\n")
	var out []Comment
	var pending []int // indexes of own-line comments waiting for a key line
	for i, raw := range lines {
		line := strings.TrimRight(raw, "\r")
		col := commentStart(line)
		code := line
		if col >= 0 {
			code = line[:col]
		}
		hasCode := strings.TrimSpace(code) != ""
		if hasCode {
			for _, p := range pending {
				out[p].Target = i + 1
			}
			pending = pending[:0]
		}
		if col < 0 {
			continue
		}
		c := Comment{Text: strings.TrimSpace(line[col+1:]), Line: i + 1, Col: col + 1}
		if hasCode {
			c.Target = i + 1
		} else {
			pending = append(pending, len(out))
		}
		out = append(out, c)
	}
	return out
}

func commentStart(line string) int {
	var quote byte
	for i := 0; i < len(line); i++ {
		ch := line[i]
		switch {
		case quote != 0:
			if ch == quote {
				quote = 0
			}
		case ch == '\'' || ch == '"':
			if i == 0 || line[i-1] == ' ' || line[i-1] == ':' || line[i-1] == '[' || line[i-1] == ',' || line[i-1] == '-' || line[i-1] == '{' || line[i-1] == '\t' {
				quote = ch
			}
		case ch == '#':
			if i == 0 || line[i-1] == ' ' || line[i-1] == '\t' {
				return i
			}
		}
	}
	return -1
}
