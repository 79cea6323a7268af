//go:build !linux

// Package earlychild starts bflint's child process while the parent is
// still initializing, on Linux; elsewhere the parent starts it itself.
package earlychild

// Env marks the child process; its value is "1".
const Env = "BFLINT_SUPERVISED"

// Pid is the child started at initialization: none here.
var Pid int
