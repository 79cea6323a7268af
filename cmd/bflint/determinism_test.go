package main

import (
	"bytes"
	"testing"
)

// TestDeterministicOutput lints the rule fixtures (hundreds of plans and SQL
// files, many findings) with one worker and with eight, twice each, and
// requires byte-identical JSON and SARIF: a report must not depend on
// scheduling.
func TestDeterministicOutput(t *testing.T) {
	for _, format := range []string{"json", "sarif"} {
		var first []byte
		for i, jobs := range []string{"1", "8", "1", "8"} {
			var stdout, stderr bytes.Buffer
			code := run([]string{"--now", examplesNow, "--format", format, "-j", jobs, "--fail-on", "never", "../../testdata/rules"}, &stdout, &stderr)
			if code != exitClean {
				t.Fatalf("%s -j %s: exit %d: %s", format, jobs, code, stderr.String())
			}
			if stdout.Len() < 10_000 {
				t.Fatalf("%s -j %s: only %d bytes of output; the run should find plenty", format, jobs, stdout.Len())
			}
			if i == 0 {
				first = stdout.Bytes()
				continue
			}
			if !bytes.Equal(first, stdout.Bytes()) {
				t.Errorf("%s output of run %d (-j %s) differs from the first run", format, i+1, jobs)
			}
		}
	}
}
