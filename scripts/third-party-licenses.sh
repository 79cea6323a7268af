#!/usr/bin/env bash
# Writes the licences of everything a release binary of bflint contains:
# the Go modules cmd/bflint links, the Go standard library, and the GNU C
# Library that the release links statically (see .goreleaser.yaml).
#   scripts/third-party-licenses.sh OUT
set -euo pipefail
out=${1:?usage: third-party-licenses.sh OUT}
cd "$(dirname "$0")/.."
mkdir -p "$(dirname "$out")"

licence_files() { # DIR: the licence and notice files at the top of a module
  find "$1" -maxdepth 1 -type f \( -iname 'LICENSE*' -o -iname 'LICENCE*' -o -iname 'COPYING*' -o -iname 'NOTICE*' \) | sort
}

{
  echo "# Third-party licences"
  echo
  echo "A bflint release binary contains the code below besides bflint's own"
  echo "(Apache-2.0, in LICENSE). Each section gives a component and its licence"
  echo "files as they ship with it."
  echo
  printf '## Go standard library %s\n\n```text\n' "$(go env GOVERSION)"
  cat "$(go env GOROOT)/LICENSE"
  printf '```\n\n'
  go list -deps -f '{{with .Module}}{{if not .Main}}{{.Path}} {{.Version}} {{.Dir}}{{end}}{{end}}' ./cmd/bflint | sort -u |
    while read -r path version dir; do
      files=$(licence_files "$dir")
      if [ -z "$files" ]; then
        echo "third-party-licenses.sh: $path $version has no licence file" >&2
        exit 1
      fi
      printf '## %s %s\n\n' "$path" "$version"
      for f in $files; do
        printf '%s:\n\n```text\n' "$(basename "$f")"
        cat "$f"
        printf '```\n\n'
      done
    done
  glibc=$(dpkg-query -W -f='${Version}' libc6-dev 2>/dev/null || echo unknown)
  printf '## GNU C Library (glibc), Debian package version %s\n\n' "$glibc"
  cat <<'TEXT'
The release binaries are linked statically with the GNU C Library, which is
licensed under the GNU Lesser General Public License, version 2.1 or later.
Its source is Debian's glibc source package of the version above
(`apt-get source glibc` on Debian 12). bflint's complete source, at the
commit `bflint version` names, is public; build it against a modified C
library with `scripts/release-check.sh` or `go build` to relink.

```text
TEXT
  cat /usr/share/common-licenses/LGPL-2.1
  printf '```\n'
} >"$out"
