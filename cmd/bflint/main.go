// Command bflint lints data backfill plans and the SQL they run.
package main

import (
	"os"
	"runtime/debug"
	_ "time/tzdata" // IANA zones for range.timezone on machines without a zoneinfo database
)

// softMemoryLimit is the heap size past which the collector works harder.
const softMemoryLimit = 320 << 20

func main() {
	// A run keeps little alive (each SQL file's parse is dropped after its
	// rules) but allocates a great deal, so the default GOGC collects every
	// few megabytes. GOGC=200 is the middle ground measured on 1,000
	// generated SQL files, interleaved runs: 7% slower than GOGC=400 at the
	// median for 30% less memory (71 against 102 MiB), and Go's default
	// 100 was 13% slower again at 54 MiB. On real warehouse repositories
	// GOGC=400 peaked above 150 MiB. A small run is let grow to heapFloor
	// (keepHeapFloor). GOGC in the environment still decides.
	if os.Getenv("GOGC") == "" {
		keepHeapFloor(200)
	}
	// GOGC=200 lets the heap grow to three times what is alive. Past
	// softMemoryLimit the collector runs as often as it needs to stay
	// there instead, so a run over a hostile file (60 MB of SQL, of
	// which bflint keeps the first 4 MiB) peaks near 340 MB, not 575.
	// Runs over real repositories stay below it and are not slowed.
	// GOMEMLIMIT in the environment still decides.
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(softMemoryLimit)
	}
	os.Exit(supervised(os.Args[1:]))
}
