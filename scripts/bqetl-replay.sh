#!/usr/bin/env bash
# Replays the review of every bigquery-etl backfill entry: each entry is
# linted on the tree of the first commit of the branch that held it, as
# its pull request stood (the entries after it gone, its status Initiate),
# with --now on its entry date. GITDIR is the git directory of a
# bigquery-etl clone or mirror; its generated-sql branch (BFLINT_REPLAY_REF
# changes it) holds the queries bqetl generates. bigquery-etl is never part
# of bflint; the commits are checked out under OUT/tree, with an index of
# their own, and the clone is not touched.
#
#   scripts/bqetl-replay.sh GITDIR OUT
#
# OUT receives findings.tsv (every finding of every replayed entry; where
# is entry, older for an older entry of the same file, or file for
# another file; lines in the entry's file count from its date key),
# clean.tsv (entries with no finding) and sample.tsv (40 findings spread
# over the rules, to judge). BFLINT_REPLAY_JUDGED=FILE
# (testdata/bqetl-replay/judged.tsv) compares the run with judged
# findings and clean entries: how many are still reported and accepted,
# and any finding on an entry judged clean.
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: bqetl-replay.sh GITDIR OUT" >&2; exit 2; }
gitdir=$(cd "$1" && pwd)
mkdir -p "$2"
out=$(cd "$2" && pwd)
judged=${BFLINT_REPLAY_JUDGED:-}
[ -z "$judged" ] || judged=$(cd "$(dirname "$judged")" && pwd)/$(basename "$judged")
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/bflint" ./cmd/bflint
go build -o "$work/replay" internal/tools/bqetlreplay/main.go
args=(-bflint "$work/bflint" -git "$gitdir" -ref "${BFLINT_REPLAY_REF:-generated-sql}" -out "$out" -sample "${BFLINT_REPLAY_SAMPLE:-40}")
[ -z "$judged" ] || args+=(-judged "$judged")
"$work/replay" "${args[@]}"
