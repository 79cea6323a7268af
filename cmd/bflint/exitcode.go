package main

import (
	"errors"
	"fmt"
)

// Exit codes do not depend on the output format.
const (
	exitClean    = 0 // no finding at or above --fail-on
	exitFindings = 1 // findings at or above --fail-on
	exitUsage    = 2 // bflint's own usage or configuration is wrong
	exitInternal = 3 // bflint itself failed
)

// exitError carries an exit code and the message printed on stderr.
type exitError struct {
	code int
	msg  string
}

func (e *exitError) Error() string { return e.msg }

func usageErrorf(format string, args ...any) error {
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
