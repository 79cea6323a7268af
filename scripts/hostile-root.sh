#!/usr/bin/env bash
# The hostile output checks that need root, run against a built bflint:
# reports to /dev/null and /dev/stdout leave the device a device (in a
# mount namespace of its own with a tmpfs /dev, never the host's), and a
# report or a fixed plan owned by another user keeps its owner and mode,
# and a folder its user cannot list is reported as such, and a report to
# /dev/stdout reaches a pipe root made (both run as nobody).
# Without root, or without unshare, it says so and checks nothing.
# Usage: scripts/hostile-root.sh BFLINT_BINARY
set -euo pipefail
bin=$(realpath "${1:?usage: scripts/hostile-root.sh BFLINT_BINARY}")
cd "$(dirname "$0")/.."
if [ "$(id -u)" != 0 ] || ! command -v unshare >/dev/null 2>&1; then
  echo "hostile-root: skipped: needs root and unshare"
  exit 0
fi
now=2026-11-30T09:00:00Z
fail() { echo "hostile-root: $*"; exit 1; }

# shellcheck disable=SC2016 # expanded by the inner shell
unshare --mount bash -euo pipefail -c '
  bin=$1 now=$2
  mount --make-rprivate /
  mount -t tmpfs tmpfs /dev
  mknod -m 666 /dev/null c 1 3
  ln -s /proc/self/fd/1 /dev/stdout
  "$bin" --now "$now" --output /dev/null examples/good
  [ -c /dev/null ] || { echo "--output /dev/null left $(stat -c %F /dev/null)"; exit 1; }
  "$bin" --now "$now" --format text=/dev/null --format json=/dev/null --format sarif=/dev/null examples/good
  [ -c /dev/null ] || { echo "three reports to /dev/null left $(stat -c %F /dev/null)"; exit 1; }
  out=$("$bin" --now "$now" --format json --output /dev/stdout examples/good)
  case $out in *"\"findings\""*) ;; *) echo "--output /dev/stdout printed: $out"; exit 1 ;; esac
  [ -L /dev/stdout ] || { echo "--output /dev/stdout replaced the link"; exit 1; }
' hostile-root "$bin" "$now" || fail "writing to devices failed"
[ -c /dev/null ] || fail "the host's /dev/null is no longer a device"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
touch "$work/report.json"
chown 1234:1234 "$work/report.json"
chmod 640 "$work/report.json"
"$bin" --now "$now" --format "json=$work/report.json" examples/good
[ "$(stat -c '%u:%g %a' "$work/report.json")" = "1234:1234 640" ] ||
  fail "the report's owner and mode became $(stat -c '%u:%g %a' "$work/report.json"), want 1234:1234 640"

# A plan --fix rewrites keeps its owner and mode too.
cp -r examples/dbt_microbatch "$work/project"
plan=$work/project/fct_sessions.backfill.yaml
sed -i '/- model.web.sessions_weekly/d; s/^  rebuild:$/  rebuild: []/' "$plan"
chown 1234:1234 "$plan"
chmod 640 "$plan"
(cd "$work/project" && "$bin" --now "$now" --fix --fail-on never . >/dev/null 2>&1)
grep -q sessions_weekly "$plan" || fail "--fix did not restore the downstream model it was to add"
[ "$(stat -c '%u:%g %a' "$plan")" = "1234:1234 640" ] ||
  fail "the fixed plan's owner and mode became $(stat -c '%u:%g %a' "$plan"), want 1234:1234 640"
# A folder the user cannot list is reported, as permission denied, beside
# the findings of what could be read; root would list it, so nobody runs it.
if command -v setpriv >/dev/null 2>&1; then
  mkdir -p "$work/locked_project/models/locked"
  cp examples/broken/*.backfill.yaml "$work/locked_project/"
  chmod -R a+rX "$work/locked_project"
  chmod 000 "$work/locked_project/models/locked"
  chmod a+rx "$work"
  status=0
  out=$(setpriv --reuid=65534 --regid=65534 --clear-groups "$bin" --now "$now" "$work/locked_project" 2>&1) || status=$?
  case $out in
    *"models/locked:1:1: error: cannot list folder: permission denied: no file below it was linted [BF003"*) ;;
    *) fail "an unlistable folder as nobody printed: $out" ;;
  esac
  [ "$status" = 1 ] || fail "an unlistable folder as nobody: exit $status, want 1"
  # A CI runner is not root: its stdout, a pipe another user made, is
  # written as it is, never opened again by name.
  cp -r examples/good "$work/good"
  chmod -R a+rX "$work/good"
  # setpriv execs bflint itself: through env, nobody could not reach a
  # binary in a folder only root may enter, as CI's is.
  out=$(cd "$work/good" && BFLINT_CACHE_DIR=off setpriv --reuid=65534 --regid=65534 --clear-groups "$bin" --now "$now" --format json=/dev/stdout . 2>&1 | cat) ||
    fail "--format json=/dev/stdout as nobody failed: $out"
  case $out in *'"findings"'*) ;; *) fail "--format json=/dev/stdout as nobody printed: $out" ;; esac
else
  echo "hostile-root: setpriv not found: the unlistable folder is not checked"
fi
echo "hostile-root: ok"
