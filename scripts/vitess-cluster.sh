#!/usr/bin/env bash
# A real local Vitess cluster on MariaDB, for trying vtpreflight and for the real-Vitess suite.
#
#   scripts/vitess-cluster.sh up   [--release 24] [--dir DIR]   build (or reuse) the release, start the cluster
#   scripts/vitess-cluster.sh down [--dir DIR]                  stop every process it started, by pid
#   scripts/vitess-cluster.sh tablet --keyspace KS --shard SH --uid U [--dir DIR]
#                                                               start one more primary-only shard's tablet
#   scripts/vitess-cluster.sh stop-tablet --uid U [--dir DIR]   stop one tablet (vttablet + its MariaDB) by pid
#
# Shape: etcd (topology), vtctld, and per tablet one MariaDB and one vttablet in external-socket mode (no
# mysqlctl, no VTOrc), primary-only shards made primary with PlannedReparentShard. Keyspaces `commerce`
# (unsharded: product, customer, corder, two sequences) and `customer` (sharded -80,80-, empty, vschema
# ready for customer and corder, whose sequences live in commerce). Vitess servers refuse to run as root, so as root everything runs as the
# unprivileged user $VTPREFLIGHT_VITESS_USER (default vtpreflight, created with useradd). Loopback only; ports
# are picked free from $VTPREFLIGHT_VITESS_PORT_BASE (default 21000) upward, away from 2379/3306/15999.
# The schema, vschemas and rows are the compose cluster's (compose/schema, applied by compose/init/schema.sh).
# `up` prints the --vtctld address, each primary's MySQL port and a least-privilege MySQL user for vtpreflight,
# and writes them to DIR/cluster.env; DIR/pids lists every process for `down`.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"

cmd="${1:-}"; [ $# -gt 0 ] && shift
release=24; dir="${VTPREFLIGHT_VITESS_DIR:-/tmp/vtpreflight-vitess}"; ks=""; shard=""; uid=""
while [ $# -gt 0 ]; do
  case "$1" in
    --release) release="${2#v}"; shift 2 ;;
    --dir) dir="$2"; shift 2 ;;
    --keyspace) ks="$2"; shift 2 ;;
    --shard) shard="$2"; shift 2 ;;
    --uid) uid="$2"; shift 2 ;;
    *) echo "vitess-cluster: unknown argument $1" >&2; exit 2 ;;
  esac
done
release="${release#0.}"; release="${release%%.*}"
user="${VTPREFLIGHT_VITESS_USER:-vtpreflight}"
cell=zone1
log() { echo "vitess-cluster: $*" >&2; }
die() { log "$*"; exit 1; }

# as_user CMD…: run as the unprivileged user when we are root, else as ourselves.
as_user() {
  if [ "$(id -u)" = 0 ]; then runuser -u "$user" -- "$@"; else "$@"; fi
}

# spawn NAME CMD…: start CMD in the background as the user, its stdout/stderr in DIR/log/NAME.log; records
# the server's own pid (the shell execs it) in DIR/pids as "NAME PID".
spawn() {
  local name="$1"; shift
  local pidf="$dir/run/$name.pid"
  rm -f "$pidf"
  # shellcheck disable=SC2016
  as_user sh -c 'echo $$ > "$1"; shift; exec "$@"' sh "$pidf" "$@" >"$dir/log/$name.log" 2>&1 &
  for _ in $(seq 1 50); do [ -s "$pidf" ] && break; sleep 0.1; done
  [ -s "$pidf" ] || die "$name did not start"
  echo "$name $(cat "$pidf")" >>"$dir/pids"
}

port_free() { ! ss -Hltn "sport = :$1" | grep -q .; }

# wait_port PORT SECONDS WHAT: bounded wait until something listens on 127.0.0.1:PORT.
wait_port() {
  local deadline=$(( $(date +%s) + $2 ))
  until ss -Hltn "sport = :$1" | grep -q .; do
    [ "$(date +%s)" -lt "$deadline" ] || die "$3 did not listen on port $1 within $2 s (log: $dir/log)"
    sleep 0.2
  done
}

# retry SECONDS WHAT CMD…: run CMD until it succeeds, bounded.
retry() {
  local secs="$1" what="$2"; shift 2
  local deadline=$(( $(date +%s) + secs ))
  until "$@" >>"$dir/log/retry.log" 2>&1; do
    [ "$(date +%s)" -lt "$deadline" ] || { tail -5 "$dir/log/retry.log" >&2; die "$what failed for $secs s"; }
    sleep 2
  done
}

load_env() {
  [ -f "$dir/cluster.env" ] || die "no cluster in $dir (run: $0 up)"
  # shellcheck disable=SC1091
  . "$dir/cluster.env"
}

# Flag spelling of the servers (vtctld, vttablet): from v23 they define their flags with dashes
# (go/vt/utils/flags.go, e.g. go/vt/servenv/grpc_server.go:145 @v0.23.3); v19 to v22 define them with
# underscores (go/vt/servenv/grpc_server.go:132 @v0.22.4 "grpc_port"). vtctldclient always takes dashes.
f() {
  if [ "${VT_RELEASE:-$release}" -ge 23 ]; then echo "--$1"; else echo "--${1//-/_}"; fi
}

topo_flags() {
  echo "$(f topo-implementation) etcd2 $(f topo-global-server-address) 127.0.0.1:$ETCD_PORT $(f topo-global-root) /vitess/global"
}

vtctl() { "$VT_BIN/vtctldclient" --server "127.0.0.1:$VTCTLD_GRPC_PORT" "$@"; }

tablet_alias() { printf '%s-%010d' "$cell" "$1"; }

# The tablets' MySQL users, as Vitess's own init SQL for MariaDB test servers creates them
# (go/test/endtoend/vreplication/testdata/config/init_testserver_db.sql @v0.24.4), written here for this
# cluster: socket-only users with broad grants, sql_log_bin off, and the server left read-only.
init_sql() {
  cat <<'SQL'
SET GLOBAL read_only = 'OFF';
SET sql_log_bin = 0;
DROP USER IF EXISTS ''@'%', ''@'localhost', 'root'@'%';
DROP DATABASE IF EXISTS test;
CREATE USER 'vt_dba'@'localhost';
GRANT ALL ON *.* TO 'vt_dba'@'localhost' WITH GRANT OPTION;
CREATE USER 'vt_app'@'localhost';
GRANT ALL ON *.* TO 'vt_app'@'localhost';
CREATE USER 'vt_appdebug'@'localhost';
GRANT SELECT, SHOW DATABASES, PROCESS ON *.* TO 'vt_appdebug'@'localhost';
CREATE USER 'vt_allprivs'@'localhost';
GRANT ALL ON *.* TO 'vt_allprivs'@'localhost';
CREATE USER 'vt_repl'@'%';
GRANT REPLICATION SLAVE ON *.* TO 'vt_repl'@'%';
CREATE USER 'vt_filtered'@'localhost';
GRANT ALL ON *.* TO 'vt_filtered'@'localhost';
CREATE USER 'vt_monitoring'@'localhost';
GRANT SELECT, PROCESS, SUPER, REPLICATION CLIENT, RELOAD ON *.* TO 'vt_monitoring'@'localhost';
SQL
  # vtpreflight's own least-privilege user (README "The MySQL user needs"), over TCP: the servers run
  # skip-name-resolve, so its host is the loopback address, not localhost.
  cat <<SQL
CREATE USER '$PF_USER'@'127.0.0.1' IDENTIFIED BY '$PF_PASSWORD';
GRANT SELECT ON \`_vt\`.* TO '$PF_USER'@'127.0.0.1';
GRANT SELECT ON \`vt_commerce\`.* TO '$PF_USER'@'127.0.0.1';
GRANT SELECT ON \`vt_customer\`.* TO '$PF_USER'@'127.0.0.1';
GRANT PROCESS ON *.* TO '$PF_USER'@'127.0.0.1';
GRANT SELECT ON performance_schema.* TO '$PF_USER'@'127.0.0.1';
GRANT SELECT ON mysql.user TO '$PF_USER'@'127.0.0.1';
GRANT SELECT ON mysql.db TO '$PF_USER'@'127.0.0.1';
GRANT SELECT ON mysql.tables_priv TO '$PF_USER'@'127.0.0.1';
SET GLOBAL read_only = 'ON';
SQL
}

# start_tablet KS SHARD UID: one MariaDB + one vttablet, then PlannedReparentShard makes it the primary.
start_tablet() {
  local k="$1" s="$2" u="$3"
  local mysql_port=$(( PORT_BASE + 100 + u % 100 + (u / 100) * 10 ))
  local t="$dir/vt_$u" sock="$dir/vt_$u/mysql.sock"
  local http_port=$(( mysql_port + 1000 )) grpc_port=$(( mysql_port + 2000 ))
  for p in "$mysql_port" "$http_port" "$grpc_port"; do port_free "$p" || die "port $p is taken (tablet $u)"; done
  as_user mkdir -p "$t/data" "$t/tmp"
  as_user tee "$t/my.cnf" >/dev/null <<CNF
[mysqld]
datadir = $t/data
innodb_data_home_dir = $t/data
innodb_log_group_home_dir = $t/data
log-error = $t/error.log
log-bin = $t/bin-log
relay-log = $t/relay-log
relay-log-index = $t/relay-log.index
pid-file = $t/mysql.pid
port = $mysql_port
bind-address = 127.0.0.1
socket = $sock
tmpdir = $t/tmp
server-id = $u
skip-name-resolve
connect_timeout = 30
innodb_lock_wait_timeout = 20
max_allowed_packet = 64M
max_connections = 500
innodb_buffer_pool_size = 48M
skip_slave_start
sql_mode = STRICT_TRANS_TABLES,NO_ENGINE_SUBSTITUTION
gtid_strict_mode = 1
innodb_stats_persistent = 0
sync_binlog = 1
binlog_format = ROW
binlog_row_image = FULL
log_slave_updates
slave_net_timeout = 60
character_set_server = utf8mb4
collation_server = utf8mb4_general_ci
read-only
CNF
  as_user mariadb-install-db --defaults-file="$t/my.cnf" --auth-root-authentication-method=normal >"$dir/log/install_$u.log" 2>&1 \
    || die "mariadb-install-db for tablet $u failed (log: $dir/log/install_$u.log)"
  spawn "mariadb_$u" mariadbd --defaults-file="$t/my.cnf"
  wait_port "$mysql_port" 60 "MariaDB of tablet $u"
  init_sql | as_user mariadb -uroot -S "$sock" || die "init SQL on tablet $u failed"
  # shellcheck disable=SC2046
  spawn "vttablet_$u" "$VT_BIN/vttablet" $(topo_flags) --tablet-path "$(tablet_alias "$u")" \
    $(f tablet-hostname) 127.0.0.1 $(f init-keyspace) "$k" $(f init-shard) "$s" $(f init-tablet-type) replica \
    $(f db-socket) "$sock" --port "$http_port" $(f grpc-port) "$grpc_port" --bind-address 127.0.0.1 \
    $(f grpc-bind-address) 127.0.0.1 $(f service-map) 'grpc-queryservice,grpc-tabletmanager,grpc-updatestream'
  wait_port "$grpc_port" 60 "vttablet $u"
  # The first PRS of a release can fail while the tablet still creates its sidecar tables (v19:
  # PopulateReparentJournal on _vt.reparent_journal); retried, bounded.
  retry 90 "PlannedReparentShard $k/$s" vtctl PlannedReparentShard "$k/$s" --new-primary "$(tablet_alias "$u")"
  echo "TABLET_$u=$k/$s:$mysql_port" >>"$dir/cluster.env"
}

stop_pid() {
  local name="$1" pid="$2"
  kill -0 "$pid" 2>/dev/null || return 0
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.2; done
  log "$name ($pid) did not stop in 20 s: SIGKILL"
  kill -KILL "$pid" 2>/dev/null || true
}

# The schema, vschemas and rows: the same commands as the compose cluster's (apply_schema_and_seed).
# shellcheck source=compose/init/schema.sh
. "$here/compose/init/schema.sh"

up() {
  [ ! -s "$dir/pids" ] || die "a cluster already runs from $dir (run: $0 down --dir $dir)"
  command -v mariadbd >/dev/null || [ -x /usr/sbin/mariadbd ] || die "mariadbd not found (apt-get install mariadb-server)"
  command -v etcd >/dev/null || die "etcd not found (apt-get install etcd-server)"
  export PATH="$PATH:/usr/sbin"
  local started; started=$(date +%s)
  VT_BIN="$("$here/scripts/vitess-build.sh" "$release" | tail -1)"
  VT_VERSION="$("$VT_BIN/vtctldclient" --version 2>&1 | grep -o 'Version: [0-9.]*' | head -1 | cut -d' ' -f2)"
  if [ "$(id -u)" = 0 ] && ! id "$user" >/dev/null 2>&1; then
    useradd --system --user-group --no-create-home --shell /usr/sbin/nologin "$user"
    log "created user $user"
  fi
  rm -rf "$dir"; mkdir -p "$dir/log" "$dir/run"
  [ "$(id -u)" = 0 ] && chown -R "$user:" "$dir"
  chmod 0755 "$dir"
  : >"$dir/pids"
  # shellcheck disable=SC2154 # rc is assigned inside the trap
  trap 'rc=$?; if [ "$rc" -ne 0 ]; then log "bring-up failed; stopping what started"; down; fi' EXIT
  PORT_BASE="${VTPREFLIGHT_VITESS_PORT_BASE:-21000}"
  local tries=0
  while :; do
    local busy=0 p
    for p in $(seq "$PORT_BASE" $(( PORT_BASE + 2999 )) ); do
      case $(( (p - PORT_BASE) % 1000 )) in 0|1|2|3|1[0-9][0-9]) port_free "$p" || { busy=1; break; } ;; esac
    done
    [ "$busy" = 0 ] && break
    tries=$(( tries + 1 )); [ "$tries" -lt 20 ] || die "no free port range found"
    PORT_BASE=$(( PORT_BASE + 3000 ))
  done
  ETCD_PORT=$PORT_BASE; VTCTLD_HTTP_PORT=$(( PORT_BASE + 2 )); VTCTLD_GRPC_PORT=$(( PORT_BASE + 3 ))
  PF_USER=vtpreflight; PF_PASSWORD="pf-$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')"
  cat >"$dir/cluster.env" <<ENV
VT_RELEASE=$release
VT_VERSION=$VT_VERSION
VT_BIN=$VT_BIN
PORT_BASE=$PORT_BASE
ETCD_PORT=$ETCD_PORT
VTCTLD_GRPC_PORT=$VTCTLD_GRPC_PORT
VTCTLD=127.0.0.1:$VTCTLD_GRPC_PORT
PF_USER=$PF_USER
PF_PASSWORD=$PF_PASSWORD
ENV
  spawn etcd etcd --name vt --data-dir "$dir/etcd" \
    --listen-client-urls "http://127.0.0.1:$ETCD_PORT" --advertise-client-urls "http://127.0.0.1:$ETCD_PORT" \
    --listen-peer-urls "http://127.0.0.1:$(( PORT_BASE + 1 ))" --initial-advertise-peer-urls "http://127.0.0.1:$(( PORT_BASE + 1 ))" \
    --initial-cluster "vt=http://127.0.0.1:$(( PORT_BASE + 1 ))"
  wait_port "$ETCD_PORT" 30 etcd
  retry 30 "AddCellInfo" "$VT_BIN/vtctldclient" --server internal --topo-implementation etcd2 \
    --topo-global-server-address "127.0.0.1:$ETCD_PORT" --topo-global-root /vitess/global \
    AddCellInfo --root "/vitess/$cell" --server-address "127.0.0.1:$ETCD_PORT" "$cell"
  # shellcheck disable=SC2046
  spawn vtctld "$VT_BIN/vtctld" $(topo_flags) $(f service-map) 'grpc-vtctl,grpc-vtctld' --port "$VTCTLD_HTTP_PORT" \
    $(f grpc-port) "$VTCTLD_GRPC_PORT" --bind-address 127.0.0.1 $(f grpc-bind-address) 127.0.0.1
  wait_port "$VTCTLD_GRPC_PORT" 30 vtctld
  retry 30 "CreateKeyspace commerce" vtctl CreateKeyspace commerce
  retry 30 "CreateKeyspace customer" vtctl CreateKeyspace customer
  start_tablet commerce 0 100
  start_tablet customer -80 200
  start_tablet customer 80- 300
  apply_schema_and_seed "$(tablet_alias 100)"
  trap - EXIT
  load_env
  log "Vitess $VT_VERSION up in $(( $(date +%s) - started )) s (logs: $dir/log)"
  echo "--vtctld $VTCTLD"
  echo "MySQL user for vtpreflight: $PF_USER (password in $dir/cluster.env as PF_PASSWORD)"
  grep '^TABLET_' "$dir/cluster.env" | sed 's/^TABLET_\([0-9]*\)=\(.*\):\(.*\)$/primary zone1-\1 \2: MySQL 127.0.0.1:\3/'
  echo "try: VTPREFLIGHT_MYSQL_USER=$PF_USER VTPREFLIGHT_MYSQL_PASSWORD=\$PF_PASSWORD node dist/src/cli.js check --vtctld $VTCTLD"
}

down() {
  [ -f "$dir/pids" ] || { log "nothing runs from $dir"; return 0; }
  local name pid
  # vttablets first, then vtctld, the MariaDBs, etcd last.
  for pat in 'vttablet_' 'vtctld' 'mariadb_' 'etcd'; do
    while read -r name pid; do
      case "$name" in "$pat"*) stop_pid "$name" "$pid" ;; esac
    done <"$dir/pids"
  done
  : >"$dir/pids"
  log "stopped"
}

case "$cmd" in
  up) up ;;
  down) down ;;
  tablet)
    if [ -z "$ks" ] || [ -z "$shard" ] || [ -z "$uid" ]; then die "tablet needs --keyspace, --shard and --uid"; fi
    load_env; release="$VT_RELEASE"; start_tablet "$ks" "$shard" "$uid" ;;
  stop-tablet)
    [ -n "$uid" ] || die "stop-tablet needs --uid"
    while read -r name pid; do
      case "$name" in "vttablet_$uid") stop_pid "$name" "$pid" ;; esac
    done <"$dir/pids"
    while read -r name pid; do
      case "$name" in "mariadb_$uid") stop_pid "$name" "$pid" ;; esac
    done <"$dir/pids"
    grep -v -e "^vttablet_$uid " -e "^mariadb_$uid " "$dir/pids" >"$dir/pids.new" || true
    mv "$dir/pids.new" "$dir/pids" ;;
  *) sed -n '2,9p' "$0" >&2; exit 2 ;;
esac
