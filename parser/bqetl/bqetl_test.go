package bqetl

import (
	"go/token"
	"strings"
	"testing"
	"time"

	"github.com/bflint/bflint/parser/source"
)

func TestPlansFromEntries(t *testing.T) {
	fset := token.NewFileSet()
	meta := source.Add(fset, "sql/shop-prod/orders_derived/totals_v1/metadata.yaml", []byte(`friendly_name: Totals
owners: [a@example.com]
bigquery:
  time_partitioning:
    type: day
    field: submission_date
    expiration_days: 775.0
scheduling:
  date_partition_parameter: null
  date_partition_offset: -1
references:
  query.sql:
  - shop-prod.orders_stable.events_v1
`))
	entries := source.Add(fset, "sql/shop-prod/orders_derived/totals_v1/backfill.yaml", []byte(`2026-05-26:
  start_date: 2026-05-01
  end_date: 2026-05-25
  excluded_dates:
  - 2026-05-10
  reason: Fix.
  watchers: [a@example.com]
  status: Initiate
2026-04-01:
  start_date: 2026-03-01
  end_date: 2026-03-31
  reason: Earlier fix.
  watchers: [a@example.com]
  status: Complete
  ignore_date_partition_offset: true
`))
	table := ReadTable(meta)
	if !table.Null || table.DateParameter.Set || table.Offset.V != -1 || !table.ExpirationDays.Limited || table.ExpirationDays.Days != 775 || table.Field.V != "submission_date" {
		t.Fatalf("metadata read as %+v", table)
	}
	f := ReadFile(entries)
	if len(f.Problems) != 0 {
		t.Fatalf("problems: %v", f.Problems)
	}
	plans := Plans(f, table, "sql/shop-prod/orders_derived/totals_v1")
	if len(plans) != 2 {
		t.Fatalf("%d plans, want one per entry", len(plans))
	}
	p := plans[0]
	if p.Target.V != "shop-prod.orders_derived.totals_v1" || p.ID.V != "bqetl_2026_05_26" {
		t.Errorf("target %q, id %q", p.Target.V, p.ID.V)
	}
	// The offset moves the partitions a day back; the entry's own dates stay.
	if p.Range.Start.Raw != "2026-04-30" || p.Range.End.Raw != "2026-05-24" || Of(p).Entry.EndDate.Raw != "2026-05-25" {
		t.Errorf("range %s..%s", p.Range.Start.Raw, p.Range.End.Raw)
	}
	if got := plans[1].Range.Start.Raw; got != "2026-03-01" {
		t.Errorf("an ignored offset moved the range to %s", got)
	}
	if want := "moz-fx-data-shared-prod.backfills_staging_derived.shop_prod__orders_derived__totals_v1_2026_05_26"; Of(p).Staging != want {
		t.Errorf("staging %q, want %q", Of(p).Staging, want)
	}
	if pos := fset.Position(p.Range.End.Key); pos.Line != 3 {
		t.Errorf("range.end points at line %d, want the entry's end_date on line 3", pos.Line)
	}
}

func TestEntryProblems(t *testing.T) {
	fset := token.NewFileSet()
	f := ReadFile(source.Add(fset, "backfill.yaml", []byte(`2026-05-26:
  start_date: 2026-05-01
  end_date: 2026-05-27
  reason: Fix.
  watchers: [a@example.com]
  status: initiate
  overide_retention_limit: true
2026-05-26:
  start_date: 2026-05-01
`)))
	var msgs []string
	for _, p := range f.Problems {
		msgs = append(msgs, p.Message)
	}
	all := strings.Join(msgs, "\n")
	for _, want := range []string{
		`unknown key "overide_retention_limit"`, `did you mean "override_retention_limit"`,
		"end_date 2026-05-27 is after the entry date 2026-05-26",
		"a second entry for 2026-05-26",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("problems lack %q:\n%s", want, all)
		}
	}
	if strings.Contains(all, "status") {
		t.Errorf("bqetl reads status case-insensitively: %s", all)
	}
}

func TestPlansWithoutEntries(t *testing.T) {
	fset := token.NewFileSet()
	table := ReadTable(nil)
	if got := Plans(ReadFile(source.Add(fset, "empty/backfill.yaml", []byte("{}\n"))), table, "sql/p/d/t"); len(got) != 0 {
		t.Errorf("an empty mapping gave %d plans", len(got))
	}
	bad := Plans(ReadFile(source.Add(fset, "bad/backfill.yaml", []byte("not-a-date:\n  start_date: 2026-01-01\n"))), table, "sql/p/d/t")
	if len(bad) != 1 || bad[0].Readable || len(bad[0].Problems) == 0 {
		t.Fatalf("a file without a readable entry: %+v", bad)
	}
}

func TestCorrects(t *testing.T) {
	tests := []struct {
		reason string
		want   bool
	}{
		{"Fix duplicated orders from the mobile app", true},
		{"Rows missing because the upstream job ran too early", true},
		{"Logic change: recompute the table", true},
		{"Initial backfill", false},
		{"Populate the new discount column", false},
		// A field named by itself and missing is a first fill of it.
		{"discount_code missing period", false},
		{"sales_channel values are missing before the launch", false},
		// A schema change reprocessed fills the columns it added.
		{"Schema changes requiring reprocessing", false},
		{"Fix missing sales_channel", true},
		{"Backfill for the dashboard", false},
		// Plain corrections, whatever else the entry fills.
		{"Backfill dates where error in query caused Pocket clicks to be 0.", true},
		{"Fix some known issues and populate the new ended_reason field", true},
		{"Update historical records after some ETL join conditions were corrected", true},
		{"Backfill downstream of attribution_clients_v1 logic update", true},
		{"Backfill due to upstream query change.", true},
		{"Need to redo backfill to make sure the data matches the query.", true},
		{"Exclude some nonsensical subscription attribution values", true},
		// A run that failed is not a correction of rows.
		{"The previous backfill failed, possibly due to Kubernetes errors. Trying again.", false},
	}
	for _, tt := range tests {
		e := &Entry{}
		e.Reason.V = tt.reason
		if got := e.Corrects(); got != tt.want {
			t.Errorf("Corrects(%q) = %t, want %t", tt.reason, got, tt.want)
		}
	}
}

// The staging and backup tables are named as bqetl names them: the
// project is a prefix only outside the default project, and was none
// before bqetl began prefixing.
func TestStagingAndBackupNames(t *testing.T) {
	day := time.Date(2026, 9, 1, 0, 0, 0, 0, time.UTC)
	for _, c := range []struct{ got, want string }{
		{StagingTable("moz-fx-data-shared-prod.telemetry_derived.clients_daily_v6", day), "moz-fx-data-shared-prod.backfills_staging_derived.telemetry_derived__clients_daily_v6_2026_09_01"},
		{BackupTable("moz-fx-data-shared-prod.telemetry_derived.clients_daily_v6", day), "moz-fx-data-shared-prod.backfills_staging_derived.telemetry_derived__clients_daily_v6_backup_2026_09_01"},
		{BackupTable("moz-fx-data-marketing-prod.ga_derived.sessions_v2", day), "moz-fx-data-shared-prod.backfills_staging_derived.moz_fx_data_marketing_prod__ga_derived__sessions_v2_backup_2026_09_01"},
		{unprefixedStaging("moz-fx-data-marketing-prod.ga_derived.sessions_v2", day), "moz-fx-data-shared-prod.backfills_staging_derived.ga_derived__sessions_v2_2026_09_01"},
		{StagingTable("ga_derived.sessions_v2", day), ""},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}
