// Package downstream holds the rules about what a correction leaves behind
// it in the dbt lineage: the stored models derived from the target that
// must be rebuilt, in an order that reads corrected data; the snapshots that
// cannot be rebuilt; the exposures whose readers must be told; names the
// manifest does not know; and a manifest too old to trust for any of it.
//
// They read the unit's manifest alone (no dbt, no warehouse) and stay
// silent without one: BF003 reports a manifest that cannot be read.
package downstream

import "github.com/bflint/bflint/rules"

// Rules are the downstream family.
var Rules = []*rules.Rule{
	UnlistedDownstream,
	RebuildOrder,
	UnknownNode,
	UnnotifiedExposure,
	StaleManifest,
	SnapshotDownstream,
	DownstreamRangeShort,
}
