#!/usr/bin/env bash
# Injects a fault into the local Vitess cluster of docker-compose.yml, so you can watch vtpreflight
# catch it. Run from anywhere inside the repository, with the cluster up (docker compose up).
# See usage() below and README.md ("Try it on a local Vitess cluster").
set -euo pipefail

readonly WORKFLOW=commerce2customer
readonly TARGET_KEYSPACE=customer

usage() {
  cat <<'EOF'
Usage: scripts/compose-fault.sh [--undo] NAME

Injects fault NAME into the docker-compose Vitess cluster (cp .env.example .env && docker compose up),
then tells which vtpreflight findings to expect. Re-run the check with:
  docker compose run --rm vtpreflight

Faults:
  stop-stream   Stops the commerce2customer stream on shard customer/-80 (vtctldclient Workflow stop
                --shards=-80). Expect: stop-after-copy-state (a MoveTables stream stopped before the
                switch) and, once the stream is older than --max-lag (30s by default), replication-lag.
  row-image     Sets binlog_row_image=MINIMAL on the commerce primary's mysqld (SET GLOBAL, lost on
                restart). Expect: source-not-serving (VStreamer needs FULL row images).
  kill-primary  Stops the mysqld container of the customer/80- primary (docker compose stop).
                Expect: unreachable (its sidecar tables and status cannot be read).

Options:
  --undo        Reverse fault NAME (start the stream, set FULL, start the mysqld container).
  -h, --help    Show this help.

Exit status: 0 done, 1 the fault could not be injected, 2 usage error.
EOF
}

die() {
  echo "compose-fault.sh: $*" >&2
  exit 1
}

usage_error() {
  echo "compose-fault.sh: $*" >&2
  echo >&2
  usage >&2
  exit 2
}

# compose ARGS...: docker compose (plugin) or docker-compose (standalone), in the repository root so
# the project name and .env are the ones `docker compose up` used.
compose() {
  if docker compose version >/dev/null 2>&1; then
    docker compose "$@"
  elif command -v docker-compose >/dev/null 2>&1; then
    docker-compose "$@"
  else
    die "neither 'docker compose' nor 'docker-compose' is installed"
  fi
}

# vtctl ARGS...: vtctldclient inside the vtctld container.
vtctl() {
  compose exec -T vtctld vtctldclient --server localhost:15999 "$@"
}

# primary_mysql KEYSPACE/SHARD: the mysqld service of the shard's primary, read from the topology
# (`GetTablets` prints "alias keyspace shard type host:port mysql_host:mysql_port ..."). That is the
# same mysql_hostname vtpreflight connects to, and in this compose file it is the service name.
primary_mysql() {
  local keyspace="${1%%/*}" shard="${1#*/}" endpoint
  endpoint="$(vtctl GetTablets --keyspace "${keyspace}" --shard "${shard}" | awk '$4 == "primary" { print $6; exit }')"
  [[ -n "${endpoint}" ]] || die "no primary found for ${keyspace}/${shard}: is the cluster up (docker compose ps)?"
  echo "${endpoint%%:*}"
}

# mysql_root SERVICE SQL: runs SQL as root in the mysqld container SERVICE.
mysql_root() {
  # shellcheck disable=SC2016 # expanded inside the container, where MYSQL_ROOT_PASSWORD is set
  compose exec -T "$1" sh -c 'MYSQL_PWD="$MYSQL_ROOT_PASSWORD" exec mysql --user=root --batch --skip-column-names -e "$0"' "$2"
}

expect() {
  echo
  echo "Now run:  docker compose run --rm vtpreflight"
  echo "Expect:   $*"
  echo "Undo:     scripts/compose-fault.sh --undo ${fault}"
}

stop_stream() {
  echo "Stopping the ${WORKFLOW} stream on ${TARGET_KEYSPACE}/-80..."
  vtctl Workflow --keyspace "${TARGET_KEYSPACE}" stop --workflow "${WORKFLOW}" --shards=-80 >/dev/null
  expect "stop-after-copy-state on customer/-80 (stream stopped before SwitchTraffic); after 30s" \
    "(the default --max-lag) also replication-lag for workflow ${WORKFLOW}."
}

undo_stop_stream() {
  vtctl Workflow --keyspace "${TARGET_KEYSPACE}" start --workflow "${WORKFLOW}" --shards=-80 >/dev/null
  echo "Started the ${WORKFLOW} stream on ${TARGET_KEYSPACE}/-80 again."
}

row_image() {
  local service
  service="$(primary_mysql commerce/0)"
  echo "Setting binlog_row_image=MINIMAL on ${service} (the commerce primary)..."
  mysql_root "${service}" "SET GLOBAL binlog_row_image = 'MINIMAL'"
  echo "binlog_row_image on ${service}: $(mysql_root "${service}" 'SELECT @@GLOBAL.binlog_row_image')"
  expect "source-not-serving: ${service}, the source the ${WORKFLOW} streams read from," \
    "has binlog_row_image=MINIMAL."
}

undo_row_image() {
  local service
  service="$(primary_mysql commerce/0)"
  mysql_root "${service}" "SET GLOBAL binlog_row_image = 'FULL'"
  echo "binlog_row_image on ${service}: $(mysql_root "${service}" 'SELECT @@GLOBAL.binlog_row_image')"
}

kill_primary() {
  local service
  service="$(primary_mysql customer/80-)"
  echo "Stopping ${service} (the mysqld of the customer/80- primary)..."
  compose stop "${service}"
  expect "unreachable: the customer/80- primary's MySQL (${service}:3306) cannot be read, so that" \
    "shard is not checked; vtpreflight exits 1, never a silent pass."
}

undo_kill_primary() {
  # The tablet record still names the stopped mysqld; start every customer/80- mysqld that is down.
  compose start mysql400 mysql401
  echo "Started the customer/80- mysqld containers; vttablet reconnects within a few seconds."
}

undo=false
fault=""
while (($# > 0)); do
  case "$1" in
    -h | --help)
      usage
      exit 0
      ;;
    --undo) undo=true ;;
    -*) usage_error "unknown option: $1" ;;
    *)
      [[ -z "${fault}" ]] || usage_error "only one fault at a time (got '${fault}' and '$1')"
      fault="$1"
      ;;
  esac
  shift
done
[[ -n "${fault}" ]] || usage_error "missing fault NAME"

case "${fault}" in
  stop-stream | row-image | kill-primary) ;;
  *) usage_error "unknown fault: ${fault}" ;;
esac

cd "$(dirname "${BASH_SOURCE[0]}")/.."
fn="${fault//-/_}"
if [[ "${undo}" == true ]]; then
  "undo_${fn}"
else
  "${fn}"
fi
