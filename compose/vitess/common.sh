#!/bin/bash
# Shared settings of the Vitess containers (sourced by the other scripts in this directory and in
# compose/init). Flag names follow the pinned release (v22): underscore spelling for server flags,
# dashed flags for vtctldclient, as that release documents them.

# The topology server (etcd, v3 API) and the one cell of this cluster.
# shellcheck disable=SC2034 # used by the scripts that source this file
TOPOLOGY_FLAGS=(
  --topo_implementation etcd2
  --topo_global_server_address "${ETCD_ADDRESS:-etcd:2379}"
  --topo_global_root /vitess/global
)
# shellcheck disable=SC2034
CELL="${CELL:-zone1}"
# shellcheck disable=SC2034
VTCTLD_SERVER="${VTCTLD_SERVER:-vtctld:15999}"

# fail MESSAGE: print one line to stderr and exit 1.
fail() {
  echo "$(basename "$0"): $*" >&2
  exit 1
}

# require_safe_value NAME: the named variable is set and holds only [A-Za-z0-9_.-] (it is written into
# JSON files, so the narrow alphabet avoids any escaping).
require_safe_value() {
  local name="$1"
  [[ -n "${!name:-}" ]] || fail "${name} is empty: copy .env.example to .env and fill it in"
  [[ "${!name}" =~ ^[A-Za-z0-9_.-]+$ ]] || fail "${name} may only hold letters, digits, '_', '.' and '-'"
}

# vtctl ARGS...: vtctldclient against this cluster's vtctld.
vtctl() {
  vtctldclient --server "${VTCTLD_SERVER}" "$@"
}

# retry SECONDS DESCRIPTION COMMAND...: run COMMAND every 2s until it succeeds or SECONDS pass.
retry() {
  local seconds="$1" description="$2"
  shift 2
  local deadline=$((SECONDS + seconds))
  until "$@"; do
    if ((SECONDS >= deadline)); then
      fail "timed out after ${seconds}s waiting for ${description}"
    fi
    sleep 2
  done
}
