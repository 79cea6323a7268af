// Package outfile writes the files bflint produces (reports, baselines,
// fixed plans, new plans) to the paths a user names, without ever
// damaging what the path named before:
//
//   - a regular file is replaced whole, through a temporary file beside it
//     renamed over it, so a reader sees the old content or the new, never
//     half; it keeps its mode and, where the process may set it, its
//     owner; a symbolic link is written through, at its target, and stays
//     a link;
//   - a regular file with several hard links, or one whose owner cannot be
//     kept, is rewritten in place instead, so that every link sees the new
//     content and the owner stays;
//   - a path naming one of this process's open files (/dev/stdout,
//     /dev/stderr, /dev/fd/N, /proc/self/fd/N, or a link to one) is
//     written through that descriptor, never opened again: reopening a
//     pipe or a socket the process was given fails for every user but
//     its owner (a CI runner's), or for any user (a socket);
//   - anything else (a device such as /dev/null, a named pipe, and every
//     path under /dev and /proc) is written in place, appended to, never
//     replaced by a regular file;
//   - a folder is refused.
//
// Temporary files are named .NAME.bflint-NNN; RemoveTemporaries deletes
// those still being written, for a signal handler, and a later write to
// NAME deletes any such file left there more than an hour before.
package outfile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Write replaces the file at path with content; mode is that of a file
// it creates.
func Write(path string, content []byte, mode fs.FileMode) error {
	return WriteFunc(path, mode, func(w io.Writer) error {
		_, err := w.Write(content)
		return err
	})
}

// WriteFunc is Write of what produce writes, streamed to the destination.
// Until produce returns, the destination is untouched when it is replaced
// whole.
func WriteFunc(path string, mode fs.FileMode, produce func(io.Writer) error) error {
	p, err := prepare(path, mode, produce)
	if err != nil {
		return err
	}
	return p.Commit()
}

// Pending is a write prepared but not yet done: for a file replaced whole,
// the new content is in a temporary file beside it. Writing several files
// all or none prepares every one, and commits them only once all are
// prepared.
type Pending struct {
	tmp, path string
	// inPlace writes a destination that is not replaced, at commit.
	inPlace func() error
}

// Prepare is the first half of Write: Commit puts content in place, Abort
// forgets it.
func Prepare(path string, content []byte, mode fs.FileMode) (*Pending, error) {
	return prepare(path, mode, func(w io.Writer) error {
		_, err := w.Write(content)
		return err
	})
}

// Commit puts the prepared content at its destination.
func (p *Pending) Commit() error {
	if p.inPlace != nil {
		return p.inPlace()
	}
	defer untrack(p.tmp)
	if err := os.Rename(p.tmp, p.path); err != nil {
		os.Remove(p.tmp)
		var le *os.LinkError
		if errors.As(err, &le) {
			return &fs.PathError{Op: "write", Path: p.path, Err: le.Err}
		}
		return err
	}
	return nil
}

// Abort removes what Prepare wrote; the destination stays as it was.
func (p *Pending) Abort() {
	if p.inPlace == nil {
		os.Remove(p.tmp)
		untrack(p.tmp)
	}
}

func prepare(path string, mode fs.FileMode, produce func(io.Writer) error) (*Pending, error) {
	inPlace := func(flag int) *Pending {
		return &Pending{path: path, inPlace: func() error { return writeInPlace(path, flag, produce) }}
	}
	if fd, ok := Descriptor(path); ok {
		return &Pending{path: path, inPlace: func() error { return produce(descriptorFile(fd, path)) }}, nil
	}
	if inPlaceTree(path) {
		return inPlace(os.O_APPEND), nil
	}
	info, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		// A link to nothing yet makes its target.
		if target, ok := danglingTarget(path); ok {
			path = target
		}
		return replace(path, mode, nil, produce)
	case err != nil:
		return nil, err
	case info.IsDir():
		return nil, fmt.Errorf("%s is a folder", path)
	case !info.Mode().IsRegular():
		return inPlace(0), nil
	case links(info) > 1:
		return inPlace(os.O_TRUNC), nil
	}
	target, err := filepath.EvalSymlinks(path)
	if err != nil {
		return nil, err
	}
	return replace(target, info.Mode().Perm(), info, produce)
}

// Create writes content to a new file at path, never replacing a file that
// exists, nor one that appears meanwhile.
func Create(path string, content []byte, mode fs.FileMode) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return err
	}
	if _, err := f.Write(content); err != nil {
		f.Close()
		os.Remove(path)
		return err
	}
	return f.Close()
}

// Descriptor returns the open file of this process that path names:
// /dev/stdout and /dev/stderr, /dev/fd/N and /proc/self/fd/N (or
// /proc/PID/fd/N with this process's PID), directly or through symbolic
// links.
func Descriptor(path string) (int, bool) {
	for range maxLinks {
		abs, err := filepath.Abs(path)
		if err != nil {
			return 0, false
		}
		if fd, ok := descriptorName(abs); ok {
			return fd, true
		}
		target, err := os.Readlink(abs)
		if err != nil {
			return 0, false
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(abs), target)
		}
		path = target
	}
	return 0, false
}

// maxLinks is how many symbolic links Descriptor follows, as the kernel
// does before ELOOP.
const maxLinks = 40

func descriptorName(abs string) (int, bool) {
	switch abs {
	case "/dev/stdout":
		return 1, true
	case "/dev/stderr":
		return 2, true
	}
	dir, name := filepath.Split(abs)
	switch dir {
	case "/dev/fd/", "/proc/self/fd/", "/proc/" + strconv.Itoa(os.Getpid()) + "/fd/":
		fd, err := strconv.Atoi(name)
		return fd, err == nil && fd >= 0 && strconv.Itoa(fd) == name
	}
	return 0, false
}

var (
	descriptorsMu sync.Mutex
	// descriptors are the os.Files made for the process's own
	// descriptors, kept for its life: a dropped os.File closes its
	// descriptor when collected, and stdout must stay open.
	descriptors = map[int]*os.File{}
)

func descriptorFile(fd int, name string) *os.File {
	descriptorsMu.Lock()
	defer descriptorsMu.Unlock()
	f, ok := descriptors[fd]
	if !ok {
		f = os.NewFile(uintptr(fd), name)
		descriptors[fd] = f
	}
	return f
}

// inPlaceTree reports whether path is under /dev or /proc, whose entries
// (/dev/stdout, /dev/fd/3, /proc/self/fd/1) stand for files opened
// elsewhere: replacing them would break the link, so they are appended
// to.
func inPlaceTree(path string) bool {
	abs, err := filepath.Abs(path)
	if err != nil {
		return false
	}
	return strings.HasPrefix(abs, "/dev/") || strings.HasPrefix(abs, "/proc/")
}

// writeInPlace opens path for writing without creating it, truncating or
// appending as flag says. The open does not block: a named pipe that no
// process reads is an error, not a wait.
func writeInPlace(path string, flag int, produce func(io.Writer) error) error {
	f, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK|flag, 0)
	if errors.Is(err, syscall.ENXIO) {
		return fmt.Errorf("%s: no process reads the named pipe", path)
	}
	if err != nil {
		return err
	}
	if err := produce(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// replace writes a temporary file beside path, to be renamed over it,
// with mode and, when old is the file replaced, its owner. When the owner
// cannot be kept, path is to be rewritten in place instead.
func replace(path string, mode fs.FileMode, old fs.FileInfo, produce func(io.Writer) error) (*Pending, error) {
	dir, base := filepath.Dir(path), filepath.Base(path)
	removeStale(dir, base)
	tmp, err := createTracked(dir, "."+base+".bflint-*")
	if err != nil {
		return nil, asked(err, path)
	}
	p := &Pending{tmp: tmp.Name(), path: path}
	err = produce(tmp)
	if err == nil {
		err = tmp.Chmod(mode)
	}
	if err == nil && old != nil && !keepOwner(tmp, old) {
		tmp.Close()
		p.Abort()
		return &Pending{path: path, inPlace: func() error { return writeInPlace(path, os.O_TRUNC, produce) }}, nil
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		p.Abort()
		return nil, asked(err, path)
	}
	return p, nil
}

// asked names path in an error about the temporary file written for it:
// the user named path, and never sees the temporary file, which is gone.
func asked(err error, path string) error {
	var pe *fs.PathError
	if errors.As(err, &pe) && strings.Contains(filepath.Base(pe.Path), ".bflint-") {
		return &fs.PathError{Op: pe.Op, Path: path, Err: pe.Err}
	}
	return err
}

// keepOwner gives tmp the owner and group of old, reporting whether tmp
// has them.
func keepOwner(tmp *os.File, old fs.FileInfo) bool {
	st, ok := old.Sys().(*syscall.Stat_t)
	if !ok {
		return true
	}
	now, err := tmp.Stat()
	if err != nil {
		return false
	}
	if cur, ok := now.Sys().(*syscall.Stat_t); ok && cur.Uid == st.Uid && cur.Gid == st.Gid {
		return true
	}
	return tmp.Chown(int(st.Uid), int(st.Gid)) == nil
}

func links(info fs.FileInfo) uint64 {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}

// danglingTarget returns where a symbolic link that points at nothing
// would lead.
func danglingTarget(path string) (string, bool) {
	info, err := os.Lstat(path)
	if err != nil || info.Mode()&fs.ModeSymlink == 0 {
		return "", false
	}
	target, err := os.Readlink(path)
	if err != nil {
		return "", false
	}
	if !filepath.IsAbs(target) {
		target = filepath.Join(filepath.Dir(path), target)
	}
	return target, true
}

// staleAfter is how old a temporary file must be before a later write
// takes it for one a killed run left behind.
const staleAfter = time.Hour

// removeStale deletes the temporary files of base a killed run left in
// dir: regular files of bflint's temporary name, older than staleAfter.
func removeStale(dir, base string) {
	matches, _ := filepath.Glob(filepath.Join(dir, "."+globEscape(base)+".bflint-*"))
	for _, m := range matches {
		suffix := m[strings.LastIndex(m, ".bflint-")+len(".bflint-"):]
		if strings.Trim(suffix, "0123456789") != "" {
			continue
		}
		if info, err := os.Lstat(m); err == nil && info.Mode().IsRegular() && time.Since(info.ModTime()) > staleAfter {
			os.Remove(m)
		}
	}
}

func globEscape(s string) string {
	var b bytes.Buffer
	for _, r := range s {
		if strings.ContainsRune(`*?[\`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

var (
	tempMu sync.Mutex
	temps  = map[string]bool{}
	// stopping is set once RemoveTemporaries has run: the process is
	// ending, and no temporary file may be made after the sweep.
	stopping bool
)

// errStopping is returned for a temporary file asked for while the
// process ends.
var errStopping = errors.New("bflint is stopping")

// createTracked creates a temporary file and records it in one step, so
// that a signal between the two cannot leave it behind.
func createTracked(dir, pattern string) (*os.File, error) {
	tempMu.Lock()
	defer tempMu.Unlock()
	if stopping {
		return nil, errStopping
	}
	f, err := os.CreateTemp(dir, pattern)
	if err != nil {
		return nil, err
	}
	temps[f.Name()] = true
	return f, nil
}

// CreateTemp creates a temporary file in dir as os.CreateTemp does,
// tracked as the outputs' own are: a signal that ends the run removes it
// (RemoveTemporaries) instead of leaving it, as a cache entry being
// written was left. Done is called once it is renamed or removed.
func CreateTemp(dir, pattern string) (*os.File, error) { return createTracked(dir, pattern) }

// Done stops tracking a temporary file from CreateTemp, once it has been
// renamed or removed.
func Done(name string) { untrack(name) }

func untrack(name string) {
	tempMu.Lock()
	delete(temps, name)
	tempMu.Unlock()
}

// RemoveTemporaries deletes the temporary files being written now; a
// signal handler calls it before the process ends.
func RemoveTemporaries() {
	tempMu.Lock()
	defer tempMu.Unlock()
	stopping = true
	for name := range temps {
		os.Remove(name)
	}
}
