#!/bin/bash
# Creates the MySQL users that Vitess and vtpreflight need on a fresh data directory.
#
# The official mysql image runs this once, from /docker-entrypoint-initdb.d, while its temporary
# server listens only on the local socket. It either executes this file (when it is executable) or
# sources it, so the script changes no shell options unless it is executed.
#
# Vitess's own init_db.sql (vitessio/vitess:config/init_db.sql) creates the same users for
# `localhost`; here vttablet runs in another container and reaches mysqld over TCP (`--db_host`),
# so every user is created for '%'. Nothing here is written to the binary log (sql_log_bin = 0) and
# the GTID history is reset at the end: a replica must not carry transactions its primary lacks,
# or vttablet's errant-GTID check refuses to replicate.
#
# Environment (from .env via docker-compose.yml):
#   MYSQL_ROOT_PASSWORD         root password (set by the image's entrypoint)
#   VT_DB_PASSWORD              password of the vt_* users vttablet connects as
#   VTPREFLIGHT_MYSQL_USER      read-only user for vtpreflight
#   VTPREFLIGHT_MYSQL_PASSWORD  its password

if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then
  set -euo pipefail
fi

vitess_init_users() {
  local name
  for name in MYSQL_ROOT_PASSWORD VT_DB_PASSWORD VTPREFLIGHT_MYSQL_USER VTPREFLIGHT_MYSQL_PASSWORD; do
    if [[ -z "${!name:-}" ]]; then
      echo "init-vitess-users: ${name} is empty: copy .env.example to .env and fill it in" >&2
      return 1
    fi
    # Values go into SQL string literals and JSON; a narrow alphabet keeps both free of escaping.
    if [[ ! "${!name}" =~ ^[A-Za-z0-9_.-]+$ ]]; then
      echo "init-vitess-users: ${name} may only hold letters, digits, '_', '.' and '-'" >&2
      return 1
    fi
  done

  local vt_pw="${VT_DB_PASSWORD}"
  local pf_user="${VTPREFLIGHT_MYSQL_USER}"
  local pf_pw="${VTPREFLIGHT_MYSQL_PASSWORD}"
  # The privileges Vitess grants its app, allprivs and filtered users in config/init_db.sql.
  local app_privs="SELECT, INSERT, UPDATE, DELETE, CREATE, DROP, RELOAD, PROCESS, FILE, REFERENCES, INDEX,
    ALTER, SHOW DATABASES, CREATE TEMPORARY TABLES, LOCK TABLES, EXECUTE, REPLICATION CLIENT, CREATE VIEW,
    SHOW VIEW, CREATE ROUTINE, ALTER ROUTINE, CREATE USER, EVENT, TRIGGER"

  MYSQL_PWD="${MYSQL_ROOT_PASSWORD}" mysql --protocol=socket --user=root <<SQL
SET SESSION sql_log_bin = 0;

CREATE USER IF NOT EXISTS 'vt_dba'@'%' IDENTIFIED WITH mysql_native_password BY '${vt_pw}';
GRANT ALL ON *.* TO 'vt_dba'@'%' WITH GRANT OPTION;

CREATE USER IF NOT EXISTS 'vt_app'@'%' IDENTIFIED WITH mysql_native_password BY '${vt_pw}';
GRANT ${app_privs} ON *.* TO 'vt_app'@'%';

CREATE USER IF NOT EXISTS 'vt_appdebug'@'%' IDENTIFIED WITH mysql_native_password BY '${vt_pw}';
GRANT SELECT, SHOW DATABASES, PROCESS ON *.* TO 'vt_appdebug'@'%';

CREATE USER IF NOT EXISTS 'vt_allprivs'@'%' IDENTIFIED WITH mysql_native_password BY '${vt_pw}';
GRANT ${app_privs}, REPLICATION SLAVE ON *.* TO 'vt_allprivs'@'%';

CREATE USER IF NOT EXISTS 'vt_repl'@'%' IDENTIFIED WITH mysql_native_password BY '${vt_pw}';
GRANT REPLICATION SLAVE ON *.* TO 'vt_repl'@'%';

CREATE USER IF NOT EXISTS 'vt_filtered'@'%' IDENTIFIED WITH mysql_native_password BY '${vt_pw}';
GRANT ${app_privs}, REPLICATION SLAVE ON *.* TO 'vt_filtered'@'%';

-- vtpreflight only reads: the sidecar tables (_vt.vreplication, _vt.copy_state, ...) and the
-- keyspace schemas. No write privilege, no replication privilege.
CREATE USER IF NOT EXISTS '${pf_user}'@'%' IDENTIFIED WITH mysql_native_password BY '${pf_pw}';
GRANT SELECT ON \`_vt\`.* TO '${pf_user}'@'%';
GRANT SELECT ON \`vt_commerce\`.* TO '${pf_user}'@'%';
GRANT SELECT ON \`vt_customer\`.* TO '${pf_user}'@'%';

FLUSH PRIVILEGES;
RESET REPLICA ALL;
RESET MASTER;
SQL
}

vitess_init_users
