// Package earlychild starts bflint's child process while the parent is
// still initializing. bflint runs its work in a child of the same binary
// (cmd/bflint/supervise.go); the parent only waits, yet it would first
// initialize every package the binary holds, the SQL parser's protobuf
// descriptors among them, some 8 ms before it started the child. Go
// initializes packages in the order of their import paths once their
// imports are ready, and this one imports only os and syscall, which the
// parser's packages need too: it runs before them.
package earlychild

import (
	"os"
	"syscall"
)

// Env marks the child process; its value is "1".
const Env = "BFLINT_SUPERVISED"

// Pid is the child started at initialization, 0 when none was: the parent
// then starts it itself, later.
var Pid int

func init() {
	// Only the command itself: a test binary of the same package, or a
	// copy renamed, starts its child the usual way, if at all.
	if _, set := os.LookupEnv(Env); set || base(os.Args[0]) != "bflint" {
		return
	}
	exe, err := os.Executable()
	if err != nil {
		return
	}
	argv := append([]string{exe}, os.Args[1:]...)
	pid, err := syscall.ForkExec(exe, argv, &syscall.ProcAttr{
		Env:   append(os.Environ(), Env+"=1"),
		Files: []uintptr{0, 1, 2},
		// Until the parent handles signals, one that ends it ends the
		// child too, which then removes its temporary files; package
		// initialization runs on the main thread, whose end this is.
		Sys: &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM},
	})
	if err == nil {
		Pid = pid
	}
}

// base is filepath.Base for a path of slashes, which path/filepath, a
// package initialized after the parser's, would provide.
func base(path string) string {
	for i := len(path) - 1; i >= 0; i-- {
		if path[i] == '/' {
			return path[i+1:]
		}
	}
	return path
}
