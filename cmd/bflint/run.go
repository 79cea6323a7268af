package main

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"syscall"

	"github.com/bflint/bflint/parser/source"
)

const environmentHelp = `
Environment:
  BFLINT_CACHE_DIR   where decoded dbt manifests are cached (default: bflint in
                     the user cache folder); "off" turns the cache off
  GOGC, GOMEMLIMIT   Go's garbage collector settings; bflint uses GOGC=200,
                     raised while less than 40 MiB would be collected,
                     unless GOGC is set
`

// run executes one bflint invocation and returns the exit code. It never
// calls os.Exit, so tests drive the whole CLI through it.
//
// A reader that closes stdout early (bflint rules | head -1) has taken
// what it wanted: the run ends quietly with exit 0, as git and ripgrep
// do, rather than reporting the write that failed.
func run(args []string, stdout, stderr io.Writer) int {
	// Outputs are refused over what this run reads (refuseReadOutputs).
	source.ForgetReads()
	out := &readerAware{w: stdout}
	err := dispatch(args, out, stderr)
	if out.closed {
		return exitClean
	}
	var e *exitError
	switch {
	case err == nil:
	case errors.As(err, &e) && e.msg == "":
	default:
		fmt.Fprintf(stderr, "bflint: %s\n", strings.TrimSpace(err.Error()))
		if errors.As(err, &e) && e.helpFor != "" {
			fmt.Fprintf(stderr, "Run '%s --help' for usage.\n", e.helpFor)
		}
	}
	return exitCodeOf(err)
}

func dispatch(args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 {
		switch args[0] {
		case "lint":
			return lintCommand(args[1:], stdout, stderr)
		case "rules":
			return rulesCommand(args[1:], stdout)
		case "explain":
			return explainCommand(args[1:], stdout)
		case "schema":
			return schemaCommand(args[1:], stdout)
		case "lineage":
			return lineageCommand(args[1:], stdout)
		case "init":
			return initCommand(args[1:], stdout)
		case "models":
			return modelsCommand(args[1:], stdout)
		case "brief":
			return briefCommand(args[1:], stdout, stderr)
		case "completion":
			return completionCommand(args[1:], stdout)
		case "version", "--version", "-version":
			if len(args) == 2 && isHelpFlag(args[1]) {
				writeCommandHelp(stdout, lookupSubcommand("version"))
				return nil
			}
			if len(args) > 1 {
				return commandUsageErrorf("version", "version takes no arguments")
			}
			fmt.Fprintln(stdout, currentVersion())
			return nil
		case "help":
			return helpCommand(args[1:], stdout, stderr)
		}
	}
	return lintCommand(args, stdout, stderr)
}

func isHelpFlag(arg string) bool {
	return arg == "-h" || arg == "--help" || arg == "-help"
}

// readerAware is stdout, noting when its reader has gone away.
type readerAware struct {
	w      io.Writer
	closed bool
}

func (r *readerAware) Write(p []byte) (int, error) {
	if r.closed {
		return 0, syscall.EPIPE
	}
	n, err := r.w.Write(p)
	if errors.Is(err, syscall.EPIPE) {
		r.closed = true
	}
	return n, err
}
