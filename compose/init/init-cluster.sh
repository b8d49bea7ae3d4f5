#!/bin/bash
# One-shot, once every vttablet is up: elects a primary per shard, applies schema and vschema,
# seeds a few rows and creates the MoveTables workflow commerce2customer (commerce -> customer, tables
# customer and corder), then waits until all of its streams are Running.
#
# Every step is idempotent, so `docker compose up` can run this again on an existing cluster.
set -euo pipefail
# shellcheck source=compose/vitess/common.sh
source "$(dirname "$0")/../vitess/common.sh"
# shellcheck source=compose/init/schema.sh
source "$(dirname "$0")/schema.sh"

workflow=commerce2customer
wait_seconds="${INIT_WAIT_SECONDS:-300}"

# The intended primary of each shard; the other tablet of the shard stays a replica.
declare -A primaries=(
  [commerce/0]=100
  [customer/-80]=300
  [customer/80-]=400
)

alias_of() {
  local alias
  printf -v alias '%s-%010d' "${CELL}" "$1"
  echo "${alias}"
}

# tablet_count KEYSPACE/SHARD: how many tablets the shard has in the topology.
tablet_count() {
  vtctl GetTablets --keyspace "${1%%/*}" --shard "${1#*/}" | grep -c . || true
}

has_two_tablets() { [[ "$(tablet_count "$1")" -ge 2 ]]; }

# primary_alias KEYSPACE/SHARD: alias of the tablet whose type is primary, if any.
primary_alias() {
  vtctl GetTablets --keyspace "${1%%/*}" --shard "${1#*/}" | awk '$4 == "primary" { print $1 }'
}

has_primary() { [[ -n "$(primary_alias "$1")" ]]; }

for shard in "${!primaries[@]}"; do
  retry "${wait_seconds}" "two tablets in ${shard}" has_two_tablets "${shard}"
done

for shard in "${!primaries[@]}"; do
  want="$(alias_of "${primaries[${shard}]}")"
  current="$(primary_alias "${shard}")"
  if [[ -n "${current}" ]]; then
    echo "${shard}: primary is ${current}"
    continue
  fi
  echo "${shard}: electing ${want} (PlannedReparentShard)"
  retry 120 "PlannedReparentShard ${shard}" vtctl PlannedReparentShard --new-primary "${want}" "${shard}"
  retry 120 "a primary in ${shard}" has_primary "${shard}"
done

echo "applying schema and vschema, seeding commerce"
apply_schema_and_seed "$(primary_alias commerce/0)" >/dev/null

# workflow_exists: `Workflow list` prints the workflow names of the keyspace as a JSON array.
workflow_exists() {
  vtctl Workflow --keyspace customer list 2>/dev/null | grep -q "\"${workflow}\""
}

# The streams read from the commerce primary (--tablet-types PRIMARY) rather than the default replica,
# so the source that `scripts/compose-fault.sh row-image` changes is the one the streams really use.
create_workflow() {
  workflow_exists || vtctl MoveTables --workflow "${workflow}" --target-keyspace customer create \
    --source-keyspace commerce --tables customer,corder --tablet-types PRIMARY
}

if workflow_exists; then
  echo "workflow customer.${workflow} exists"
else
  echo "creating MoveTables workflow customer.${workflow}"
  retry 120 "MoveTables create customer.${workflow}" create_workflow
fi

# all_streams_running: every stream of the workflow is Running (one per target shard: -80 and 80-).
# `MoveTables status --format json` lists each stream's state (and no history, unlike `Workflow show` with its
# logs); without --format it prints text.
all_streams_running() {
  local out running others
  out="$(vtctl MoveTables --workflow "${workflow}" --target-keyspace customer status --format json 2>/dev/null)" || return 1
  running="$(grep -cE '"(status|state)": *"Running"' <<<"${out}" || true)"
  others="$(grep -cE '"(status|state)": *"(Copying|Init|Stopped|Error|Lagging)"' <<<"${out}" || true)"
  [[ "${running}" -ge 2 && "${others}" -eq 0 ]]
}

retry "${wait_seconds}" "workflow customer.${workflow} to be Running" all_streams_running
echo "workflow customer.${workflow} is Running: the cluster is ready"
