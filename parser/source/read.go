package source

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sync"
	"syscall"
	"unicode/utf16"
)

// MaxFileSize is the most bflint reads of a plan, a SQL file, a YAML
// file or a baseline; manifests have their own, larger limit.
const MaxFileSize = 64 << 20

// ErrNotRegular is the error of a path that names something other than a
// regular file; the message says what it is.
var ErrNotRegular = errors.New("not a regular file")

// OpenRegular opens path for reading and checks, on the opened descriptor,
// that it is a regular file of at most limit bytes (no limit when limit is
// 0 or less). The open does not block: a named pipe nobody writes to, or
// a device, is refused instead of waiting or reading without end, and a
// file swapped for another between a check and the read cannot slip in.
func OpenRegular(path string, limit int64) (*os.File, fs.FileInfo, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil, err
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !info.Mode().IsRegular() {
		f.Close()
		return nil, nil, &fs.PathError{Op: "read", Path: path, Err: notRegular(info.Mode())}
	}
	if limit > 0 && info.Size() > limit {
		f.Close()
		return nil, nil, &fs.PathError{Op: "read", Path: path, Err: TooLarge(info.Size(), limit)}
	}
	if id, ok := idOf(info); ok {
		noteOpened(id)
	}
	return f, info, nil
}

// noteOpened records a file bflint opened for reading (WasRead).
func noteOpened(id fileID) {
	opened.mu.Lock()
	opened.files[id] = true
	opened.mu.Unlock()
}

// opened are the files OpenRegular opened, by device and inode: every file
// bflint reads (plans, SQL, metadata, manifests and catalogs, a project's
// macros and properties, the configuration and the baseline) is opened
// there.
var opened = struct {
	mu    sync.Mutex
	files map[fileID]bool
}{files: map[fileID]bool{}}

// fileID names a file on disk, whatever path or link reaches it.
type fileID struct{ dev, ino uint64 }

func idOf(info fs.FileInfo) (fileID, bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return fileID{}, false
	}
	return fileID{uint64(st.Dev), st.Ino}, true
}

// WasRead reports whether path names a file OpenRegular opened since
// ForgetReads, through links, hard or symbolic: an output written there
// would replace an input of the run.
func WasRead(path string) bool {
	info, err := os.Stat(path)
	if err != nil || !info.Mode().IsRegular() {
		return false
	}
	id, ok := idOf(info)
	if !ok {
		return false
	}
	opened.mu.Lock()
	defer opened.mu.Unlock()
	return opened.files[id]
}

// ForgetReads starts a new record of the files read, for a new run.
func ForgetReads() {
	opened.mu.Lock()
	opened.files = map[fileID]bool{}
	opened.mu.Unlock()
}

// TooLarge is the error of a file of size bytes, past limit.
func TooLarge(size, limit int64) error {
	if limit >= 1<<20 {
		return fmt.Errorf("file is larger than the %d MiB bflint reads (%d MiB or more)", limit>>20, size>>20)
	}
	return fmt.Errorf("file is larger than the %d KiB bflint reads (%d KiB or more)", limit>>10, size>>10)
}

// notRegular says what a mode that is not a regular file's is.
func notRegular(m fs.FileMode) error {
	what := "not a regular file"
	switch {
	case m.IsDir():
		what = "a folder, not a file"
	case m&fs.ModeNamedPipe != 0:
		what = "a named pipe (FIFO), not a regular file: bflint does not wait on it"
	case m&fs.ModeCharDevice != 0, m&fs.ModeDevice != 0:
		what = "a device, not a regular file"
	case m&fs.ModeSocket != 0:
		what = "a socket, not a regular file"
	}
	return wrapped{what}
}

// wrapped carries a description and still matches ErrNotRegular.
type wrapped struct{ msg string }

func (w wrapped) Error() string        { return w.msg }
func (w wrapped) Is(target error) bool { return target == ErrNotRegular }

// Cause is err without the operation and path an *fs.PathError adds, for
// messages that name the path themselves.
func Cause(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// FromUTF16 returns b as UTF-8 when it is UTF-16 text that starts with its
// byte-order mark, as editors on Windows save it, and false otherwise.
func FromUTF16(b []byte) ([]byte, bool) {
	var order binary.ByteOrder
	switch {
	case bytes.HasPrefix(b, []byte{0xff, 0xfe}):
		order = binary.LittleEndian
	case bytes.HasPrefix(b, []byte{0xfe, 0xff}):
		order = binary.BigEndian
	default:
		return nil, false
	}
	b = b[2:]
	if len(b)%2 != 0 {
		return nil, false
	}
	units := make([]uint16, len(b)/2)
	for i := range units {
		units[i] = order.Uint16(b[2*i:])
	}
	return []byte(string(utf16.Decode(units))), true
}

// IsUTF16 reports whether b starts with a UTF-16 byte-order mark.
func IsUTF16(b []byte) bool {
	return bytes.HasPrefix(b, []byte{0xff, 0xfe}) || bytes.HasPrefix(b, []byte{0xfe, 0xff})
}

// UnlistedFolder is the error of a folder that was to be linted and could
// not be listed, which is not the same thing as an unreadable file: every
// file below it went unlinted.
type UnlistedFolder struct{ Err error }

func (e *UnlistedFolder) Error() string { return e.Err.Error() }
func (e *UnlistedFolder) Unwrap() error { return e.Err }
