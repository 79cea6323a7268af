#!/usr/bin/env bash
# Measures bflint against the performance targets in docs/benchmarks.md and
# exits non-zero when one is missed, so that it can gate a change.
#
#   scripts/bench.sh                 # the full report
#   BENCH_QUICK=1 scripts/bench.sh   # smoke run: 1k files and the 100 MB manifest only
#   BENCH_RUNS=9 scripts/bench.sh    # runs per command; fewer than 5 do not count
#
# Everything it builds, installs and generates stays in .bench/ at the
# repository root and is reused by the next run.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

runs=${BENCH_RUNS:-5}
quick=${BENCH_QUICK:-0}
case $runs in
  '' | *[!0-9]*) echo "bench.sh: BENCH_RUNS must be a whole number" >&2; exit 2 ;;
esac

work=.bench
bin=$work/bin
data=$work/data
squawk_version=2.66.0
# A fixed clock keeps the date rules, and so the work done, the same on
# every run.
now=2026-11-30T09:00:00Z
seed=1
if [ "$quick" = 1 ]; then
  corpora=(1000)
  manifests=(100)
else
  corpora=(1000 5000 10000)
  manifests=(25 50 100)
fi

progress() { echo "bench.sh: $*" >&2; }

progress "building bflint and the helpers into $bin"
mkdir -p "$bin" "$data"
go build -o "$bin/bflint" ./cmd/bflint
for tool in benchrun jsonref benchgen; do
  go build -o "$bin/$tool" "./internal/tools/$tool/main.go"
done

# npm installs only the platform package that fits this machine; the
# version check also catches a folder left by another machine or release.
find_squawk() {
  local s
  for s in "$work"/squawk/node_modules/@squawk-cli/*/bin/squawk; do
    if [ "$("$s" --version 2>/dev/null)" = "squawk $squawk_version" ]; then
      echo "$s"
      return 0
    fi
  done
  return 1
}
if ! squawk=$(find_squawk); then
  progress "installing squawk-cli@$squawk_version from npm into $work/squawk"
  npm install --prefix "$work/squawk" --no-audit --no-fund --loglevel=error "squawk-cli@$squawk_version" >&2
  squawk=$(find_squawk) || { echo "bench.sh: no squawk $squawk_version binary under $work/squawk after npm install" >&2; exit 2; }
fi

# Inputs are regenerated only when the generator's source or seed changed.
generator=$(find internal/benchgen internal/tools/benchgen -name '*.go' ! -name '*_test.go' | sort | xargs cat | sha256sum | cut -c1-16)
stamp="seed=$seed generator=$generator"
generate() { # OUT BENCHGEN-FLAG...
  local out=$1
  shift
  if [ -e "$out" ] && [ "$(cat "$out.stamp" 2>/dev/null)" = "$stamp" ]; then
    return 0
  fi
  progress "generating $out"
  rm -rf "$out" "$out.stamp"
  "$bin/benchgen" -seed "$seed" "$@" -out "$out" >/dev/null
  echo "$stamp" >"$out.stamp"
}
for n in "${corpora[@]}"; do
  generate "$data/sql-$n" -sql "$n"
done
for mb in "${manifests[@]}"; do
  generate "$data/manifest-${mb}mb.json" -manifest-mb "$mb"
done
generate "$data/precommit" -precommit -manifest "$data/manifest-100mb.json"

c1k=$data/sql-1000
m100=$data/manifest-100mb.json
pc=$data/precommit
# The inputs are a project of their own, as a hook's repository is: inside
# this one, a run given files would read every plan of bflint's own
# testdata as the project's other plans (load.Discovered.Context).
[ -e "$data/.git" ] || git init -q "$data"

failed=0
# gate runs benchrun with the report's run count and indents its table. A
# missed target is remembered; a failure to measure ends the script.
gate() {
  local status=0
  "$bin/benchrun" -runs "$runs" "$@" | sed 's/^/  /' || status=$?
  case $status in
    0) ;;
    1) failed=1 ;;
    *) echo "bench.sh: could not measure (benchrun exited $status)" >&2; exit "$status" ;;
  esac
}

cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)
# shellcheck source=/dev/null
os=$( (. /etc/os-release && echo "$PRETTY_NAME") 2>/dev/null || uname -s)
echo "machine: ${cpu:-unknown CPU}, $(nproc) cores, $(go env GOVERSION), $os ($(uname -sr))"
echo "bflint built from the working tree at $(git rev-parse --short HEAD 2>/dev/null || echo "an unknown commit"); $runs runs of each command, interleaved, after 1 unmeasured warm-up"

echo
echo "A. lint 1000 SQL files, whole process, against squawk $squawk_version"
gate -ok-exit "0,1" -ratio 0.6 \
  -- bflint BFLINT_CACHE_DIR=off "$bin/bflint" --now "$now" --format json "$c1k" \
  -- squawk "$squawk" --reporter json "$c1k/**/*.sql"

echo
echo "B. bflint lineage on the 100 MB manifest, cache off, against an encoding/json typed decode"
gate -ratio 0.5 -rss-of "$m100" -max-rss-ratio 1.5 \
  -- "bflint lineage" BFLINT_CACHE_DIR=off "$bin/bflint" lineage model_000100 --manifest "$m100" --format json \
  -- encoding/json "$bin/jsonref" "$m100"

echo
echo "C. pre-commit run (one plan, five SQL files, the 100 MB manifest), cache warmed by the warm-up run"
rm -rf "$work/cache"
gate -ok-exit "0,1" -max-ms 150 \
  -- "bflint pre-commit" "BFLINT_CACHE_DIR=$root/$work/cache" "$bin/bflint" --now "$now" "$pc/fix.backfill.yaml" "$pc"/sql/*.sql

echo
echo "D. growth with input size, cache off"
args=(-ok-exit "0,1" -unit "1k files" -unit-size 1000 -max-growth 1.25)
for n in "${corpora[@]}"; do
  args+=(-- "lint $n files:$n" BFLINT_CACHE_DIR=off "$bin/bflint" --now "$now" --format json "$data/sql-$n")
done
gate "${args[@]}"
echo
# 10 MiB as the unit: the amounts are the manifests' sizes in bytes.
args=(-unit "10 MiB" -unit-size 10485760 -max-growth 1.25)
for mb in "${manifests[@]}"; do
  m=$data/manifest-${mb}mb.json
  args+=(-- "lineage ${mb} MB:$(stat -c %s "$m")" BFLINT_CACHE_DIR=off "$bin/bflint" lineage model_000100 --manifest "$m" --format json)
done
gate "${args[@]}"

echo
if [ "$runs" -lt 5 ]; then
  echo "RESULT: NOT COUNTED (BENCH_RUNS=$runs; a report needs at least 5 runs)"
  exit 1
fi
if [ "$failed" -ne 0 ]; then
  echo "RESULT: FAIL (a target was missed)"
  exit 1
fi
if [ "$quick" = 1 ]; then
  echo "RESULT: PASS (quick run: growth measured at one size, not checked)"
else
  echo "RESULT: PASS"
fi
