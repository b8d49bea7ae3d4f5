#!/bin/bash
# The schema, vschemas and rows of the example cluster, shared by the compose cluster (compose/init/init-cluster.sh)
# and the local real-Vitess cluster (scripts/vitess-cluster.sh): one set of commands, proven by the local cluster's
# suite. The caller defines `vtctl ARGS...` (vtctldclient against its vtctld) and `retry SECONDS WHAT COMMAND...`.

schema_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/../schema" && pwd)"

# apply_schema_and_seed COMMERCE_PRIMARY_ALIAS: schema and vschema of both keyspaces, then the rows of commerce.
# Idempotent (CREATE TABLE IF NOT EXISTS, INSERT IGNORE), so a re-run on an existing cluster is harmless.
apply_schema_and_seed() {
  local primary="$1" statement
  # Retried: a new primary may take a few seconds to serve.
  retry 120 "ApplySchema commerce" vtctl ApplySchema --sql "$(cat "${schema_dir}/commerce.sql")" commerce
  retry 60 "ApplyVSchema commerce" vtctl ApplyVSchema --vschema-file "${schema_dir}/commerce-vschema.json" commerce
  retry 60 "ApplyVSchema customer" vtctl ApplyVSchema --vschema-file "${schema_dir}/customer-vschema.json" customer
  while IFS= read -r statement; do
    retry 30 "seed commerce" vtctl ExecuteFetchAsDBA "${primary}" "${statement}"
  done < <(grep -v -e '^--' -e '^[[:space:]]*$' "${schema_dir}/commerce-seed.sql")
}
