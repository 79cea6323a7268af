package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"syscall"

	"github.com/bflint/bflint/internal/earlychild"
	"github.com/bflint/bflint/internal/outfile"
)

// A crash of the Go runtime (out of memory, a fault in the C parser, a
// panic outside a rule's recover) ends the process with status 2, which
// is bflint's usage code: a CI job would read a crash as a wrong flag.
// So the command runs its work in a child process of the same binary
// and reads how the child ended: the child offsets its own exit codes by
// childOffset, and anything else it ends with, a signal or the runtime's
// 2, is a crash, exit 3.

// supervisedEnv marks the child process.
const supervisedEnv = earlychild.Env

// childOffset is added to the exit code of the child's run.
const childOffset = 10

// Exit statuses of a run stopped by SIGINT or SIGTERM, as shells report
// them.
const (
	exitInterrupted = 128 + int(syscall.SIGINT)
	exitTerminated  = 128 + int(syscall.SIGTERM)
)

// supervised runs the command: in the child, run itself under a handler
// that removes temporary files on SIGINT and SIGTERM; in the parent, the
// child. A parent that cannot start the child runs the command itself.
func supervised(args []string) int {
	if os.Getenv(supervisedEnv) == "1" {
		stopOnSignal()
		return run(args, os.Stdout, os.Stderr) + childOffset
	}
	if earlychild.Pid != 0 {
		if child, err := os.FindProcess(earlychild.Pid); err == nil {
			return waitChild(child, os.Stderr)
		}
	}
	exe, err := os.Executable()
	if err != nil {
		stopOnSignal()
		return run(args, os.Stdout, os.Stderr)
	}
	code, err := superviseChild(exe, args, os.Stderr)
	if err != nil {
		stopOnSignal()
		return run(args, os.Stdout, os.Stderr)
	}
	return code
}

// superviseChild runs exe with args as the child, its standard streams
// the parent's own, forwarding the signals that stop a run, and returns
// the exit code the command ends with. An error means the child could not
// start.
func superviseChild(exe string, args []string, stderr io.Writer) (int, error) {
	cmd := exec.Command(exe, args...)
	cmd.Env = append(os.Environ(), supervisedEnv+"=1")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	return waitChild(cmd.Process, stderr), nil
}

// waitChild waits for the child, forwarding the signals that stop a run,
// and returns the exit code the command ends with.
func waitChild(child *os.Process, stderr io.Writer) int {
	signals := make(chan os.Signal, 4)
	signal.Notify(signals, syscall.SIGINT, syscall.SIGTERM)
	defer signal.Stop(signals)
	done := make(chan struct{})
	go func() {
		for {
			select {
			case s := <-signals:
				child.Signal(s)
			case <-done:
				return
			}
		}
	}()
	state, err := child.Wait()
	close(done)
	switch {
	case err != nil:
		fmt.Fprintf(stderr, "bflint: %v\n", err)
		return exitInternal
	case state.Success():
		return exitClean
	}
	return childExit(state, stderr)
}

// childExit turns how the child ended into the command's exit code.
func childExit(state *os.ProcessState, stderr io.Writer) int {
	code := state.ExitCode()
	switch {
	case code >= childOffset+exitClean && code <= childOffset+exitInternal:
		return code - childOffset
	case code == exitInterrupted, code == exitTerminated:
		return code
	}
	if ws, ok := state.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		if ws.Signal() == syscall.SIGINT || ws.Signal() == syscall.SIGTERM {
			return 128 + int(ws.Signal())
		}
		fmt.Fprintf(stderr, "bflint: crashed (killed by %v: out of memory, or the system stopped it); the output above is incomplete. If it recurs, please report it as a bflint bug.\n", ws.Signal())
		return exitInternal
	}
	fmt.Fprintf(stderr, "bflint: crashed (exit status %d); the output above is incomplete. Please report this as a bflint bug, with the message above.\n", code)
	return exitInternal
}

// stopOnSignal ends the process on SIGINT or SIGTERM, first removing the
// temporary files of the outputs being written, which would otherwise be
// left beside them. SIGPIPE is caught, not acted on: a write to a stdout
// whose reader has gone then fails with EPIPE, which run takes for the
// quiet end it is, instead of the runtime killing the process, which the
// parent would report as a crash.
func stopOnSignal() {
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGINT, syscall.SIGTERM)
	go func() {
		s := <-signals
		outfile.RemoveTemporaries()
		code := exitInterrupted
		if s == syscall.SIGTERM {
			code = exitTerminated
		}
		os.Exit(code)
	}()
}
