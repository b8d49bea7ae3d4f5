#!/bin/bash
# One-shot, before any vttablet starts: creates the cell and the two keyspaces in the topology.
#
# Keyspaces are created here, not by the first tablet (which would create them with default settings),
# so that their durability policy is explicit: `none`, since this demo runs no semi-sync plugin.
# Every step is idempotent, so `docker compose up` can run this again on an existing cluster.
set -euo pipefail
# shellcheck source=compose/vitess/common.sh
source "$(dirname "$0")/../vitess/common.sh"

retry 120 "vtctld at ${VTCTLD_SERVER}" vtctl GetCellInfoNames >/dev/null

if vtctl GetCellInfoNames | grep -qx "${CELL}"; then
  echo "cell ${CELL} exists"
else
  echo "creating cell ${CELL}"
  vtctl AddCellInfo --root "/vitess/${CELL}" --server-address "${ETCD_ADDRESS:-etcd:2379}" "${CELL}"
fi

for keyspace in commerce customer; do
  if vtctl GetKeyspace "${keyspace}" >/dev/null 2>&1; then
    echo "keyspace ${keyspace} exists"
  else
    echo "creating keyspace ${keyspace}"
    vtctl CreateKeyspace --durability-policy=none "${keyspace}"
  fi
done
echo "topology ready"
