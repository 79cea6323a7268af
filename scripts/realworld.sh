#!/usr/bin/env bash
# Runs bflint over real warehouse repositories and prints, per repository,
# what a reviewer needs to judge it: files and statements read (parsed,
# read from tokens, not read), findings per rule, wall time and peak
# memory. The repositories are never part of bflint: give each as a folder
# or as a git directory (a clone's .git or a bare mirror), whose HEAD is
# exported into a temporary folder first. An export skips the blobs a
# partial clone lacks (git archive refuses them) and says how many.
#
#   scripts/realworld.sh SOURCE...
#
# A repository is named after its folder, or for a git directory after
# the folder holding it (a clone's .git, a mirror's repo) or its own name
# without .git; an owner+ prefix (owner+name) is dropped.
#
# The clock is fixed (--now) so two runs compare; BFLINT_REALWORLD_NOW
# changes it. With BFLINT_REALWORLD_OUT=DIR the text report, the JSON
# report and --stats of each repository are kept in DIR for reading the
# findings one by one.
#
# With BFLINT_REALWORLD_JUDGED=DIR (testdata/realworld), the findings are
# matched with the judgements in DIR: hazards.tsv (hazards found by
# reading the code) and findings.tsv (findings judged true or false), and
# the script prints recall per hazard class and precision per rule (see
# DIR/README.md), and lists the findings not judged yet (an inventory's
# are counted). With BFLINT_REALWORLD_OUT as well, every unjudged finding
# is written to unjudged.tsv there, in the columns of findings.tsv, and
# each judged hazard with the findings that reach it to matches.tsv.
set -euo pipefail
shopt -s inherit_errexit
[ $# -gt 0 ] || { echo "usage: realworld.sh SOURCE..." >&2; exit 2; }
# Paths (sources, the judged and the output folders) are taken from
# where the script is run.
sources=()
for src in "$@"; do
  sources+=("$(cd "$src" && pwd)")
done
judged=${BFLINT_REALWORLD_JUDGED:-}
[ -z "$judged" ] || [ ! -d "$judged" ] || judged=$(cd "$judged" && pwd)
keep=${BFLINT_REALWORLD_OUT:-}
[ -z "$keep" ] || { mkdir -p "$keep" && keep=$(cd "$keep" && pwd); }
cd "$(dirname "$0")/.."
now=${BFLINT_REALWORLD_NOW:-2026-11-30T09:00:00Z}
if [ -n "$judged" ] && [ ! -f "$judged/hazards.tsv" ]; then
  echo "realworld.sh: BFLINT_REALWORLD_JUDGED=$judged holds no hazards.tsv" >&2
  exit 2
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/bflint" ./cmd/bflint
[ -z "$judged" ] || go build -o "$work/judge" internal/tools/judge/main.go
outroot=${keep:-$work/out}
mkdir -p "$outroot"

# export_head GITDIR DIR: HEAD of GITDIR into DIR. git archive first, as
# it is fast; when it fails (a partial clone lacks some blobs), a
# temporary index holding only the blobs present is checked out instead.
export_head() {
  local gd=$1 dir=$2 index=$work/index absent
  mkdir -p "$dir"
  if git --git-dir="$gd" archive HEAD 2>/dev/null | tar -x -C "$dir" 2>/dev/null; then
    return
  fi
  rm -rf "$dir" "$index"
  mkdir -p "$dir"
  GIT_INDEX_FILE=$index git --git-dir="$gd" read-tree HEAD
  GIT_INDEX_FILE=$index git --git-dir="$gd" ls-files --stage |
    awk '{ print $2 }' |
    git --git-dir="$gd" cat-file --batch-check='%(objectname) %(objecttype)' |
    awk '$2 == "missing" { print $1 }' >"$work/absent"
  absent=$(grep -c '' "$work/absent" || true)
  if [ "$absent" -gt 0 ]; then
    GIT_INDEX_FILE=$index git --git-dir="$gd" ls-files --stage -z |
      grep -zF -f "$work/absent" |
      sed -z 's/^[^\t]*\t//' |
      GIT_INDEX_FILE=$index git --git-dir="$gd" update-index --force-remove -z --stdin
  fi
  GIT_INDEX_FILE=$index git -c checkout.workers=0 --git-dir="$gd" --work-tree="$dir" checkout-index -a -f
  rm -f "$index"
  echo "  (git archive failed: exported the blobs present, $absent absent skipped)"
}

reports=()
for src in "${sources[@]}"; do
  notes=
  if git --git-dir="$src" rev-parse --git-dir >/dev/null 2>&1; then
    base=$(basename "$src")
    case $base in
      .git | repo) name=$(basename "$(dirname "$src")") ;;
      *.git) name=${base%.git} ;;
      *) name=$base ;;
    esac
    name=${name#*+}
    dir=$work/src/$name
    notes=$(export_head "$src" "$dir")
    rev=$(git --git-dir="$src" rev-parse --short HEAD)
  else
    dir=$src
    name=$(basename "$dir")
    name=${name#*+}
    rev=working-tree
  fi
  out=$outroot/$name
  mkdir -p "$out"
  rm -f "$out/report.json"
  run=("$work/bflint" --now "$now" --no-color --stats --fail-on never
    --format text --format "json=$out/report.json" .)
  status=0
  if [ -x /usr/bin/time ]; then
    (cd "$dir" && BFLINT_CACHE_DIR=off /usr/bin/time -f '%e %M' -o "$out/time" \
      "${run[@]}" >"$out/report.txt" 2>"$out/stats") || status=$?
    read -r wall rss < <(tail -1 "$out/time")
    measured="wall ${wall} s, peak RSS $((rss / 1024)) MiB"
  else
    start=$(date +%s.%N)
    (cd "$dir" && BFLINT_CACHE_DIR=off "${run[@]}" >"$out/report.txt" 2>"$out/stats") || status=$?
    measured="wall $(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }') s (no /usr/bin/time: peak RSS not measured)"
  fi
  echo "== $name ($rev)"
  [ -z "$notes" ] || echo "$notes"
  if [ "$status" -ne 0 ]; then
    echo "bflint exited $status:"
    cat "$out/stats"
    continue
  fi
  echo "  $(grep '^bflint: SQL coverage' "$out/stats" | sed 's/^bflint: //')"
  # The line that counts the models, else the report's last line.
  last=$(grep -E '^[0-9,]+ models?: ' "$out/report.txt" | tail -1 || true)
  echo "  $measured; $(grep -c '' "$out/report.txt") report lines; ${last:-$(tail -1 "$out/report.txt")}"
  echo "  findings per rule:"
  if command -v jq >/dev/null; then
    # Counted from the JSON report, which also holds the findings the
    # text report leaves out (an inventory such as BF111's, counted in its
    # summary line): those are marked.
    { grep -o '\[BF[0-9]* [a-z0-9-]*\]$' "$out/report.txt" || true; } | sort | uniq -c |
      awk '{ print $2 "\t" $1 }' >"$work/text-counts"
    jq -r '.findings[] | "[\(.code) \(.name)]"' "$out/report.json" | sort | uniq -c |
      awk -v counts="$work/text-counts" '
        BEGIN { while ((getline l < counts) > 0) { split(l, f, "\t"); text[f[1]] = f[2] } }
        { hidden = $1 - text[$2]
          note = ""
          if (hidden > 0) note = " (" hidden " not listed in the text report)"
          printf "%d\t    %7d %s %s%s\n", $1, $1, $2, $3, note }' |
      sort -t "$(printf '\t')" -k1,1rn -k2 | cut -f2-
  else
    grep -o '\[BF[0-9]* [a-z0-9-]*\]$' "$out/report.txt" | sort | uniq -c | sort -rn | sed 's/^/    /' || true
  fi
  reports+=("$name=$out/report.json")
done

if [ -n "$judged" ]; then
  if [ ${#reports[@]} -eq 0 ]; then
    echo "== judged: no report to match" >&2
    exit 1
  fi
  if [ -n "$keep" ]; then
    "$work/judge" -dir "$judged" -unjudged "$outroot/unjudged.tsv" -matches "$outroot/matches.tsv" "${reports[@]}"
  else
    "$work/judge" -dir "$judged" "${reports[@]}"
    echo "  (with BFLINT_REALWORLD_OUT=DIR, DIR/unjudged.tsv lists every unjudged finding and DIR/matches.tsv each judged hazard with its findings)"
  fi
fi
