//go:build unix

package source

import (
	"io/fs"
	"syscall"
)

// ReadRegular reads the regular file at path, of at most limit bytes, as
// OpenRegular checks it; a file that grows past the limit while it is read
// is refused too, having been read only that far.
//
// It reads with the system calls themselves: an os.File registers with the
// runtime's poller, which a regular file refuses, and is closed by a
// finalizer; a run reads thousands of files and needs neither.
func ReadRegular(path string, limit int64) ([]byte, error) {
	fd, err := openNonBlocking(path)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if err := ignoringEINTR(func() error { return syscall.Fstat(fd, &st) }); err != nil {
		return nil, &fs.PathError{Op: "stat", Path: path, Err: err}
	}
	if mode := modeOf(uint32(st.Mode)); !mode.IsRegular() {
		return nil, &fs.PathError{Op: "read", Path: path, Err: notRegular(mode)}
	}
	size := int64(st.Size)
	if limit > 0 && size > limit {
		return nil, &fs.PathError{Op: "read", Path: path, Err: TooLarge(size, limit)}
	}
	noteOpened(fileID{uint64(st.Dev), uint64(st.Ino)})
	// A buffer of the stated size and one byte more holds the file and
	// shows at once whether it grew while read.
	buf := make([]byte, 0, size+1)
	for {
		var n int
		err := ignoringEINTR(func() (err error) {
			n, err = syscall.Read(fd, buf[len(buf):cap(buf)])
			return err
		})
		if err != nil {
			return nil, &fs.PathError{Op: "read", Path: path, Err: err}
		}
		if n <= 0 {
			break
		}
		buf = buf[:len(buf)+n]
		if limit > 0 && int64(len(buf)) > limit {
			return nil, &fs.PathError{Op: "read", Path: path, Err: TooLarge(int64(len(buf)), limit)}
		}
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
	}
	return buf, nil
}

// openNonBlocking opens path for reading without blocking, as
// OpenRegular does: a named pipe nobody writes to is refused by the mode
// check instead of waiting.
func openNonBlocking(path string) (int, error) {
	var fd int
	err := ignoringEINTR(func() (err error) {
		fd, err = syscall.Open(path, syscall.O_RDONLY|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
		return err
	})
	return fd, err
}

func ignoringEINTR(call func() error) error {
	for {
		if err := call(); err != syscall.EINTR {
			return err
		}
	}
}

// modeOf is the fs.FileMode type bits of a stat mode, as os.Stat sets them.
func modeOf(mode uint32) fs.FileMode {
	switch mode & syscall.S_IFMT {
	case syscall.S_IFREG:
		return 0
	case syscall.S_IFDIR:
		return fs.ModeDir
	case syscall.S_IFIFO:
		return fs.ModeNamedPipe
	case syscall.S_IFCHR:
		return fs.ModeDevice | fs.ModeCharDevice
	case syscall.S_IFBLK:
		return fs.ModeDevice
	case syscall.S_IFSOCK:
		return fs.ModeSocket
	case syscall.S_IFLNK:
		return fs.ModeSymlink
	}
	return fs.ModeIrregular
}
