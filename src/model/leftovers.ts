/**
 * What the `leftovers` checks share: which keyspaces they judge, and which workflows explain an artifact.
 *
 * A leftover is an artifact an earlier workflow left behind: a denied table, a routing or
 * mirror rule, a non-serving shard, a disabled query service, a FROZEN or stopped workflow, a write-only vindex, a
 * journal, an Online DDL row. `vtpreflight sweep` judges every keyspace; `check` judges the keyspaces its selected
 * workflows read from or write to, so that a check of one workflow is not about the rest of the cluster.
 */
import { byCodeUnit } from '../text.js';
import { workflowTableSet } from './expected-streams.js';
import type { ClusterModel, Keyspace, Shard, Workflow } from './types.js';

/** The keyspaces a leftovers check judges, sorted: every keyspace in a sweep, else the selected workflows' ones. */
export function leftoverKeyspaces(model: ClusterModel, options: { readonly sweep: boolean }): Keyspace[] {
  if (options.sweep) return [...model.keyspaces.values()];
  const names = new Set<string>();
  for (const wf of model.workflows) {
    names.add(wf.keyspace);
    for (const k of wf.sourceKeyspaces) names.add(k);
  }
  return [...names]
    .sort(byCodeUnit)
    .map((n) => model.keyspace(n))
    .filter((k): k is Keyspace => k !== undefined);
}

/**
 * Keyspaces whose workflows could not all be read (the shard list or a primary's sidecar failed): an artifact there
 * may belong to a workflow that was not seen, so it is not proven a leftover.
 */
export function keyspacesWithUnreadWorkflows(model: ClusterModel): string[] {
  const out: string[] = [];
  for (const ks of model.keyspaces.values()) {
    if (!ks.shards.ok) {
      out.push(ks.name);
      continue;
    }
    for (const sh of ks.shards.value.values()) {
      if (sh.sidecar === undefined || !sh.sidecar.ok) {
        out.push(ks.name);
        break;
      }
    }
  }
  return out;
}

/** Every workflow read (any selection) whose target or a source keyspace is `keyspace`. */
export function workflowsTouching(model: ClusterModel, keyspace: string): Workflow[] {
  return model.allWorkflows.filter((wf) => wf.keyspace === keyspace || wf.sourceKeyspaces.includes(keyspace));
}

/** True when a workflow read moves `table` between keyspaces `a` and `b` (either direction). */
export function movedBetween(model: ClusterModel, table: string, a: string, b: string): Workflow | undefined {
  return model.allWorkflows.find(
    (wf) =>
      ((wf.keyspace === a && wf.sourceKeyspaces.includes(b)) ||
        (wf.keyspace === b && wf.sourceKeyspaces.includes(a))) &&
      workflowTableSet(wf).has(table),
  );
}

/** `ks.table[@type]` split into its keyspace, table and tablet-type suffix (keyspace '' when unqualified). */
export function splitQualified(name: string): { keyspace: string; table: string; suffix: string } {
  const at = name.indexOf('@');
  const base = at < 0 ? name : name.slice(0, at);
  const suffix = at < 0 ? '' : name.slice(at);
  const dot = base.indexOf('.');
  return dot < 0
    ? { keyspace: '', table: base, suffix }
    : { keyspace: base.slice(0, dot), table: base.slice(dot + 1), suffix };
}

/** How old `seconds` (unix) is at the model's read time, in whole seconds (0 when unknown or in the future). */
export function ageSeconds(model: ClusterModel, seconds: number): number {
  if (!Number.isFinite(seconds) || seconds <= 0) return 0;
  return Math.max(0, Math.floor(model.readAt / 1000 - seconds));
}

/** A day: how long after its write switch a workflow counts as "never completed" (leftover-frozen-workflow). */
export const LEFTOVER_AGE_SECONDS = 24 * 3600;

/** `3d 4h` / `5h 2m` / `40s`: an age as a person reads it. */
export function formatAge(seconds: number): string {
  const d = Math.floor(seconds / 86400);
  const h = Math.floor((seconds % 86400) / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  if (d > 0) return `${d}d ${h}h`;
  if (h > 0) return `${h}h ${m}m`;
  if (m > 0) return `${m}m`;
  return `${seconds}s`;
}

/**
 * The name `complete --rename-tables` renames a source table to: `_%.59s_old` (`renameTableTemplate`,
 * `go/vt/vtctl/workflow/traffic_switcher.go:79 @v0.24.4`, applied by `getRenameFileName` in utils.go); Go's `%.59s`
 * keeps the first 59 runes.
 */
export function renamedTableName(table: string): string {
  return `_${[...table].slice(0, 59).join('')}_old`;
}

/**
 * The base tables of a shard primary's schema as read (`information_schema.TABLES`, views left out when the table
 * keys were read too), or null when they were not read (a failed read, a readout from before the read, a shard out
 * of scope).
 */
export function schemaBaseTables(shard: Shard): readonly string[] | null {
  const sc = shard.sidecar;
  if (sc === undefined || !sc.ok || sc.value.tables === undefined || !sc.value.tables.ok) return null;
  const keys = sc.value.tableKeys;
  if (keys === undefined || !keys.ok) return sc.value.tables.value;
  const base = new Set(keys.value.map((k) => k.table));
  return sc.value.tables.value.filter((t) => base.has(t));
}
