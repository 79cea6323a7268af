#!/usr/bin/env bash
# Builds a snapshot release with .goreleaser.yaml from a clean clone of HEAD
# and checks what a user gets:
#   - the checksums match the archives;
#   - each archive holds bflint, LICENSE, THIRD_PARTY_LICENSES.md, README.md
#     and CHANGELOG.md;
#   - each binary is static (ldd: "not a dynamic executable") and prints the
#     snapshot's version and commit;
#   - each binary lints examples/broken with exit 1 and the same report as
#     "go run ./cmd/bflint": the amd64 one natively, the arm64 one under
#     qemu-user-static;
#   - "go install github.com/bflint/bflint/cmd/bflint@VERSION" works from a
#     module proxy serving HEAD, and installs bflint alone.
# It installs what it needs: Debian's cross compiler, static arm64 glibc and
# qemu-user-static (as root, or with sudo), and goreleaser through go run.
# Timings go to stdout, for the release notes and docs/install.md.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
goreleaser_version=v2.15.1
now=2026-11-30T09:00:00Z

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
need_packages=()
command -v aarch64-linux-gnu-gcc >/dev/null || need_packages+=(gcc-aarch64-linux-gnu libc6-dev-arm64-cross)
command -v qemu-aarch64-static >/dev/null || need_packages+=(qemu-user-static)
command -v x86_64-linux-gnu-gcc >/dev/null || need_packages+=(gcc)
if [ ${#need_packages[@]} -gt 0 ]; then
  echo "== installing ${need_packages[*]}"
  as_root apt-get update -qq >/dev/null
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_packages[@]}" >/dev/null
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
seconds() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(seconds)" 'BEGIN { printf "%.1f s", b - a }'; }

echo "== goreleaser $goreleaser_version"
start=$(seconds)
GOBIN=$work/tools go install "github.com/goreleaser/goreleaser/v2@$goreleaser_version"
echo "goreleaser ready in $(elapsed "$start")"

echo "== snapshot release of HEAD ($(git rev-parse --short HEAD))"
git clone --quiet --no-hardlinks "$repo" "$work/src"
start=$(seconds)
(cd "$work/src" && "$work/tools/goreleaser" release --snapshot --clean >"$work/goreleaser.log" 2>&1) || {
  cat "$work/goreleaser.log"
  exit 1
}
echo "built in $(elapsed "$start")"
dist=$work/src/dist
(cd "$dist" && sha256sum --quiet -c checksums.txt)
commit=$(git rev-parse HEAD)

go build -o "$work/bflint-source" ./cmd/bflint
set +e
"$work/bflint-source" --now "$now" --no-color examples/broken >"$work/want.txt" 2>&1
want_status=$?
set -e
if [ "$want_status" -ne 1 ]; then
  echo "go run ./cmd/bflint on examples/broken exited $want_status, want 1" >&2
  exit 1
fi

check_archive() { # ARCH RUNNER...
  local arch=$1
  shift
  local archive
  archive=$(ls "$dist"/bflint_*_linux_"$arch".tar.gz)
  local dir=$work/install-$arch
  mkdir -p "$dir"
  local start
  start=$(seconds)
  tar -xzf "$archive" -C "$dir"
  echo "linux/$arch: $(basename "$archive"), $(du -k "$archive" | cut -f1) KiB; extracted in $(elapsed "$start"); bflint $(du -k "$dir/bflint" | cut -f1) KiB"
  for f in bflint LICENSE THIRD_PARTY_LICENSES.md README.md CHANGELOG.md; do
    [ -e "$dir/$f" ] || { echo "linux/$arch: the archive has no $f" >&2; exit 1; }
  done
  if ldd "$dir/bflint" 2>&1 | grep -qv 'not a dynamic executable'; then
    echo "linux/$arch: bflint is not static:" >&2
    ldd "$dir/bflint" >&2
    exit 1
  fi
  local version
  version=$("$@" "$dir/bflint" version)
  echo "linux/$arch: $version"
  case "$version" in
    "bflint v"*"snapshot"*"(commit $commit, built "*"linux/$arch)") ;;
    *) echo "linux/$arch: version does not name the snapshot and commit $commit" >&2; exit 1 ;;
  esac
  set +e
  (cd "$repo" && "$@" "$dir/bflint" --now "$now" --no-color examples/broken) >"$work/got-$arch.txt" 2>&1
  local status=$?
  set -e
  if [ "$status" -ne 1 ]; then
    echo "linux/$arch: bflint on examples/broken exited $status, want 1" >&2
    exit 1
  fi
  if ! diff -u "$work/want.txt" "$work/got-$arch.txt"; then
    echo "linux/$arch: the report differs from go run ./cmd/bflint's" >&2
    exit 1
  fi
  echo "linux/$arch: examples/broken exit 1, $(grep -c '\[BF' "$work/got-$arch.txt") findings, the same report as go run"
}
# qemu-user can deadlock in a fork of a multi-threaded program (the guest
# thread forks while another holds one of qemu's own locks), and bflint
# forks the child that does its work. The more guest threads, the likelier:
# on a 2-core machine, 2 of 25 runs on examples/broken hung with Go's
# default GOMAXPROCS and none of 100 with GOMAXPROCS=1 (the runs that end
# take about 0.4 s either way). So the arm64 binary runs with
# GOMAXPROCS=1, still through its own fork; a run that has not ended in
# 120 s is killed and tried again, at most three times, and any other
# failure counts at once.
exec 3>&2
# Each try writes to files of its own, and only the try that ends is
# passed on: a killed one may have printed part of a report, and the shell
# that waits for it says "Killed" on its stderr.
under_qemu() { # ARGS...
  local try status
  for try in 1 2 3; do
    status=0
    { timeout -s KILL 120 env GOMAXPROCS=1 qemu-aarch64-static "$@" >"$work/qemu.out" 2>"$work/qemu.err"; } 2>/dev/null || status=$?
    if [ "$status" -ne 137 ]; then
      cat "$work/qemu.out"
      cat "$work/qemu.err" >&2
      return "$status"
    fi
    echo "linux/arm64: qemu-aarch64-static hung (try $try of 3), killed" >&3
  done
  return "$status"
}
check_archive amd64 env
check_archive arm64 under_qemu

echo "== go install github.com/bflint/bflint/cmd/bflint@VERSION from a module proxy serving HEAD"
pseudo="v0.0.0-$(TZ=UTC git log -1 --format=%cd --date=format-local:%Y%m%d%H%M%S HEAD)-$(git rev-parse --short=12 HEAD)"
go run ./internal/tools/modproxy/main.go -version "$pseudo" -out "$work/proxy" \
  -time "$(TZ=UTC git log -1 --format=%cd --date=format-local:%Y-%m-%dT%H:%M:%SZ HEAD)"
start=$(seconds)
GOBIN=$work/gobin GOFLAGS='' GOPROXY="file://$work/proxy,$(go env GOPROXY)" GONOSUMDB=github.com/bflint \
  go install "github.com/bflint/bflint/cmd/bflint@$pseudo"
echo "go install in $(elapsed "$start") (build cache as it is on this machine)"
[ "$(ls "$work/gobin")" = bflint ] || { echo "go install installed: $(ls "$work/gobin")" >&2; exit 1; }
version=$("$work/gobin/bflint" version)
echo "go install: $version"
case "$version" in
  "bflint $pseudo (commit $(git rev-parse --short=12 HEAD), built "*) ;;
  *) echo "go install: version does not name $pseudo" >&2; exit 1 ;;
esac
echo "release-check: PASS"
