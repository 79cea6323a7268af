package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestEveryCommandHasHelp runs COMMAND --help, -h and help COMMAND for
// every command bflint lists: each prints its usage on stdout and exits 0.
func TestEveryCommandHasHelp(t *testing.T) {
	for _, c := range subcommands {
		for _, args := range [][]string{{c.name, "--help"}, {c.name, "-h"}, {"help", c.name}} {
			var stdout, stderr bytes.Buffer
			code := run(args, &stdout, &stderr)
			if code != exitClean || !strings.Contains(stdout.String(), "Usage") || stderr.Len() != 0 {
				t.Errorf("bflint %s: exit %d, stderr %q, stdout without Usage:\n%s", strings.Join(args, " "), code, stderr.String(), stdout.String())
			}
		}
	}
}
