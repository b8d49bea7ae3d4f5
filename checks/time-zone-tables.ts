/**
 * A workflow created with `--source-time-zone` needs the time-zone tables on the primaries that convert its datetimes.
 *
 * Upstream `vitessio/vitess`: the materializer refuses `MoveTables create --source-time-zone <tz>` unless every target
 * primary answers `select convert_tz('2006-01-02 15:04:05', <tz>, 'UTC')` (materializer.go: `unable to perform
 * time_zone conversions from %s to UTC … the time zone tables have not been loaded on the %s tablet`); the streams
 * then convert with `CONVERT_TZ` on the target. At the write switch `createReverseVReplication`
 * (vtctl/workflow/traffic_switcher.go) gives each reverse stream `SourceTimeZone: bls.TargetTimeZone, TargetTimeZone:
 * bls.SourceTimeZone`: the reverse streams convert back on the source primaries, which nothing checks. A server
 * without the tables answers NULL, and the datetimes are written wrong or NULL, silently (#10668, #17860,
 * vitess-operator#697). Both reasons are warnings.
 *
 * Read: `SELECT CONVERT_TZ('2006-01-02 15:04:05', 'UTC', 'UTC')` on every primary read (NULL = no time-zone tables).
 */
import { defineCheck, type CheckFinding, type Reasons } from '../src/engine/check.js';
import type { ClusterModel, Shard, Workflow } from '../src/model/types.js';

/** False when the shard's primary was read and converts no named zone; null when not read. */
function loaded(shard: Shard | undefined): boolean | null {
  const sc = shard?.sidecar;
  if (sc === undefined || !sc.ok) return null;
  const tz = sc.value.timeZoneTables;
  return tz === undefined || !tz.ok ? null : tz.value;
}

function workflowFindings(model: ClusterModel, wf: Workflow): CheckFinding<Reason>[] {
  const zones = [...new Set(wf.streams.map((s) => s.source?.sourceTimeZone ?? '').filter((z) => z !== ''))].sort();
  if (zones.length === 0) return [];
  const zone = zones.join(', ');
  const out: CheckFinding<Reason>[] = [];
  const missing = (shards: (Shard | undefined)[]) =>
    shards.filter((s): s is Shard => s !== undefined && loaded(s) === false);
  const targets = missing(wf.targetShards.map((n) => model.shard(wf.keyspace, n)));
  if (targets.length > 0)
    out.push({
      reason: 'targetWithoutTimeZoneTables',
      message: `the streams of ${wf.keyspace}.${wf.name} convert datetimes from ${zone} on target primaries without time-zone tables (${targets.map((s) => `${s.keyspace}/${s.name}`).join(', ')}): CONVERT_TZ answers NULL there, so the copied datetimes are wrong`,
      keyspace: wf.keyspace,
      workflow: wf.name,
      details: { sourceTimeZone: zones, shards: targets.map((s) => s.name) },
    });
  const sources = missing(wf.sourceShards.flatMap((n) => wf.sourceKeyspaces.map((ks) => model.shard(ks, n))));
  if (sources.length > 0)
    out.push({
      reason: 'sourceWithoutTimeZoneTables',
      message: `the reverse streams the write switch of ${wf.keyspace}.${wf.name} creates convert datetimes back to ${zone} on source primaries without time-zone tables (${sources.map((s) => `${s.keyspace}/${s.name}`).join(', ')}): CONVERT_TZ answers NULL there`,
      keyspace: wf.keyspace,
      workflow: wf.name,
      details: { sourceTimeZone: zones, shards: sources.map((s) => `${s.keyspace}/${s.name}`) },
    });
  return out;
}

const reasons = {
  targetWithoutTimeZoneTables: {
    reads: ['timeZoneTables'],
    severity: 'warning',
    step: 'can-switch-streams',
    actions: ['switch'],
    heuristic: true,
    rationale:
      'The streams convert every datetime with CONVERT_TZ on the target primaries, which answers NULL without time-zone tables, so the copied values are wrong though the streams report no error.',
  },
  sourceWithoutTimeZoneTables: {
    reads: ['timeZoneTables'],
    severity: 'warning',
    step: 'catch-up',
    actions: ['switch'],
    heuristic: true,
    rationale:
      'The reverse streams created at the write switch convert back on the source primaries, which nothing checks for time-zone tables, so datetimes written after the switch come back wrong on a reverse.',
  },
} satisfies Reasons;

type Reason = keyof typeof reasons;

export default defineCheck({
  id: 'time-zone-tables',
  title: 'The primaries that convert a --source-time-zone workflow have their time-zone tables',
  reasons,
  description:
    "A workflow created with `--source-time-zone` converts datetimes with `CONVERT_TZ`: on the target primaries for its streams, and at the write switch on the source primaries for the reverse streams (`createReverseVReplication` swaps the zones). Without time-zone tables a server answers NULL and the values are written wrong, silently (#10668, #17860, vitess-operator#697). Vitess checks the target primaries only at create (`unable to perform time_zone conversions from %s to UTC`, materializer.go). Read with `SELECT CONVERT_TZ('2006-01-02 15:04:05', 'UTC', 'UTC')` on every primary.",
  remediation:
    'Load the time-zone tables on each primary named (`mysql_tzinfo_to_sql /usr/share/zoneinfo | mysql -u root mysql`) before the switch. Then run vtpreflight again.',
  needs: ['topology'],
  run(model) {
    return model.workflows.flatMap((wf) => workflowFindings(model, wf));
  },
});
