#!/bin/bash
# Starts one mysqld (through the official image's entrypoint, which initializes an empty data
# directory first) with the options Vitess replication and VReplication rely on.
#
# The options are flags rather than a mounted .cnf file: mysqld silently ignores world-writable
# option files, which is what bind mounts look like on some Docker Desktop setups.
#
# Environment: SERVER_ID (unique per mysqld), plus the image's MYSQL_* variables.
set -euo pipefail

: "${SERVER_ID:?SERVER_ID is not set}"

flags=(
  --server-id="${SERVER_ID}"
  # GTID-based replication: Vitess positions are GTID sets.
  --gtid-mode=ON
  --enforce-gtid-consistency=ON
  # Row-based binary logs with full row images, which VStreamer needs (MINIMAL is what
  # `scripts/compose-fault.sh row-image` sets, to show the source-not-serving check).
  --log-bin=mysql-bin
  --binlog-format=ROW
  --binlog-row-image=FULL
  --log-replica-updates=ON
  # Fixed names, so a recreated container (new hostname) keeps using its volume's logs.
  --relay-log=relay-bin
  # vttablet, not mysqld, decides when replication starts.
  --skip-replica-start
  # What Vitess v22 configures for MySQL 8.0 (caching_sha2_password became its default in v23).
  --default-authentication-plugin=mysql_native_password
  --character-set-server=utf8mb4
)

exec docker-entrypoint.sh mysqld "${flags[@]}"
