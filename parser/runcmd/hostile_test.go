package runcmd

import (
	"strings"
	"testing"
	"time"
)

// TestHostileLines feeds long repetitive lines: a plan may hold anything,
// and reading it must take time in proportion to its length.
func TestHostileLines(t *testing.T) {
	for _, unit := range []string{"{{", "$(", "a ", "'x' ", "\\\n", "-s ", "2>", "`x` "} {
		line := "dbt run " + strings.Repeat(unit, 200_000)
		start := time.Now()
		Parse(line)
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("%q repeated: %v", unit, d)
		}
	}
}
