#!/usr/bin/env bash
# Runs bflint over real warehouse repositories and prints, per repository,
# what a reviewer needs to judge it: files and statements read (parsed,
# read from tokens, not read), findings per rule, wall time and peak
# memory. The repositories are never part of bflint: give each as a folder
# or as a git directory (a clone's .git or a bare mirror), whose HEAD is
# exported into a temporary folder first.
#
#   scripts/realworld.sh SOURCE...
#
# The clock is fixed (--now) so two runs compare; BFLINT_REALWORLD_NOW
# changes it. With BFLINT_REALWORLD_OUT=DIR the text report and --stats of
# each repository are kept in DIR for reading the findings one by one.
set -euo pipefail
[ $# -gt 0 ] || { echo "usage: realworld.sh SOURCE..." >&2; exit 2; }
cd "$(dirname "$0")/.."
now=${BFLINT_REALWORLD_NOW:-2026-11-30T09:00:00Z}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/bflint" ./cmd/bflint

for src in "$@"; do
  if git --git-dir="$src" rev-parse --git-dir >/dev/null 2>&1; then
    name=$(basename "$(dirname "$src")")
    [ "$name" != . ] || name=$(basename "$src")
    dir=$work/$name
    mkdir -p "$dir"
    git --git-dir="$src" archive HEAD | tar -x -C "$dir"
    rev=$(git --git-dir="$src" rev-parse --short HEAD)
  else
    name=$(basename "$(cd "$src" && pwd)")
    dir=$(cd "$src" && pwd)
    rev=working-tree
  fi
  out=${BFLINT_REALWORLD_OUT:-$work/out}/$name
  mkdir -p "$out"
  status=0
  if [ -x /usr/bin/time ]; then
    (cd "$dir" && BFLINT_CACHE_DIR=off /usr/bin/time -f '%e %M' -o "$out/time" \
      "$work/bflint" --now "$now" --no-color --stats --fail-on never . >"$out/report.txt" 2>"$out/stats") || status=$?
    read -r wall rss <"$out/time"
    measured="wall ${wall} s, peak RSS $((rss / 1024)) MiB"
  else
    start=$(date +%s.%N)
    (cd "$dir" && BFLINT_CACHE_DIR=off "$work/bflint" --now "$now" --no-color --stats --fail-on never . \
      >"$out/report.txt" 2>"$out/stats") || status=$?
    measured="wall $(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }') s (no /usr/bin/time: peak RSS not measured)"
  fi
  echo "== $name ($rev)"
  if [ "$status" -ne 0 ]; then
    echo "bflint exited $status:"
    cat "$out/stats"
    continue
  fi
  echo "  $(grep '^bflint: SQL coverage' "$out/stats" | sed 's/^bflint: //')"
  echo "  $measured; $(grep -c '' "$out/report.txt") report lines; $(tail -1 "$out/report.txt")"
  echo "  findings per rule:"
  grep -o '\[BF[0-9]* [a-z0-9-]*\]$' "$out/report.txt" | sort | uniq -c | sort -rn | sed 's/^/    /' || true
done
