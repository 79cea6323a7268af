//go:build !unix

package source

import (
	"io"
	"io/fs"
)

// ReadRegular reads the regular file at path, of at most limit bytes, as
// OpenRegular checks it; a file that grows past the limit while it is read
// is refused too, having been read only that far.
func ReadRegular(path string, limit int64) ([]byte, error) {
	f, info, err := OpenRegular(path, limit)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var r io.Reader = f
	if limit > 0 {
		r = io.LimitReader(f, limit+1)
	}
	// A buffer of the stated size and one byte more holds the file and
	// shows at once whether it grew while read. bytes.Buffer would double
	// itself before its last read, and every file the run keeps would
	// hold twice its size.
	buf := make([]byte, 0, info.Size()+1)
	for {
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, &fs.PathError{Op: "read", Path: path, Err: err}
		}
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
	}
	if limit > 0 && int64(len(buf)) > limit {
		return nil, &fs.PathError{Op: "read", Path: path, Err: TooLarge(int64(len(buf)), limit)}
	}
	return buf, nil
}
