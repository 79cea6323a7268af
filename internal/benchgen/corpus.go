package benchgen

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
)

// Corpus is what WriteCorpus wrote.
type Corpus struct {
	Files []string // paths, in the order written
	Bytes int64
}

// WriteCorpus writes files SQL files into dir, shaped like a warehouse
// repository: about 60% dbt models (a config() block, a chain of CTEs,
// joins, window functions and an is_incremental() filter), about 38%
// backfill scripts (DELETE, INSERT ... SELECT, MERGE, CREATE TABLE AS in a
// transaction, some in Snowflake or Databricks syntax) and about 2% long
// day-by-day scripts of 40 KB. A thousand files come to about 4.8 MB.
func WriteCorpus(dir string, files int, seed uint64) (*Corpus, error) {
	rng := rand.New(rand.NewPCG(seed, 7))
	c := &Corpus{}
	for i := range files {
		var b strings.Builder
		var name string
		switch k := rng.IntN(100); {
		case k < 60:
			name = fmt.Sprintf("models/marts/fct_entity_%05d.sql", i)
			writeModelSQL(&b, rng)
		case k < 98:
			name = fmt.Sprintf("backfills/bf_%05d.sql", i)
			writeBackfillSQL(&b, rng, i)
		default:
			name = fmt.Sprintf("backfills/daily_%05d.sql", i)
			writeDailyScript(&b, rng, i, 40<<10)
		}
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			return nil, err
		}
		c.Files = append(c.Files, path)
		c.Bytes += int64(b.Len())
	}
	return c, nil
}

var (
	entities = []string{"orders", "customers", "sessions", "payments", "refunds", "shipments", "subscriptions", "invoices", "page_views", "ad_spend"}
	measures = []string{"amount_minor", "quantity", "discount_minor", "tax_minor", "duration_seconds", "items", "fee_minor", "net_amount_minor"}
)

func pick[T any](rng *rand.Rand, xs []T) T { return xs[rng.IntN(len(xs))] }

// columns returns n column expressions over alias, of the kinds dbt
// staging models are made of.
func columns(rng *rand.Rand, alias string, n int) []string {
	out := make([]string, n)
	for i := range out {
		m := pick(rng, measures)
		switch rng.IntN(5) {
		case 0:
			out[i] = fmt.Sprintf("coalesce(%s.%s_%d, 0) as %s_%d", alias, m, i, m, i)
		case 1:
			out[i] = fmt.Sprintf("cast(%s.%s_%d as numeric(18, 2)) as %s_%d", alias, m, i, m, i)
		case 2:
			out[i] = fmt.Sprintf("case when %s.status_%d in ('refunded', 'cancelled') then 0 else %s.%s_%d end as %s_%d", alias, i, alias, m, i, m, i)
		case 3:
			out[i] = fmt.Sprintf("lower(trim(%s.label_%d)) as label_%d", alias, i, i)
		default:
			out[i] = fmt.Sprintf("%s.attribute_%d", alias, i)
		}
	}
	return out
}

func writeModelSQL(b *strings.Builder, rng *rand.Rand) {
	entity := pick(rng, entities)
	incremental := rng.IntN(2) == 0
	if incremental {
		fmt.Fprintf(b, "{{\n  config(\n    materialized='incremental',\n    unique_key='%s_id',\n    incremental_strategy='merge'\n  )\n}}\n\n", entity)
	} else {
		b.WriteString("{{ config(materialized='table') }}\n\n")
	}
	ctes := 4 + rng.IntN(4)
	b.WriteString("with\n")
	for c := range ctes {
		name := fmt.Sprintf("step_%d", c)
		fmt.Fprintf(b, "%s as (\n\n    select\n        src.%s_id,\n        src.event_date,\n        src.updated_at,\n", name, entity)
		b.WriteString("        " + strings.Join(columns(rng, "src", 6+rng.IntN(10)), ",\n        "))
		if c == 0 {
			fmt.Fprintf(b, "\n    from {{ ref('stg_%s') }} as src\n", entity)
			fmt.Fprintf(b, "    left join {{ source('raw', '%s_events') }} as ev\n        on ev.%s_id = src.%s_id\n        and ev.event_date = src.event_date\n", entity, entity, entity)
		} else {
			fmt.Fprintf(b, ",\n        row_number() over (partition by src.%s_id order by src.updated_at desc) as recency\n    from step_%d as src\n", entity, c-1)
			if rng.IntN(3) == 0 {
				fmt.Fprintf(b, "    inner join {{ ref('dim_%s') }} as dim\n        on dim.%s_id = src.%s_id\n", pick(rng, entities), entity, entity)
			}
		}
		fmt.Fprintf(b, "    where src.event_date >= '2025-01-01'\n\n)%s\n\n", map[bool]string{true: ",", false: ""}[c < ctes-1])
	}
	fmt.Fprintf(b, "select\n    %s_id,\n    event_date,\n    updated_at,\n    sum(coalesce(amount_minor_0, 0)) over (partition by %s_id) as running_amount_minor\nfrom step_%d\n", entity, entity, ctes-1)
	if incremental {
		b.WriteString("{% if is_incremental() %}\nwhere updated_at > (select max(updated_at) from {{ this }})\n{% endif %}\n")
	}
}

func writeBackfillSQL(b *strings.Builder, rng *rand.Rand, i int) {
	entity := pick(rng, entities)
	target := fmt.Sprintf("analytics.fct_%s", entity)
	staging := fmt.Sprintf("backfill_staging.fct_%s__bf%05d", entity, i)
	month := 1 + rng.IntN(12)
	start, end := fmt.Sprintf("2026-%02d-01", month), fmt.Sprintf("2026-%02d-28", month)
	cols := columns(rng, "o", 8+rng.IntN(12))
	names := make([]string, len(cols))
	for j, c := range cols {
		names[j] = c[strings.LastIndexAny(c, " .")+1:]
	}
	fmt.Fprintf(b, "-- Backfill %s for %s to %s: recompute after the fix to %s.\n-- Re-runnable: each step replaces its own rows.\n\n", target, start, end, pick(rng, measures))
	snowflake := rng.IntN(4) == 0
	if snowflake {
		fmt.Fprintf(b, "create or replace table %s as\nselect\n    o.%s_id,\n    o.order_date,\n    %s\nfrom raw.%s as o\nwhere o.order_date between '%s' and '%s'\nqualify row_number() over (partition by o.%s_id order by o.updated_at desc) = 1;\n\n",
			staging, entity, strings.Join(cols, ",\n    "), entity, start, end, entity)
	} else {
		fmt.Fprintf(b, "create table %s as\nselect\n    o.%s_id,\n    o.order_date,\n    %s\nfrom raw.%s as o\nleft join raw.%s_adjustments as a\n    on a.%s_id = o.%s_id\nwhere o.order_date between '%s' and '%s';\n\n",
			staging, entity, strings.Join(cols, ",\n    "), entity, entity, entity, entity, start, end)
	}
	b.WriteString("begin;\n\n")
	switch rng.IntN(3) {
	case 0:
		fmt.Fprintf(b, "delete from %s\nwhere order_date between '%s' and '%s';\n\n", target, start, end)
		fmt.Fprintf(b, "insert into %s (%s_id, order_date, %s)\nselect %s_id, order_date, %s\nfrom %s;\n\n",
			target, entity, strings.Join(names, ", "), entity, strings.Join(names, ", "), staging)
	case 1:
		set := make([]string, len(names))
		vals := make([]string, len(names))
		for j, n := range names {
			set[j] = fmt.Sprintf("%s = s.%s", n, n)
			vals[j] = "s." + n
		}
		fmt.Fprintf(b, "merge into %s as t\nusing %s as s\n    on t.%s_id = s.%s_id\n    and t.order_date = s.order_date\nwhen matched then update set\n    %s\nwhen not matched then insert (%s_id, order_date, %s)\n    values (s.%s_id, s.order_date, %s);\n\n",
			target, staging, entity, entity, strings.Join(set, ",\n    "), entity, strings.Join(names, ", "), entity, strings.Join(vals, ", "))
	default:
		fmt.Fprintf(b, "insert overwrite table %s partition (order_date)\nselect %s_id, %s, order_date\nfrom %s\nwhere order_date between '%s' and '%s';\n\n",
			target, entity, strings.Join(names, ", "), staging, start, end)
	}
	fmt.Fprintf(b, "update analytics.backfill_log\nset finished_at = current_timestamp, status = 'done'\nwhere backfill_id = 'bf%05d';\n\ncommit;\n\n", i)
	fmt.Fprintf(b, "select order_date, count(*) as row_count, sum(%s) as total\nfrom %s\nwhere order_date between '%s' and '%s'\ngroup by order_date\norder by order_date;\n", names[0], target, start, end)
}

// writeDailyScript writes one INSERT per day until the file holds size
// bytes, the way hand-written backfills of a few months look.
func writeDailyScript(b *strings.Builder, rng *rand.Rand, i, size int) {
	entity := pick(rng, entities)
	fmt.Fprintf(b, "-- Day-by-day backfill %05d of analytics.daily_%s.\n\n", i, entity)
	for day := 0; b.Len() < size; day++ {
		date := fmt.Sprintf("2026-%02d-%02d", 1+day/28%12, 1+day%28)
		fmt.Fprintf(b, "delete from analytics.daily_%s where event_date = '%s';\n", entity, date)
		fmt.Fprintf(b, "insert into analytics.daily_%s (event_date, %s_id, total_minor, row_count)\nselect event_date, %s_id, sum(amount_minor), count(*)\nfrom analytics.fct_%s\nwhere event_date = '%s'\ngroup by event_date, %s_id;\n\n",
			entity, entity, entity, entity, date, entity)
	}
}

// WritePrecommitProject writes what a pre-commit hook sees after a commit
// that touches one backfill: a plan in dir naming the dbt manifest at
// manifestPath and five SQL files beside it.
func WritePrecommitProject(dir, manifestPath string, seed uint64) error {
	rng := rand.New(rand.NewPCG(seed, 11))
	sqlDir := filepath.Join(dir, "sql")
	if err := os.MkdirAll(sqlDir, 0o755); err != nil {
		return err
	}
	for i, name := range []string{"build", "publish", "rollback", "capture", "validate"} {
		var b strings.Builder
		writeBackfillSQL(&b, rng, i)
		if err := os.WriteFile(filepath.Join(sqlDir, name+".sql"), []byte(b.String()), 0o644); err != nil {
			return err
		}
	}
	manifestRef, err := filepath.Rel(dir, manifestPath)
	if err != nil {
		manifestRef = manifestPath
	}
	plan := fmt.Sprintf(`bflint: 1
id: bf20261130_a
target: analytics.model_000100
owner: data-eng
reason: >-
  A fix to the refund logic changed net amounts from 2026-01-14 on.
range:
  start: 2026-01-14
  end: 2026-06-30
  grain: day
  timezone: UTC
  partition_column: order_date
rerun:
  write: merge
  key: [order_id]
compute:
  environment: isolated
  max_concurrency: 4
staging:
  relation: backfill_staging.model_000100__bf20261130_a
  build: sql/build.sql
validation:
  checks:
    - name: reconciliation
      sql: sql/validate.sql
      pass: "max_abs_delta_pct <= 0.5"
publish:
  mode: whole_range
  mechanism: merge
  sql: sql/publish.sql
rollback:
  mechanism: restore_copy
  location: backfill_rollback.model_000100__pre_bf20261130_a
  retained_until: 2027-12-31
  restorable_by: data-platform-oncall
  restore_time: 30m
  capture: sql/capture.sql
  sql: sql/rollback.sql
  tested: true
downstream:
  manifest: %s
  rebuild: [model_000101]
  notify: [dashboard_0001]
`, filepath.ToSlash(manifestRef))
	return os.WriteFile(filepath.Join(dir, "fix.backfill.yaml"), []byte(plan), 0o644)
}
