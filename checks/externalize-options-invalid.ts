/**
 * Lookup backfills (v23+): every serving shard of the lookup's keyspace must hold the same workflow options, and they
 * must parse, because Externalize reads the lookup vindex names from them.
 *
 * Upstream (main, the multi-vindex LookupVindex of PR 17566, v23+): `vitessio/vitess:go/vt/vtctl/workflow/
 * lookup_vindex.go` `getVindexesFromWorkflowOptions` reads `ReadVReplicationWorkflow(workflow).Options` on the
 * primary of every serving shard, in parallel: once one shard's non-empty options are kept, another shard with
 * different options fails with `inconsistent workflow options on target shard %s/%s` (:733), wrapped
 * `failed to read workflow options` (:740) and, by `getVindexesAndVSchema`, `failed to retrieve lookup vindex names
 * from workflow` (:755); then `json.Unmarshal` of the options fails with `failed to parse workflow options` (:744).
 * The shard named depends on goroutine order; a shard without the workflow answers empty options, which conflicts
 * only when it is read after a shard with options (so it is a likely, not a certain, failure). v22 and older take the
 * vindex name from the request and never read the options (release-22.0 `getVindexAndVSchema`): nothing to check.
 */
import { defineCheck, type CheckFinding, type Reasons } from '../src/engine/check.js';
import type { ClusterModel, Workflow } from '../src/model/types.js';
import { versionsHold, formatRange } from '../src/vitess/versions.js';

const PREFIX = 'failed to retrieve lookup vindex names from workflow';

const reasons = {
  inconsistentOptions: {
    severity: 'error',
    step: 'externalize',
    vitess: {
      // getVindexesAndVSchema :755 wraps getVindexesFromWorkflowOptions :740, which wraps the text at :733.
      template: `${PREFIX}: failed to read workflow options: inconsistent workflow options on target shard %s/%s`,
      file: 'go/vt/vtctl/workflow/lookup_vindex.go',
      line: 755,
      versions: { from: 23 },
      wraps: {
        literal: 'failed to read workflow options: inconsistent workflow options on target shard %s/%s',
        file: 'go/vt/vtctl/workflow/lookup_vindex.go',
        line: 740,
        wraps: {
          literal: 'inconsistent workflow options on target shard %s/%s',
          file: 'go/vt/vtctl/workflow/lookup_vindex.go',
          line: 733,
        },
      },
    },
  },
  unparsableOptions: {
    severity: 'error',
    step: 'externalize',
    vitess: {
      // :755 wraps :744, which wraps encoding/json's own error (no Vitess text: `%v`).
      template: `${PREFIX}: failed to parse workflow options: %v`,
      file: 'go/vt/vtctl/workflow/lookup_vindex.go',
      line: 755,
      versions: { from: 23 },
      wraps: {
        literal: 'failed to parse workflow options: %v',
        file: 'go/vt/vtctl/workflow/lookup_vindex.go',
        line: 744,
      },
    },
  },
} satisfies Reasons;

type R = keyof typeof reasons;

export default defineCheck({
  id: 'externalize-options-invalid',
  title: "A lookup backfill's workflow options are the same on every shard and parse",
  needs: ['topology'],
  reasons,
  description:
    "From Vitess v23 (several lookup vindexes per workflow, PR 17566) Externalize reads the names of the vindexes it externalizes from the workflow's options, on every serving shard of the lookup table's keyspace (`lookup_vindex.go` `getVindexesFromWorkflowOptions`). Shards with different options (a shard where the workflow is missing counts as empty options) fail it with `inconsistent workflow options on target shard …`; options that are not valid JSON fail it with `failed to parse workflow options`. v22 and older never read the options.",
  remediation:
    'Compare `select options from _vt.vreplication where workflow = <workflow>` on every serving shard primary of the keyspace. Recreate the backfill (`vtctldclient LookupVindex … create`) on a cluster where it is missing or differs, rather than editing the column by hand, then run vtpreflight again.',
  run(model, options) {
    const out: CheckFinding<R>[] = [];
    const hold = versionsHold(options.vitess, '>=23');
    if (hold === 'none') return out;
    const versionNote =
      hold === 'some'
        ? `Vitess v23+ reads the options; the cluster may run ${formatRange(options.vitess.lo, options.vitess.hi)}, judged by the newest`
        : null;
    for (const wf of model.workflows) {
      if (wf.type !== 'CreateLookupIndex') continue;
      const perShard = servingOptions(model, wf);
      if (perShard === null) continue;
      const loc = { keyspace: wf.keyspace, workflow: wf.name };
      const distinct = [...new Set(perShard.map((p) => p.options))];
      if (distinct.length > 1) {
        const nonEmpty = distinct.filter((o) => o !== '');
        // The shard Vitess names is the first one (in its goroutine order) that differs from the kept options; we
        // name the first shard whose options differ from the first non-empty ones.
        const kept = nonEmpty[0]!;
        const odd = perShard.find((p) => p.options !== kept)!;
        out.push({
          reason: 'inconsistentOptions',
          message: `lookup backfill ${wf.keyspace}.${wf.name} has different workflow options on its serving shards (${perShard.map((p) => `${p.shard}: ${p.options === '' ? 'none' : p.options}`).join('; ')}), so Externalize cannot read the vindex names`,
          ...loc,
          shard: odd.shard,
          vitessArgs: [wf.keyspace, odd.shard],
          details: {
            optionsByShard: Object.fromEntries(perShard.map((p) => [p.shard, p.options])),
            // Two different non-empty values always fail; one value and empty shards fail unless every empty shard is
            // read first.
            certain: nonEmpty.length > 1,
            ...(versionNote !== null ? { versionNote } : {}),
          },
        });
        continue;
      }
      const only = distinct[0] ?? '';
      // no options at all: see the module comment (not judged, the JSON decoder's answer is unknown)
      if (only === '') continue;
      try {
        JSON.parse(only);
      } catch (e) {
        out.push({
          reason: 'unparsableOptions',
          message: `lookup backfill ${wf.keyspace}.${wf.name} has workflow options that are not valid JSON (${only}), so Externalize cannot read the vindex names`,
          ...loc,
          details: { options: only, error: (e as Error).message, ...(versionNote !== null ? { versionNote } : {}) },
        });
      }
    }
    return out;
  },
});

/**
 * The options `ReadVReplicationWorkflow` answers on each serving shard of the workflow's keyspace (its rows' `options`,
 * '' for NULL or a shard without the workflow), or null when a serving shard's streams were not read or the sidecar
 * predates the `options` column (v19: no multi-vindex Externalize anyway).
 */
function servingOptions(model: ClusterModel, wf: Workflow): { shard: string; options: string }[] | null {
  const ks = model.keyspace(wf.keyspace);
  if (!ks?.shards.ok) return null;
  const out: { shard: string; options: string }[] = [];
  for (const shard of ks.shards.value.values()) {
    if (!shard.isPrimaryServing) continue;
    if (!shard.sidecar?.ok) return null;
    const rows = shard.sidecar.value.streams.filter((s) => s.workflow === wf.name);
    if (rows.some((s) => s.rawOptions === undefined)) return null;
    out.push({ shard: shard.name, options: rows[0]?.rawOptions ?? '' });
  }
  return out;
}
