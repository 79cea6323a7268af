// Package source holds the files bflint reads, registered in one token.FileSet
// so that every finding, whatever the file type, is a token.Pos until output.
package source

import (
	"bytes"
	"errors"
	"go/token"
	"hash/maphash"
	"strings"
	"unicode/utf8"
	"unsafe"
)

// File is one file of a run: its name as shown to the user (slash-separated,
// relative to the project root), its content and its place in the FileSet.
//
// A run over thousands of files need not hold them all: a file may be
// registered without its content (AddReleased) and given it back just
// before it is read again (Restore), and its content dropped once nothing
// reads it but a report (Release), which keeps the lines the report shows.
type File struct {
	Name    string
	Content []byte
	tf      *token.File
	// digest identifies the content a released file was registered with,
	// so that a file changed since is not read as the same file.
	digest uint64
	// kept are the lines a released file keeps for reports, by number.
	kept map[int]string
}

// ErrChanged is Restore's error for content that is not what the file was
// registered with.
var ErrChanged = errors.New("changed while bflint read it")

// digestSeed is the seed of every content digest of a run.
var digestSeed = maphash.MakeSeed()

// Add registers content under name in fset.
func Add(fset *token.FileSet, name string, content []byte) *File {
	f := &File{Name: name, tf: fset.AddFile(name, -1, len(content))}
	f.hold(content)
	return f
}

// hold gives the file its content and the content's line table.
func (f *File) hold(content []byte) {
	if !f.tf.SetLines(LineStarts(content)) {
		f.tf.SetLinesForContent(content)
	}
	f.Content = content
}

// AddReleased registers content under name in fset without keeping it:
// the file holds no content and no line table until Restore gives them.
// Positions in it can be made meanwhile; they become lines and columns
// once it is restored.
func AddReleased(fset *token.FileSet, name string, content []byte) *File {
	tf := fset.AddFile(name, -1, len(content))
	return &File{Name: name, tf: tf, digest: maphash.Bytes(digestSeed, content)}
}

// Restore gives a file registered by AddReleased its content again, read
// anew, with its line table; ErrChanged when the content is not what was
// registered. Restoring a file that holds its content does nothing.
func (f *File) Restore(content []byte) error {
	if f.Content != nil || f.tf.Size() == 0 {
		return nil
	}
	if len(content) != f.tf.Size() || maphash.Bytes(digestSeed, content) != f.digest {
		return ErrChanged
	}
	f.hold(content)
	return nil
}

// Release drops the file's content, keeping the text of the lines that
// hold the positions in keep (others are ignored) for the reports that
// show them. Its line table stays, and so do positions in it.
func (f *File) Release(keep ...token.Pos) {
	if f.Content == nil {
		return
	}
	for _, p := range keep {
		if !f.Contains(p) || f.tf.LineCount() == 0 {
			continue
		}
		line := f.tf.Line(p)
		if _, ok := f.kept[line]; ok {
			continue
		}
		if f.kept == nil {
			f.kept = map[int]string{}
		}
		// A line is a view of the content, which must not be held.
		f.kept[line] = strings.Clone(f.Line(line))
	}
	f.Content = nil
}

// LineStarts returns the offsets at which content's lines start, as
// token.File.SetLinesForContent finds them: the first line at 0, then
// after every newline but one that ends the content; none for no content.
// It finds newlines with a vector search, where SetLinesForContent looks
// at every byte, and sizes the table once.
func LineStarts(content []byte) []int {
	if len(content) == 0 {
		return nil
	}
	lines := make([]int, 1, bytes.Count(content, []byte{'\n'})+1)
	for off := 0; ; {
		i := bytes.IndexByte(content[off:], '\n')
		if i < 0 {
			return lines
		}
		off += i + 1
		if off >= len(content) {
			return lines
		}
		lines = append(lines, off)
	}
}

// Text is the content as a string, without the copy string(Content)
// makes: a SQL file of 60 MB would otherwise be held once more by every
// reader. Nothing writes to a file's content once it is read.
func (f *File) Text() string {
	if len(f.Content) == 0 {
		return ""
	}
	return unsafe.String(&f.Content[0], len(f.Content))
}

// Pos converts a byte offset in the file to a token.Pos, clamping it to the
// file so a slightly wrong offset from a parser never panics.
func (f *File) Pos(offset int) token.Pos {
	if offset < 0 {
		offset = 0
	}
	if offset > f.tf.Size() {
		offset = f.tf.Size()
	}
	return f.tf.Pos(offset)
}

// Size is the length of the file's content, held or not.
func (f *File) Size() int { return f.tf.Size() }

// Offset converts a token.Pos of this file back to a byte offset.
func (f *File) Offset(p token.Pos) int { return f.tf.Offset(p) }

// Contains reports whether p lies in this file.
func (f *File) Contains(p token.Pos) bool {
	return p.IsValid() && int(p) >= f.tf.Base() && int(p) <= f.tf.Base()+f.tf.Size()
}

// LineCol converts a 1-based line and a 1-based column counted in characters
// (as YAML parsers count) to a token.Pos. Out-of-range values are clamped.
func (f *File) LineCol(line, col int) token.Pos {
	if line < 1 {
		return f.Pos(0)
	}
	if line > f.tf.LineCount() {
		return f.Pos(f.tf.Size())
	}
	off := f.tf.Offset(f.tf.LineStart(line))
	for c := 1; c < col && off < len(f.Content) && f.Content[off] != '\n'; c++ {
		_, size := utf8.DecodeRune(f.Content[off:])
		off += size
	}
	return f.Pos(off)
}

// LineStart returns the position of the first byte of a 1-based line.
func (f *File) LineStart(line int) token.Pos { return f.LineCol(line, 1) }

// Line returns the text of the 1-based line, without its line ending;
// once the file's content was released, only a line Release kept, and ""
// for the others.
func (f *File) Line(line int) string {
	if line < 1 || line > f.tf.LineCount() {
		return ""
	}
	if f.Content == nil {
		return f.kept[line]
	}
	start := f.tf.Offset(f.tf.LineStart(line))
	if start > len(f.Content) {
		return ""
	}
	end := start
	for end < len(f.Content) && f.Content[end] != '\n' {
		end++
	}
	if end > start && f.Content[end-1] == '\r' {
		end--
	}
	return f.Text()[start:end]
}
