package main

import (
	"errors"
	"fmt"
	"io"
	"strings"
)

const usage = `bflint checks data backfill plans before the first partition runs.

Usage:
  bflint [lint] [flags] [path ...]   lint plans and SQL under the paths (default .)
                                     (--fix first applies the safe fixes of BF801 and BF802)
  bflint rules [--format text|json]  list every rule
  bflint explain CODE|NAME           show a rule's documentation with examples
  bflint lineage TARGET [--manifest FILE] [--format text|json]
                                     what is derived from a dbt node: rebuild order, snapshots, exposures
  bflint init --target T --start D --end D [--manifest FILE] [--id ID] [--grain G]
                                     print a plan skeleton for T, downstream lists filled from the manifest
  bflint schema                      print the JSON Schema of the plan format
  bflint version                     print the version

Lint flags:
`

const environmentHelp = `
Environment:
  BFLINT_CACHE_DIR   where decoded dbt manifests are cached (default: bflint in
                     the user cache folder); "off" turns the cache off
  GOGC, GOMEMLIMIT   Go's garbage collector settings; bflint uses GOGC=200
                     unless GOGC is set
`

// run executes one bflint invocation and returns the exit code. It never
// calls os.Exit, so tests drive the whole CLI through it.
func run(args []string, stdout, stderr io.Writer) int {
	err := dispatch(args, stdout, stderr)
	var e *exitError
	switch {
	case err == nil:
	case errors.As(err, &e) && e.msg == "":
	default:
		fmt.Fprintf(stderr, "bflint: %s\n", strings.TrimSpace(err.Error()))
		if exitCodeOf(err) == exitUsage {
			fmt.Fprintln(stderr, "Run 'bflint --help' for usage.")
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
		case "version", "--version", "-version":
			if len(args) > 1 {
				return usageErrorf("version takes no arguments")
			}
			fmt.Fprintln(stdout, currentVersion())
			return nil
		case "help":
			return lintCommand([]string{"--help"}, stdout, stderr)
		}
	}
	return lintCommand(args, stdout, stderr)
}
