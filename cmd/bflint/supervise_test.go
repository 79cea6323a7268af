package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// asBflintEnv makes the test binary run as bflint itself (TestMain), so
// that a test can run the whole process, supervisor and child, as a shell
// runs it.
const asBflintEnv = "BFLINT_TEST_AS_BFLINT"

// bflintProcess is the test binary set up to run as bflint with args.
func bflintProcess(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Skipf("cannot find the test binary: %v", err)
	}
	cmd := exec.Command(exe, args...)
	cmd.Env = append(os.Environ(), asBflintEnv+"=1", "BFLINT_CACHE_DIR=off")
	return cmd
}

// TestClosedStdout closes the read end of stdout before bflint writes, as
// "bflint rules | head -1" does once it has its line: the run ends
// quietly with exit 0, not as a crash, for a listing and for a report.
func TestClosedStdout(t *testing.T) {
	for _, args := range [][]string{
		{"rules"},
		{"--now", examplesNow, "--format", "sarif", "../../examples/broken"},
		{"--now", examplesNow, "--format", "json=/dev/stdout", "../../examples/broken"},
	} {
		cmd := bflintProcess(t, args...)
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		stdout.Close()
		err = cmd.Wait()
		if code := cmd.ProcessState.ExitCode(); err != nil || stderr.Len() > 0 {
			t.Errorf("bflint %s with stdout closed: exit %d (%v), stderr %q; want exit 0 and nothing said",
				strings.Join(args, " "), code, err, stderr.String())
		}
	}
}

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

// TestEarlyChild runs the command under its own name, as installed, so
// that the child starts while the parent initializes (internal/earlychild):
// what the run prints and ends with is what a test binary, which starts
// its child later, gives.
func TestEarlyChild(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Skipf("cannot find the test binary: %v", err)
	}
	content, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	named := filepath.Join(t.TempDir(), "bflint")
	if err := os.WriteFile(named, content, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"rules"},
		{"--now", examplesNow, "--format", "json", "../../examples/broken"},
	} {
		run := func(path string) (string, int) {
			cmd := exec.Command(path, args...)
			cmd.Env = append(os.Environ(), asBflintEnv+"=1", "BFLINT_CACHE_DIR=off")
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			cmd.Run()
			return stdout.String() + stderr.String(), cmd.ProcessState.ExitCode()
		}
		wantOut, wantCode := run(exe)
		gotOut, gotCode := run(named)
		if gotCode != wantCode || gotOut != wantOut || gotOut == "" {
			t.Errorf("bflint %s: exit %d and %d bytes of output, want exit %d and the %d bytes the test binary prints",
				strings.Join(args, " "), gotCode, len(gotOut), wantCode, len(wantOut))
		}
	}
}
