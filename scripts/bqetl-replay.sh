#!/usr/bin/env bash
# Replays the review of every bigquery-etl backfill entry: each entry put
# back as it stood in its pull request (the entries after it gone, its
# status Initiate) and linted with --now on its entry date. The tree is a
# bigquery-etl checkout, best its generated-sql branch, which holds the
# queries bqetl generates; bigquery-etl is never part of bflint. Each
# backfill.yaml is edited in place and restored after (also on Ctrl-C).
#
#   scripts/bqetl-replay.sh TREE OUT
#
# OUT receives findings.tsv (every finding of every replayed entry; where
# is entry, older for an older entry of the same file, or file for
# another file), clean.tsv (entries with no finding) and sample.tsv (40
# findings spread over the rules, to judge). BFLINT_REPLAY_JUDGED=FILE
# (testdata/bqetl-replay/judged.tsv) compares the run with judged
# findings and clean entries: how many are still reported and accepted,
# and any finding on an entry judged clean.
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: bqetl-replay.sh TREE OUT" >&2; exit 2; }
tree=$(cd "$1" && pwd)
mkdir -p "$2"
out=$(cd "$2" && pwd)
judged=${BFLINT_REPLAY_JUDGED:-}
[ -z "$judged" ] || judged=$(cd "$(dirname "$judged")" && pwd)/$(basename "$judged")
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/bflint" ./cmd/bflint
go build -o "$work/replay" internal/tools/bqetlreplay/main.go
args=(-bflint "$work/bflint" -tree "$tree" -out "$out" -sample "${BFLINT_REPLAY_SAMPLE:-40}")
[ -z "$judged" ] || args+=(-judged "$judged")
"$work/replay" "${args[@]}"
