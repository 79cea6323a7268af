#!/usr/bin/env bash
# Runs the hooks of .pre-commit-hooks.yaml through the real pre-commit
# against the shipped examples, as a user's repository would:
#   - bflint (built from source) on a repository holding examples/broken and
#     examples/good must fail (exit 1), show BF601 for the broken plan and
#     BF807 for the two plans' overlap, and print one summary;
#   - bflint on a repository holding only examples/good must pass;
#   - a commit that changes only a SQL file a plan names must be reported
#     against that plan's range (BF104);
#   - bflint-system with a bflint binary on PATH must pass on examples/good,
#     and with none on PATH must fail saying the executable is not found;
#   - bflint on a dbt project as a fresh clone has it (no target/, so no
#     manifest) must fail with BF801 for the mart the plan leaves out.
# pre-commit installs the hook from this checkout as a git repository at a
# commit. When the working tree is clean (as in CI's fresh clone) that is
# HEAD of this checkout; otherwise the tracked and untracked, non-ignored
# files are committed to a throwaway repository first, so the files being
# tested are the ones on disk.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"

if ! command -v pre-commit >/dev/null 2>&1; then
  echo "precommit: pre-commit is not installed" >&2
  exit 2
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

git_q() { git -c user.name=bflint-test -c user.email=bflint-test@invalid -c init.defaultBranch=main "$@"; }

if [ -z "$(git status --porcelain --untracked-files=normal)" ]; then
  hook_repo=$root
else
  echo "precommit: working tree has changes; testing a snapshot of it"
  hook_repo=$work/hook-repo
  mkdir -p "$hook_repo"
  git ls-files -z --cached --others --exclude-standard --deduplicate |
    while IFS= read -r -d '' f; do
      # Skip files deleted from the tree but still in the index.
      if [ -e "$f" ]; then printf '%s\0' "$f"; fi
    done >"$work/files"
  tar -cf - --null -T "$work/files" | tar -xf - -C "$hook_repo"
  git_q -C "$hook_repo" init -q
  git_q -C "$hook_repo" add -A
  git_q -C "$hook_repo" commit -q -m snapshot
fi
rev=$(git -C "$hook_repo" rev-parse HEAD)
if ! git -C "$hook_repo" cat-file -e "$rev:.pre-commit-hooks.yaml" 2>/dev/null; then
  echo "precommit: .pre-commit-hooks.yaml is not in commit $rev" >&2
  exit 1
fi

# A pre-commit home of its own, so the hook is built from this revision and
# not taken from an earlier run's cache. The Go build cache and module cache
# are the machine's (pre-commit sets GOPATH to its environment folder, which
# would otherwise move the module cache there and download every module again).
export PRE_COMMIT_HOME=$work/pre-commit-home
GOMODCACHE=$(go env GOMODCACHE)
export GOMODCACHE

# make_repo NAME HOOK FOLDER...: a git repository with each folder of this
# checkout (examples/good) as a subfolder named after it, and a
# .pre-commit-config.yaml using HOOK at $rev.
make_repo() {
  local dir=$work/$1
  local hook=$2
  shift 2
  mkdir -p "$dir"
  for folder in "$@"; do
    cp -R "$folder" "$dir/$(basename "$folder")"
  done
  cat >"$dir/.pre-commit-config.yaml" <<YAML
repos:
  - repo: $hook_repo
    rev: $rev
    hooks:
      - id: $hook
        # A fixed clock keeps the date rules' findings the same on any day.
        args: ["--now", "2026-11-30T09:00:00Z"]
YAML
  git_q -C "$dir" init -q
  git_q -C "$dir" add -A
}

# run_hook DIR: pre-commit run --all-files in DIR; prints its output to
# DIR.log and the terminal; returns pre-commit's exit code.
run_hook() {
  local status=0
  (cd "$1" && pre-commit run --all-files --color never) >"$1.log" 2>&1 || status=$?
  cat "$1.log"
  return "$status"
}

make_repo mixed bflint examples/broken examples/good
make_repo clean bflint examples/good
make_repo sql-only bflint examples/good
make_repo system bflint-system examples/good
make_repo fresh-clone bflint testdata/rules/BF801/fresh_clone

echo "== pre-commit on examples/broken + examples/good (must fail with BF601)"
start=$SECONDS
status=0
run_hook "$work/mixed" || status=$?
echo "(first run, including the hook's install: $((SECONDS - start))s)"
if [ "$status" -ne 1 ]; then
  echo "precommit: expected exit 1 on the broken plan, got $status" >&2
  exit 1
fi
if ! grep -q 'broken/fct_orders_refunds.backfill.yaml:.*BF601' "$work/mixed.log"; then
  echo "precommit: BF601 for broken/fct_orders_refunds.backfill.yaml missing from the output" >&2
  exit 1
fi
# The two examples hold the same correction, so their plans overlap (BF807).
if ! grep -q 'BF807' "$work/mixed.log"; then
  echo "precommit: BF807 (overlapping plans) missing" >&2
  exit 1
fi
summaries=$(grep -cE '^[0-9]+ errors?, [0-9]+ warnings?' "$work/mixed.log" || true)
if [ "$summaries" -ne 1 ]; then
  echo "precommit: expected one bflint summary line, got $summaries" >&2
  exit 1
fi

echo "== pre-commit on examples/good alone (must pass)"
start=$SECONDS
status=0
run_hook "$work/clean" || status=$?
echo "(this run: $((SECONDS - start))s)"
if [ "$status" -ne 0 ]; then
  echo "precommit: expected exit 0 on the good example, got $status" >&2
  exit 1
fi
echo "== a commit that changes only a SQL file the plan names (must fail with BF104)"
git_q -C "$work/sql-only" commit -q -m "the plan and its SQL"
sed -i "s/DATE '2026-06-30'/DATE '2026-07-31'/" "$work/sql-only/good/sql/build.sql"
git_q -C "$work/sql-only" add good/sql/build.sql
status=0
(cd "$work/sql-only" && pre-commit run --color never) >"$work/sql-only.log" 2>&1 || status=$?
cat "$work/sql-only.log"
if [ "$status" -ne 1 ] || ! grep -q 'good/sql/build.sql:.*BF104' "$work/sql-only.log"; then
  echo "precommit: expected exit 1 with BF104 on good/sql/build.sql when only it changed, got exit $status" >&2
  exit 1
fi

echo "== bflint-system with a bflint binary on PATH (must pass)"
mkdir -p "$work/bin"
go build -o "$work/bin/bflint" ./cmd/bflint
status=0
PATH="$work/bin:$PATH" run_hook "$work/system" || status=$?
if [ "$status" -ne 0 ]; then
  echo "precommit: bflint-system with bflint on PATH: expected exit 0, got $status" >&2
  exit 1
fi

echo "== bflint-system with no bflint on PATH (must fail, naming the missing executable)"
# The PATH keeps git and pre-commit but not the binary built above; bflint
# is installed nowhere else on a CI machine.
if command -v bflint >/dev/null 2>&1; then
  echo "precommit: a bflint is already on PATH ($(command -v bflint)); skipping the missing-binary case" >&2
else
  status=0
  run_hook "$work/system" || status=$?
  # shellcheck disable=SC2016 # the backquotes are pre-commit's own text
  if [ "$status" -eq 0 ] || ! grep -q 'Executable `bflint` not found' "$work/system.log"; then
    echo "precommit: bflint-system without bflint on PATH: expected a failure naming the missing executable, got exit $status" >&2
    exit 1
  fi
fi
echo "== a dbt project with no target/ (a fresh clone): the plan leaves out a mart (must fail with BF801)"
status=0
run_hook "$work/fresh-clone" || status=$?
if [ "$status" -ne 1 ] || ! grep -q 'fresh_clone/fct_orders.backfill.yaml:.*model.shop.mart_revenue.*BF801' "$work/fresh-clone.log"; then
  echo "precommit: expected exit 1 with BF801 naming model.shop.mart_revenue in a project with no manifest, got exit $status" >&2
  exit 1
fi
if ! grep -q 'dbt project read from project files' "$work/fresh-clone.log"; then
  echo "precommit: the summary does not say the lineage was read from the project's files" >&2
  exit 1
fi

echo "precommit: ${SECONDS}s in all"
echo "precommit: 6 passed, 0 failed"
