// Command bflint lints data backfill plans and the SQL they run.
package main

import (
	"os"
	_ "time/tzdata" // IANA zones for range.timezone on machines without a zoneinfo database
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}
