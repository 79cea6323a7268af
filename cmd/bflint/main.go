// Command bflint lints data backfill plans and the SQL they run.
package main

import (
	"os"
	"runtime/debug"
	_ "time/tzdata" // IANA zones for range.timezone on machines without a zoneinfo database
)

func main() {
	// A run keeps little alive (each SQL file's parse is dropped after its
	// rules) but allocates a great deal, so the default GOGC collects every
	// few megabytes. Twice the headroom costs some 15 MB on 1,000 files and
	// a tenth of the run's time; GOGC in the environment still decides.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(200)
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}
