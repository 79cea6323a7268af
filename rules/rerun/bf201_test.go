package rerun

import (
	"strings"
	"testing"
)

// BF201's help names insert_overwrite only where it replaces the
// partitions a run writes.
func TestPartitionStrategiesByAdapter(t *testing.T) {
	for adapter, want := range map[string]string{
		"bigquery":   "insert_overwrite or microbatch",
		"Databricks": "insert_overwrite or microbatch",
		"snowflake":  "on Snowflake insert_overwrite replaces the whole table",
		"postgres":   ", or use microbatch",
		"":           "insert_overwrite where it replaces only the partitions written",
	} {
		if got := partitionStrategies(adapter); !strings.Contains(got, want) {
			t.Errorf("%q: %q, want it to say %q", adapter, got, want)
		}
	}
	if got := partitionStrategies("postgres"); strings.Contains(got, "insert_overwrite") {
		t.Errorf("postgres has no insert_overwrite: %q", got)
	}
}
