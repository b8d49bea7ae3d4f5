#!/bin/bash
# Starts vtctld: the gRPC API (port 15999) that vtctldclient and vtpreflight talk to.
set -euo pipefail
# shellcheck source=compose/vitess/common.sh
source "$(dirname "$0")/common.sh"

exec vtctld \
  "${TOPOLOGY_FLAGS[@]}" \
  --port 15000 \
  --grpc_port 15999 \
  --service_map 'grpc-vtctl,grpc-vtctld' \
  --logtostderr
