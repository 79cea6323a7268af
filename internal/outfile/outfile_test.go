package outfile

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestRemoveTemporaries(t *testing.T) {
	dir := t.TempDir()
	dest := filepath.Join(dir, "report.json")
	if err := os.WriteFile(dest, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := Prepare(dest, []byte("new"), 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(p.tmp); err != nil || !strings.HasPrefix(filepath.Base(p.tmp), ".report.json.bflint-") {
		t.Fatalf("no temporary file beside the report: %q %v", p.tmp, err)
	}
	RemoveTemporaries()
	t.Cleanup(func() {
		tempMu.Lock()
		stopping = false
		tempMu.Unlock()
	})
	if _, err := os.Stat(p.tmp); !os.IsNotExist(err) {
		t.Errorf("the temporary file is still there after RemoveTemporaries: %v", err)
	}
	if b, _ := os.ReadFile(dest); string(b) != "old" {
		t.Errorf("the destination holds %q, want the old content", b)
	}
	// A write that starts after the sweep would leave its file behind, as
	// the process exits without a second sweep.
	if _, err := Prepare(dest, []byte("late"), 0o644); err != errStopping {
		t.Errorf("Prepare after RemoveTemporaries: %v, want %v", err, errStopping)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("the folder holds %d files after the sweep, want the report alone", len(entries))
	}
}

// A later write removes the temporary files a killed run left, once they
// are old enough that no run can still be writing them, and only those.
func TestStaleTemporaries(t *testing.T) {
	dir := t.TempDir()
	dest := filepath.Join(dir, "p.backfill.yaml")
	old := time.Now().Add(-2 * staleAfter)
	files := map[string]bool{ // name: removed
		".p.backfill.yaml.bflint-123":   true,
		".p.backfill.yaml.bflint-456":   false, // fresh
		".p.backfill.yaml.bflint-notes": false, // not a name bflint gives
		".other.yaml.bflint-789":        false, // another file's
	}
	for name, removed := range files {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		if removed || name != ".p.backfill.yaml.bflint-456" {
			if err := os.Chtimes(p, old, old); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := Write(dest, []byte("bflint: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, removed := range files {
		_, err := os.Stat(filepath.Join(dir, name))
		if gone := os.IsNotExist(err); gone != removed {
			t.Errorf("%s: removed %v, want %v", name, gone, removed)
		}
	}
}

func TestCreateNeverReplaces(t *testing.T) {
	path := filepath.Join(t.TempDir(), "p.backfill.yaml")
	if err := Create(path, []byte("first"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Create(path, []byte("second"), 0o644); !os.IsExist(err) {
		t.Errorf("Create over an existing file: %v, want an exists error", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "first" {
		t.Errorf("the file holds %q", b)
	}
}

func TestWriteRefusesAFolder(t *testing.T) {
	if err := Write(t.TempDir(), []byte("x"), 0o644); err == nil || !strings.Contains(err.Error(), "is a folder") {
		t.Errorf("Write to a folder: %v", err)
	}
}

// TestWriteToDescriptor writes to /dev/fd/N and /proc/self/fd/N of a
// socket, which no user may open again: the write goes through the
// descriptor the process holds.
func TestWriteToDescriptor(t *testing.T) {
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err != nil {
		t.Skipf("no socket pair: %v", err)
	}
	writer, reader := os.NewFile(uintptr(fds[0]), "writer"), os.NewFile(uintptr(fds[1]), "reader")
	defer writer.Close()
	defer reader.Close()
	link := filepath.Join(t.TempDir(), "out.json")
	if err := os.Symlink(fmt.Sprintf("/proc/self/fd/%d", fds[0]), link); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{fmt.Sprintf("/dev/fd/%d", fds[0]), fmt.Sprintf("/proc/%d/fd/%d", os.Getpid(), fds[0]), link} {
		if err := Write(path, []byte("report\n"), 0o644); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		got := make([]byte, 7)
		if _, err := io.ReadFull(reader, got); err != nil || string(got) != "report\n" {
			t.Errorf("%s: the socket's reader got %q (%v)", path, got, err)
		}
	}
	if _, ok := Descriptor("/dev/fd/01"); ok {
		t.Errorf("/dev/fd/01 taken for a descriptor: the kernel has no such name")
	}
}

// A write that fails names the file asked for, never the temporary file
// written beside it, which the user never sees.
func TestFailedWriteNamesTheDestination(t *testing.T) {
	path := filepath.Join(t.TempDir(), "nodir", "x.json")
	err := Write(path, []byte("{}"), 0o644)
	if err == nil || !strings.Contains(err.Error(), path) || strings.Contains(err.Error(), ".bflint-") {
		t.Errorf("Write to a missing folder: %v, want an error naming %s alone", err, path)
	}
}
