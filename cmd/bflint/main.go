// Command bflint lints data backfill plans and the SQL they run.
package main

import (
	"os"
	_ "time/tzdata" // IANA zones for range.timezone on machines without a zoneinfo database
)

func main() {
	// The collector's pacing (gcpace.go); GOGC and GOMEMLIMIT in the
	// environment still decide.
	paceCollector(os.Getenv("GOGC") == "", os.Getenv("GOMEMLIMIT") == "")
	os.Exit(supervised(os.Args[1:]))
}
