/**
 * The minimal MySQL user of vtpreflight, computed from the read declarations (src/reads/registry.ts) and the checks'
 * reasons: a privilege is required for an action when a read that needs it is core, or is declared by a reason that
 * applies to the action and can do more than warn (a failed read of it would leave a verdict unverified); any other
 * privilege is optional, and the report names on one info line what it could not read without it. Pure.
 */
import { fillNames, PRIMARY_READS, type PrimaryReadId } from '../reads/registry.js';
import { type Check, type Reason, reasonApplies, reasonNeedsRead } from './check.js';
import type { Action } from './steps.js';

/** The server flavor a GRANT is written for. */
export type Flavor = 'mysql' | 'mariadb';

/** One privilege of the plan, with the reads that need it. */
export interface PlannedGrant {
  /** The GRANT clause (`SELECT ON \`_vt\`.*`), names filled in. */
  readonly clause: string;
  readonly required: boolean;
  /** The reads that need it. */
  readonly reads: readonly PrimaryReadId[];
  /** The checks whose reasons make it required (empty for a core read, or when optional). */
  readonly neededBy: readonly string[];
  /** What it lets vtpreflight read. */
  readonly adds: string;
}

/** The actions judged for `action` (SwitchTraffic also judges lookup backfills by Externalize). */
const judged = (action: Action): readonly Action[] => (action === 'switch' ? ['switch', 'externalize'] : [action]);

/** The checks with a reason of `action` that needs `read` (on either side), so that a failed read unverifies. */
export function checksNeedingRead(checks: readonly Check[], read: PrimaryReadId, action: Action): string[] {
  return checks
    .filter((c) =>
      (Object.values(c.reasons) as Reason[]).some(
        (r) =>
          judged(action).some((a) => reasonApplies(r, a)) &&
          (['source-shard', 'target-shard'] as const).some((side) => reasonNeedsRead(r, read, side)),
      ),
    )
    .map((c) => c.id);
}

/**
 * The grants of the minimal user for `action`, in declaration order, each once. `sidecars` and `schemas` name the
 * sidecar databases and keyspace schemas to grant on (`{sidecar}` / `{schema}` of the declarations).
 */
export function grantPlan(
  checks: readonly Check[],
  action: Action,
  flavor: Flavor,
  names: { readonly sidecars: readonly string[]; readonly schemas: readonly string[] },
): PlannedGrant[] {
  // One grant per clause, whichever privileges spell it: a privilege can read one thing on a flavor and another
  // elsewhere (the foreign keys: SELECT on the schema on MySQL, PROCESS on MariaDB), spelling another read's clause.
  const byClause = new Map<
    string,
    { reads: PrimaryReadId[]; required: boolean; core: boolean; neededBy: Set<string>; adds: string[] }
  >();
  for (const read of PRIMARY_READS) {
    const core = read.role === 'core';
    const needers = core ? [] : checksNeedingRead(checks, read.id, action);
    for (const p of read.privileges)
      for (const sidecar of names.sidecars)
        for (const schema of names.schemas) {
          const clause = fillNames(p[flavor], { sidecar, schema });
          const g = byClause.get(clause) ?? { reads: [], required: false, core: false, neededBy: new Set(), adds: [] };
          if (!g.reads.includes(read.id)) g.reads.push(read.id);
          g.required ||= core || needers.length > 0;
          g.core ||= core;
          for (const n of needers) g.neededBy.add(n);
          if (!g.adds.includes(p.adds)) g.adds.push(p.adds);
          byClause.set(clause, g);
        }
  }
  const out: PlannedGrant[] = [];
  for (const [clause, g] of byClause)
    out.push({
      clause,
      required: g.required,
      reads: g.reads,
      neededBy: g.core ? [] : [...g.neededBy].sort(),
      adds: g.adds.join('; '),
    });
  return out;
}
