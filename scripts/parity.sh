#!/usr/bin/env bash
# Compares the output of bflint built from a base revision with bflint built
# from the working tree, byte for byte, on every input a restructuring must
# leave unchanged: text, JSON and SARIF reports and the exit code.
#
#   scripts/parity.sh BASE_REV [SOURCE...]
#
# The inputs: each folder under examples/, each rule's fixture folder under
# testdata/rules/, testdata/sql/*, a generated benchmark corpus of 300 SQL
# files, and each SOURCE: a folder, or a git directory (a clone's .git or a
# bare mirror) whose HEAD is exported first. Prints one line per input and
# exits 1 when any differs, showing the first lines of each difference.
set -euo pipefail
base=${1:?usage: parity.sh BASE_REV [SOURCE...]}
shift
cd "$(dirname "$0")/.."
now=2026-11-30T09:00:00Z
work=$(mktemp -d)
trap 'git worktree remove --force "$work/base-src" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT

git worktree add --quiet --detach "$work/base-src" "$base"
(cd "$work/base-src" && go build -o "$work/bin/base" ./cmd/bflint)
go build -o "$work/bin/head" ./cmd/bflint

inputs=()
for d in examples/*/ testdata/rules/*/ testdata/sql/*/; do
  inputs+=("${d%/}")
done
go run ./internal/tools/benchgen/main.go -seed 1 -sql 300 -out "$work/corpus" >/dev/null
inputs+=("$work/corpus")
for src in "$@"; do
  if git --git-dir="$src" rev-parse --git-dir >/dev/null 2>&1; then
    out=$work/export-$(basename "$(dirname "$src")")-$(basename "$src")
    mkdir -p "$out"
    git --git-dir="$src" archive HEAD | tar -x -C "$out"
    inputs+=("$out")
  else
    inputs+=("$src")
  fi
done

# run BIN LABEL INPUT: the reports and exit code of one run, in $work/out/LABEL.
run() {
  local bin=$1 dir=$work/out/$2 input=$3
  rm -rf "$dir"
  mkdir -p "$dir"
  local status=0
  (cd "$input" && BFLINT_CACHE_DIR=off "$bin" --now "$now" --no-color \
    --format text --format "json=$dir/report.json" --format "sarif=$dir/report.sarif" . \
    >"$dir/stdout" 2>"$dir/stderr") || status=$?
  echo "$status" >"$dir/exit"
}

differ=0
for input in "${inputs[@]}"; do
  abs=$(cd "$input" && pwd)
  run "$work/bin/base" base "$abs"
  run "$work/bin/head" head "$abs"
  name=${input#"$work/"}
  if diff -r "$work/out/base" "$work/out/head" >"$work/diff" 2>&1; then
    echo "same     $name (exit $(cat "$work/out/head/exit"), $(grep -c '' "$work/out/head/stdout") lines)"
  else
    echo "DIFFERS  $name"
    head -20 "$work/diff" | sed 's/^/    /'
    differ=1
  fi
done
exit "$differ"
