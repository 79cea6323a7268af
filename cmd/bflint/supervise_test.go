package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestChildExit runs a stand-in for the child that ends each way a run
// can: its own codes pass through, a stop by SIGINT or SIGTERM is the
// shell's 130 or 143, and a crash, whether the runtime's exit status 2 or
// a signal such as SIGSEGV or SIGKILL, is exit 3 with a message.
func TestChildExit(t *testing.T) {
	for _, c := range []struct {
		script string
		code   int
		says   string
	}{
		{"exit 10", exitClean, ""},
		{"exit 11", exitFindings, ""},
		{"exit 12", exitUsage, ""},
		{"exit 13", exitInternal, ""},
		{"exit 130", exitInterrupted, ""},
		{"exit 2", exitInternal, "crashed (exit status 2)"},
		{"kill -SEGV $$", exitInternal, "crashed (killed by segmentation fault"},
		{"kill -KILL $$", exitInternal, "crashed (killed by killed"},
		{"kill -TERM $$", exitTerminated, ""},
	} {
		var stderr bytes.Buffer
		code, err := superviseChild("/bin/sh", []string{"-c", c.script}, &stderr)
		if err != nil {
			t.Fatalf("%s: %v", c.script, err)
		}
		if code != c.code || (c.says == "") != (stderr.Len() == 0) || !strings.Contains(stderr.String(), c.says) {
			t.Errorf("%s: exit %d, stderr %q; want %d and %q", c.script, code, stderr.String(), c.code, c.says)
		}
	}
}
