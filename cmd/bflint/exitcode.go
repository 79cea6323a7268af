package main

import (
	"errors"
	"fmt"
)

// Exit codes do not depend on the output format.
const (
	exitClean    = 0 // no finding at or above --fail-on
	exitFindings = 1 // findings at or above --fail-on
	exitUsage    = 2 // the command line, the configuration or a named file is wrong
	exitInternal = 3 // bflint itself failed
)

// exitError carries an exit code and the message printed on stderr.
type exitError struct {
	code int
	msg  string
	// helpFor is the command whose --help the message is followed by
	// pointing to, for a mistake in how bflint was called; "" for an
	// error about the input, where the help would not say more.
	helpFor string
}

func (e *exitError) Error() string { return e.msg }

// usageErrorf is a mistake in the lint command line.
func usageErrorf(format string, args ...any) error {
	return commandUsageErrorf("", format, args...)
}

// commandUsageErrorf is a mistake in how the command was called; "" is
// lint, whose help is bflint's.
func commandUsageErrorf(command, format string, args ...any) error {
	help := "bflint"
	if command != "" && command != "lint" {
		help += " " + command
	}
	return &exitError{code: exitUsage, msg: fmt.Sprintf(format, args...), helpFor: help}
}

// inputErrorf is a configuration, a named file or a destination bflint
// cannot use: exit 2, with no pointer to the help.
func inputErrorf(format string, args ...any) error {
	return &exitError{code: exitUsage, msg: fmt.Sprintf(format, args...)}
}

func internalErrorf(format string, args ...any) error {
	return &exitError{code: exitInternal, msg: fmt.Sprintf(format, args...)}
}

// exitCodeOf maps an error returned by a command to the process exit code.
func exitCodeOf(err error) int {
	if err == nil {
		return exitClean
	}
	var e *exitError
	if errors.As(err, &e) {
		return e.code
	}
	return exitInternal
}
