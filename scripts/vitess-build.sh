#!/usr/bin/env bash
# Build the Vitess servers and client of one release from the Go module proxy into a cache outside the repository.
# Usage: scripts/vitess-build.sh <release>   (19 … 24, or a module version such as v0.24.4)
# Prints the bin directory on its last line. Nothing of Vitess's source enters the repository: the pinned wrapper
# module (go.mod + go.sum) under test/real-vitess/releases/<release>/ names the module version and its Go toolchain.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
rel="${1:?usage: vitess-build.sh <release 19..24>}"
rel="${rel#v}"; rel="${rel#0.}"; rel="${rel%%.*}"
mod_dir="$here/test/real-vitess/releases/v$rel"
[ -f "$mod_dir/go.mod" ] || { echo "vitess-build: no pinned module for release $rel ($mod_dir/go.mod)" >&2; exit 2; }
version="$(awk '$1=="vitess.io/vitess"{print $2; exit} $1=="require" && $2=="vitess.io/vitess"{print $3; exit}' "$mod_dir/go.mod")"
# The release's own Go: the toolchain line, else the go line (go drops a toolchain line equal to it).
toolchain="$(awk '$1=="toolchain"{print $2; exit}' "$mod_dir/go.mod")"
[ -n "$toolchain" ] || toolchain="go$(awk '$1=="go"{print $2; exit}' "$mod_dir/go.mod")"
if [ -z "$version" ] || [ -z "$toolchain" ]; then echo "vitess-build: $mod_dir/go.mod lacks the vitess require or toolchain line" >&2; exit 2; fi
# The cache must be readable by the unprivileged user that runs the servers: not under a 0700 home.
if [ -n "${VTPREFLIGHT_VITESS_CACHE:-}" ]; then cache="$VTPREFLIGHT_VITESS_CACHE"
elif [ "$(id -u)" = 0 ]; then cache=/var/cache/vtpreflight/vitess
else cache="${XDG_CACHE_HOME:-$HOME/.cache}/vtpreflight/vitess"; fi
bin="$cache/$version/bin"
cmds=(vtctld vttablet vtctldclient)
# One build of a version at a time: a second caller waits (bounded) for the first, then finds the cache.
mkdir -p "$cache"
exec 9>"$cache/$version.lock"
flock -w 3600 9 || { echo "vitess-build: another build of $version held the lock for an hour" >&2; exit 1; }
ok=1
for c in "${cmds[@]}"; do [ -x "$bin/$c" ] || ok=0; done
if [ "$ok" = 1 ]; then echo "vitess-build: $version cached in $bin" >&2; echo "$bin"; exit 0; fi
rm -rf "$bin.tmp"; mkdir -p "$bin.tmp"
start=$(date +%s)
echo "vitess-build: building $version with $toolchain (cold: about 2-3 minutes on 2 cores)" >&2
(
  cd "$mod_dir"
  pkgs=(); for c in "${cmds[@]}"; do pkgs+=("vitess.io/vitess/go/cmd/$c"); done
  GOTOOLCHAIN="$toolchain" GOFLAGS=-mod=mod CGO_ENABLED=0 go build -trimpath -o "$bin.tmp/" "${pkgs[@]}"
)
rm -rf "$bin"; mv "$bin.tmp" "$bin"; chmod -R a+rX "$cache"
echo "vitess-build: $version built in $(( $(date +%s) - start )) s into $bin" >&2
echo "$bin"
