#!/usr/bin/env bash
# Compares the lineage bflint reads from a bigquery-etl tree's SQL with the
# references bqetl generated for it, edge by edge, and prints recall and
# precision; it fails below 95% on either.
#
#   scripts/bqetl-lineage.sh SOURCE [DIFF_FILE]
#
# SOURCE is the tree's sql/ folder, or a git directory of the repository
# (a clone's .git or a bare mirror), whose generated-sql branch is exported
# first: that branch holds the generated references. DIFF_FILE, when given,
# receives every edge one side has alone.
set -euo pipefail
source=${1:?usage: bqetl-lineage.sh SOURCE [DIFF_FILE]}
diff_file=${2:-}
cd "$(dirname "$0")/.."
tree=$source
if [ -d "$source/objects" ] || [ -f "$source/HEAD" ]; then
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  git --git-dir="$source" archive generated-sql sql | tar -x -C "$work"
  tree=$work/sql
fi
tree=$(cd "$tree" && pwd)
if [ -n "$diff_file" ]; then
  diff_file=$(cd "$(dirname "$diff_file")" && pwd)/$(basename "$diff_file")
fi
BFLINT_BQETL_TREE=$tree BFLINT_BQETL_DIFF=$diff_file \
  go test ./parser/bqetl -run '^TestReferencesAgreement$' -count=1 -v | grep -E 'objects compared|^(--- |FAIL|ok)'
