#!/usr/bin/env bash
# Inputs whose work could grow with the square of their size, and SQL files
# far past the read limits, each run against a time and memory bound:
#   bash scripts/hostile-scale.sh [BFLINT]
# BFLINT is a built binary (go build -o ... ./cmd/bflint builds one when
# it is not given). Each case prints its wall time and peak memory; a case
# past its bound fails the script. The bounds are those of the hostile
# input issue (3,000 overlapping plans and 13,000 missing downstream models
# under 5 s, a 60 MB SQL file under 500 MB, 10,000 entries in one
# backfill.yaml under 5 s) and, for the other cases, about
# four times what this machine measured, to stay clear of a busy runner.
set -euo pipefail
cd "$(dirname "$0")/.."

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bflint=${1:-}
if [ -z "$bflint" ]; then
  bflint="$work/bflint"
  go build -o "$bflint" ./cmd/bflint
fi
if ! [ -x /usr/bin/time ]; then
  echo "hostile-scale needs GNU time (/usr/bin/time, Debian package time)"
  exit 1
fi

failed=0
# measure NAME SECONDS MEGABYTES CODE ARGS...: bflint must end with a
# verdict (exit 0 or 1) within the bounds, its report holding a finding of
# rule CODE.
measure() {
  local name=$1 seconds=$2 megabytes=$3 code=$4
  shift 4
  local status=0
  /usr/bin/time -f '%e %M' -o "$work/time" timeout 120 "$bflint" --now 2026-12-01 --format json --output "$work/report.json" "$@" >/dev/null 2>"$work/stderr" || status=$?
  read -r wall kilobytes < <(tail -1 "$work/time")
  local peak=$((kilobytes / 1024))
  printf '%-40s exit %d, %6.2f s, %4d MB (bounds %s s, %s MB)\n' "$name" "$status" "$wall" "$peak" "$seconds" "$megabytes"
  if [ "$status" -gt 1 ]; then
    echo "  bflint exited $status:"
    head -5 "$work/stderr"
    failed=1
  fi
  if ! grep -q "\"$code\"" "$work/report.json"; then
    echo "  no $code finding in the report"
    failed=1
  fi
  if awk -v w="$wall" -v s="$seconds" 'BEGIN { exit !(w > s) }' || [ "$peak" -gt "$megabytes" ]; then
    echo "  past its bound"
    failed=1
  fi
}

plan_head() { # ID
  printf 'bflint: 1\nid: %s\ntarget: analytics.fct_orders\nowner: data-eng\nreason: Refunds were counted as revenue.\nrange: {start: 2026-01-14, end: 2026-06-30}\n' "$1"
}

# 3,000 plans over the same target and range, none ordered after another.
mkdir -p "$work/overlap"
for i in $(seq 1 3000); do plan_head "bf_$i" >"$work/overlap/p$i.backfill.yaml"; done
measure "3,000 overlapping plans" 5 500 BF807 "$work/overlap"

# A chain of 4,000 plans, each after the one before (4.7 s here).
mkdir -p "$work/chain"
plan_head bf_1 >"$work/chain/p1.backfill.yaml"
for i in $(seq 2 4000); do
  { plan_head "bf_$i"; printf 'after: [bf_%d]\n' $((i - 1)); } >"$work/chain/p$i.backfill.yaml"
done
measure "a chain of 4,000 plans" 20 500 BF205 "$work/chain"

# A target with 13,000 incremental models downstream, one of them rebuilt.
mkdir -p "$work/downstream/target"
printf 'name: shop\nversion: "1.0"\nprofile: shop\n' >"$work/downstream/dbt_project.yml"
awk 'BEGIN {
  node = "\"model.shop.%s\": {\"resource_type\": \"model\", \"name\": \"%s\", \"package_name\": \"shop\", \"database\": \"warehouse\", \"schema\": \"analytics\", \"alias\": \"%s\", \"original_file_path\": \"models/%s.sql\", \"config\": {\"materialized\": \"%s\"}, \"depends_on\": {\"nodes\": [%s]}}"
  printf "{\"metadata\": {\"dbt_schema_version\": \"https://schemas.getdbt.com/dbt/manifest/v12.json\", \"project_name\": \"shop\", \"adapter_type\": \"postgres\"}, \"nodes\": {"
  printf node, "fct_orders", "fct_orders", "fct_orders", "fct_orders", "incremental", ""
  for (i = 1; i <= 13000; i++) {
    name = "mart_" i
    printf ", " node, name, name, name, name, "incremental", "\"model.shop.fct_orders\""
  }
  printf "}, \"sources\": {}, \"exposures\": {}}\n"
}' >"$work/downstream/target/manifest.json"
{
  printf 'bflint: 1\nid: bf_downstream\ntarget: model.shop.fct_orders\nowner: data-eng\nreason: Refunds were counted as revenue.\n'
  printf 'range: {start: 2026-01-14, end: 2026-06-30}\ndownstream:\n  rebuild: [mart_1]\n'
} >"$work/downstream/fct_orders.backfill.yaml"
measure "13,000 downstream models not rebuilt" 5 500 BF801 "$work/downstream"

# One plan with 100,000 validation checks.
{
  plan_head bf_checks
  printf 'validation:\n  checks:\n'
  for i in $(seq 1 100000); do printf '    - {name: c%d, query: "select 1", pass: "x = 0"}\n' "$i"; done
} >"$work/checks.backfill.yaml"
measure "one plan of 100,000 checks" 15 1000 BF205 "$work/checks.backfill.yaml"

# One plan of 1,000,000 unknown keys (16 MB).
{
  plan_head bf_keys
  for i in $(seq 1 1000000); do printf 'unknown_key_%d: 1\n' "$i"; done
} >"$work/keys.backfill.yaml"
measure "one plan of 1,000,000 unknown keys" 16 1200 BF001 "$work/keys.backfill.yaml"

# One bigquery-etl backfill.yaml of 10,000 entries, each correcting rows
# an incremental table downstream keeps (28.7 s once, and cut off near
# 9,000 entries).
cp -r testdata/init/bqetl "$work/entries"
awk 'BEGIN {
  day = 20454  # 2026-01-01, in days since 1970-01-01
  for (i = 0; i < 10000; i++) {
    printf "%s:\n  start_date: 1990-01-01\n  end_date: 1990-01-02\n  reason: Fix the duplicated rows.\n  watchers:\n  - a@example.com\n  status: Complete\n", strftime("%Y-%m-%d", (day - i) * 86400, 1)
  }
}' >"$work/entries/sql/shop-prod/orders_derived/orders_v1/backfill.yaml"
measure "10,000 entries in one backfill.yaml" 5 500 BF801 "$work/entries"
entry_findings=$(grep -o '"code": "BF801"' "$work/report.json" | wc -l)
if [ "$entry_findings" -ne 10000 ]; then
  echo "  $entry_findings BF801 findings, want one per entry, 10000"
  failed=1
fi

# The same entries, their table's metadata.yaml at the edges of its
# numbers' types: an offset that wrapped the dates round, and an expiry
# past the calendar, which once made every entry a false BF108.
cat >"$work/entries/sql/shop-prod/orders_derived/orders_v1/metadata.yaml" <<'YAML'
bigquery:
  time_partitioning:
    type: day
    field: submission_date
    expiration_days: 1e308
scheduling:
  date_partition_offset: 9223372036854775807
YAML
measure "10,000 entries, metadata numbers at the edges" 5 500 BF001 "$work/entries"
if grep -q '"code": "BF108"' "$work/report.json" || ! grep -q 'moves every date off the calendar' "$work/report.json"; then
  echo "  want the offset reported (BF001) and no BF108 for an expiry past the calendar"
  failed=1
fi

# 60 MB SQL files of short statements, joins, statements the parser
# rejects, a dbt model, and one 60 MB line.
sql_file() { # NAME LINE: LINE repeated to 60 MB
  awk -v line="$2" 'BEGIN { n = int(60000000 / (length(line) + 1)); for (i = 0; i < n; i++) print line }' >"$work/$1.sql"
}
sql_file short "select a, b from t where c = 1;"
sql_file joins "insert into mart.orders_daily (order_id, amount, order_date) select o.id, o.amount * 1.2 + coalesce(r.refund, 0), o.order_date from raw.orders o left join raw.refunds r on r.order_id = o.id and r.day between '2026-01-01' and '2026-02-01' where o.order_date = '2026-01-14';"
sql_file rejected "create or replace table x.y cluster by (a) as select a, b from z.w qualify row_number() over (partition by a order by b) = 1 ~~ garbage;"
{ echo "{{ config(materialized='incremental') }}"; } >"$work/model.sql"
sql_file model_body "select {{ var('x') }} as a, b from {{ ref('m') }} where d = '{{ var(\"day\") }}';"
cat "$work/model_body.sql" >>"$work/model.sql"
rm "$work/model_body.sql"
awk 'BEGIN { printf "select "; for (i = 0; i < 5000000; i++) printf "col%d, ", i; print "x from t" }' >"$work/line.sql"
for f in short joins rejected model line; do
  measure "60 MB of SQL: $f" 20 500 BF002 "$work/$f.sql"
done

# SIGINT while --fix writes 3,000 plans: the run ends with 130 and leaves
# no temporary file beside any plan.
mkdir -p "$work/interrupt/target"
printf 'name: shop\nversion: "1.0"\nprofile: shop\n' >"$work/interrupt/dbt_project.yml"
cat >"$work/interrupt/target/manifest.json" <<'JSON'
{"metadata": {"dbt_schema_version": "https://schemas.getdbt.com/dbt/manifest/v12.json", "project_name": "shop", "adapter_type": "postgres"},
 "nodes": {
  "model.shop.fct_orders": {"resource_type": "model", "name": "fct_orders", "package_name": "shop", "database": "warehouse", "schema": "analytics", "alias": "fct_orders", "original_file_path": "models/fct_orders.sql", "config": {"materialized": "table"}, "depends_on": {"nodes": []}},
  "model.shop.revenue_daily": {"resource_type": "model", "name": "revenue_daily", "package_name": "shop", "database": "warehouse", "schema": "analytics", "alias": "revenue_daily", "original_file_path": "models/revenue_daily.sql", "config": {"materialized": "table"}, "depends_on": {"nodes": ["model.shop.fct_orders"]}}},
 "sources": {}, "exposures": {}}
JSON
for i in $(seq 1 3000); do
  printf 'bflint: 1\nid: bf_%d\ntarget: model.shop.fct_orders\nrange: {start: 2026-01-14, end: 2026-06-30}\ndownstream:\n  rebuild: []\n' "$i" >"$work/interrupt/p$i.backfill.yaml"
done
temporaries() { find "$work/interrupt" -name '.*.bflint-*' | wc -l; }
(cd "$work/interrupt" && exec "$bflint" --now 2026-12-01 --fix . >/dev/null 2>"$work/stderr") &
fixer=$!
seen=0
for _ in $(seq 1 3000); do
  if [ "$(temporaries)" -gt 0 ]; then
    seen=1
    break
  fi
  kill -0 "$fixer" 2>/dev/null || break
  sleep 0.01
done
kill -INT "$fixer" 2>/dev/null || true
status=0
wait "$fixer" || status=$?
left=$(temporaries)
printf '%-40s exit %d, temporary files seen %d, left %d\n' "SIGINT during --fix of 3,000 plans" "$status" "$seen" "$left"
if [ "$seen" -ne 1 ] || [ "$status" -ne 130 ] || [ "$left" -ne 0 ]; then
  echo "  want temporary files seen, exit 130 and none left"
  head -5 "$work/stderr"
  failed=1
fi

exit "$failed"
