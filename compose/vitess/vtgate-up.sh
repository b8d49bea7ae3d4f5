#!/bin/bash
# Starts vtgate with one MySQL user (VTGATE_USER / VTGATE_PASSWORD from .env).
set -euo pipefail
# shellcheck source=compose/vitess/common.sh
source "$(dirname "$0")/common.sh"

require_safe_value VTGATE_USER
require_safe_value VTGATE_PASSWORD

# The static auth file keeps the password off the command line.
umask 077
auth=/tmp/vtgate-users.json
cat >"${auth}" <<JSON
{
  "${VTGATE_USER}": [{ "Password": "${VTGATE_PASSWORD}", "UserData": "${VTGATE_USER}" }]
}
JSON

exec vtgate \
  "${TOPOLOGY_FLAGS[@]}" \
  --cell "${CELL}" \
  --cells_to_watch "${CELL}" \
  --port 15001 \
  --grpc_port 15991 \
  --mysql_server_port 15306 \
  --mysql_server_version 8.0.40-Vitess \
  --mysql_auth_server_impl static \
  --mysql_auth_server_static_file "${auth}" \
  --tablet_types_to_wait PRIMARY,REPLICA \
  --service_map 'grpc-vtgateservice' \
  --logtostderr
