package source

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestReadRegular(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "model.sql")
	content := strings.Repeat("select 1;\n", 500)
	if err := os.WriteFile(file, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	ForgetReads()
	got, err := ReadRegular(file, 0)
	if err != nil || string(got) != content {
		t.Fatalf("ReadRegular = %d bytes, %v; want the file's %d bytes", len(got), err, len(content))
	}
	if !WasRead(file) {
		t.Error("WasRead is false for a file ReadRegular read")
	}
	if _, err := ReadRegular(file, int64(len(content)-1)); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Errorf("a file past the limit: err = %v, want it refused as too large", err)
	}
	if _, err := ReadRegular(dir, 0); !errors.Is(err, ErrNotRegular) {
		t.Errorf("a folder: err = %v, want ErrNotRegular", err)
	}
	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no named pipes here:", err)
	}
	// Nobody writes to the pipe: a blocking open would wait forever.
	if _, err := ReadRegular(fifo, 0); !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "named pipe") {
		t.Errorf("a named pipe: err = %v, want it refused as a named pipe", err)
	}
	if _, err := ReadRegular(filepath.Join(dir, "missing.sql"), 0); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a missing file: err = %v, want os.ErrNotExist", err)
	}
}
