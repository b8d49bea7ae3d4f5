/**
 * The lookup vindexes a workflow backfills, found the way Externalize finds them as far as the readout allows.
 *
 * Upstream: `vitessio/vitess:go/vt/vtctl/workflow/lookup_vindex.go` (newest: the vindex names come from the workflow's
 * `options.lookup_vindexes`, else the workflow name; they are looked up in the vschema of the keyspace that holds the
 * vindex, which is the owner table's keyspace, i.e. the streams' source keyspace), `server.go`
 * `LookupVindexExternalize` (v18–v20: one vindex, named like the workflow) and the legacy
 * `go/vt/wrangler/materializer.go` `ExternalizeVindex` (workflow `<lookup table>_vdx`). A lookup vindex's
 * `params.table` is always `<lookup keyspace>.<lookup table>` (`validateAndGetVindex`), and the backfill's stream rules
 * write that table, so the vindex is found here by its table first, then by the workflow name (with and without the
 * legacy `_vdx` suffix). The workflow options are not in the model.
 */
import type { ClusterModel, Vindex, Workflow } from './types.js';
import { byCodeUnit } from '../text.js';

export interface BackfilledVindex {
  /** The keyspace whose vschema holds the vindex. */
  readonly keyspace: string;
  readonly vindex: Vindex;
  readonly matchedBy: 'table' | 'name';
}

export interface LookupBackfillVindexes {
  /** Vindexes found, sorted by keyspace then name. */
  readonly vindexes: readonly BackfilledVindex[];
  /** Keyspaces whose vschema was searched. */
  readonly searched: readonly string[];
  /** Searched keyspaces whose vschema could not be read. */
  readonly unread: readonly string[];
  /** The lookup tables the streams write, qualified (`<keyspace>.<table>`). */
  readonly tables: readonly string[];
}

const isLookup = (v: Vindex) => v.type.toLowerCase().includes('lookup');

/** True when the vindex is still write-only, i.e. not externalized yet. */
export function isWriteOnly(v: Vindex): boolean {
  return v.params['write_only'] === 'true';
}

/** Finds the lookup vindexes a workflow backfills, in its streams' source keyspaces and its own keyspace. */
export function backfilledVindexes(model: ClusterModel, wf: Workflow): LookupBackfillVindexes {
  const tables = [
    ...new Set(
      wf.streams.flatMap((s) =>
        s.source?.filter ? s.source.filter.rules.map((r) => `${wf.keyspace}.${r.match}`) : [],
      ),
    ),
  ].sort();
  const searched = [...new Set([...wf.sourceKeyspaces, wf.keyspace])].sort();
  const names = [wf.name, ...(wf.name.endsWith('_vdx') ? [wf.name.slice(0, -'_vdx'.length)] : [])];
  const unread: string[] = [];
  const byTable: BackfilledVindex[] = [];
  const byName: BackfilledVindex[] = [];
  for (const ks of searched) {
    const vs = model.keyspace(ks)?.vschema;
    if (!vs?.ok) {
      unread.push(ks);
      continue;
    }
    for (const v of vs.value.vindexes.values()) {
      if (!isLookup(v)) continue;
      if (tables.includes(v.params['table'] ?? '')) byTable.push({ keyspace: ks, vindex: v, matchedBy: 'table' });
      else if (names.includes(v.name)) byName.push({ keyspace: ks, vindex: v, matchedBy: 'name' });
    }
  }
  const vindexes = (byTable.length > 0 ? byTable : byName).sort(
    (a, b) => byCodeUnit(a.keyspace, b.keyspace) || byCodeUnit(a.vindex.name, b.vindex.name),
  );
  return { vindexes, searched, unread, tables };
}
