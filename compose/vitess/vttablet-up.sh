#!/bin/bash
# Starts one vttablet in front of its own mysqld container.
#
# The mysqld runs in a separate container (the official mysql image), so vttablet reaches it over
# TCP (--db_host/--db_port). Vitess then records that host and port as the tablet's mysql_hostname
# and mysql_port (vitessio/vitess:go/vt/vttablet/tabletmanager/tm_init.go, checkMysql), which is
# where vtpreflight and the replicas connect: a name every container on the compose network resolves.
#
# Environment: TABLET_UID, TABLET_HOSTNAME (the compose service name), KEYSPACE, SHARD, DB_HOST,
# VT_DB_PASSWORD.
set -euo pipefail
# shellcheck source=compose/vitess/common.sh
source "$(dirname "$0")/common.sh"

: "${TABLET_UID:?TABLET_UID is not set}" "${KEYSPACE:?KEYSPACE is not set}" "${SHARD:?SHARD is not set}"
: "${TABLET_HOSTNAME:?TABLET_HOSTNAME is not set}" "${DB_HOST:?DB_HOST is not set}"
require_safe_value VT_DB_PASSWORD

printf -v alias '%s-%010d' "${CELL}" "${TABLET_UID}"

# Passwords go to a credentials file, not to the command line (ps, docker inspect).
umask 077
credentials=/tmp/db-credentials.json
cat >"${credentials}" <<JSON
{
  "vt_dba": ["${VT_DB_PASSWORD}"],
  "vt_app": ["${VT_DB_PASSWORD}"],
  "vt_appdebug": ["${VT_DB_PASSWORD}"],
  "vt_allprivs": ["${VT_DB_PASSWORD}"],
  "vt_repl": ["${VT_DB_PASSWORD}"],
  "vt_filtered": ["${VT_DB_PASSWORD}"]
}
JSON

echo "Starting vttablet ${alias} for ${KEYSPACE}/${SHARD} on mysqld ${DB_HOST}:${DB_PORT:-3306}"
# Every tablet starts as a replica; the init service makes one per shard primary (PlannedReparentShard).
exec vttablet \
  "${TOPOLOGY_FLAGS[@]}" \
  --tablet-path "${alias}" \
  --tablet_hostname "${TABLET_HOSTNAME}" \
  --init_keyspace "${KEYSPACE}" \
  --init_shard "${SHARD}" \
  --init_tablet_type replica \
  --port 15000 \
  --grpc_port 16000 \
  --service_map 'grpc-queryservice,grpc-tabletmanager,grpc-updatestream' \
  --health_check_interval 5s \
  --db_host "${DB_HOST}" \
  --db_port "${DB_PORT:-3306}" \
  --db_charset utf8mb4 \
  --db-credentials-server file \
  --db-credentials-file "${credentials}" \
  --logtostderr
