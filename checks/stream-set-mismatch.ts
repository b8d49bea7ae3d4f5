/**
 * Reshard only: the other workflows' streams on the Reshard's source shards must be the same multiset of
 * (workflow, source keyspace, source shard) on every source shard that has any, and every row there must be
 * one the stream migrator can read.
 *
 * Upstream: `vitessio/vitess:go/vt/vtctl/workflow/stream_migrator.go` `readSourceStreams` (the cross-shard
 * comparison), `readTabletStreams` (per-row refusals) and `blsIsReference`.
 *
 * Presentation of the comparison. Vitess compares every shard against one reference shard picked from a Go map
 * (arbitrary) and stops at the first difference; the condition is symmetric. Here each source shard's streams
 * are reduced to a canonical signature (its sorted keys), shards are grouped by signature, and the REFERENCE
 * GROUP is the largest group (ties: the group of the first shard in key-range order). Every shard outside the
 * reference group gets one finding saying what it lacks and what it has extra compared with the reference group,
 * with Vitess's message naming the first reference shard and that shard. Every differing pair is thereby covered
 * (two non-reference shards differ from each other exactly as their two lists say) in O(shards + groups × streams),
 * never O(shards²). Shards with no eligible stream are left out of the comparison, as Vitess does, and get a
 * warning of their own when other source shards do have streams.
 */
import { defineCheck, type CheckFinding, type Reasons } from '../src/engine/check.js';
import type { ClusterModel } from '../src/model/types.js';
import { versionsHold } from '../src/vitess/versions.js';
import {
  reshardMigrations,
  splitStreamSetKey,
  streamSetKey,
  type MigratorProblem,
  type MigratorShard,
  type ReshardMigration,
} from '../src/model/stream-migrator.js';

/** One (workflow, source keyspace, source shard) entry of a multiset difference. */
interface StreamSetEntry {
  readonly workflow: string;
  readonly sourceKeyspace: string;
  readonly sourceShard: string;
  readonly count: number;
}

const MAX_LISTED = 3;

const describeEntries = (entries: readonly StreamSetEntry[]): string => {
  const shown = entries
    .slice(0, MAX_LISTED)
    .map((e) => `${e.workflow} from ${e.sourceKeyspace}/${e.sourceShard}${e.count > 1 ? ` ×${e.count}` : ''}`)
    .join(', ');
  return entries.length > MAX_LISTED ? `${shown} and ${entries.length - MAX_LISTED} more` : shown;
};

const streamCount = (entries: readonly StreamSetEntry[]): number => entries.reduce((n, e) => n + e.count, 0);

const mismatched = (
  m: ReshardMigration,
  shard: string,
  ref: string,
  lacks: readonly StreamSetEntry[],
  extra: readonly StreamSetEntry[],
): string => {
  const parts: string[] = [];
  if (lacks.length > 0) parts.push(`lacks ${streamCount(lacks)} (${describeEntries(lacks)})`);
  if (extra.length > 0) parts.push(`has ${streamCount(extra)} extra (${describeEntries(extra)})`);
  return `source shard ${m.keyspace}/${shard} of Reshard ${m.workflow.name} carries other workflows' streams that differ from source shard ${ref}: ${parts.join('; ')}`;
};

const lacksAll = (m: ReshardMigration, shard: string, ref: string, lacks: readonly StreamSetEntry[]): string =>
  `source shard ${m.keyspace}/${shard} of Reshard ${m.workflow.name} has none of the ${streamCount(lacks)} other-workflow streams that source shard ${ref} has (${describeEntries(lacks)}): Vitess skips it, then creates those streams on every new shard from ${ref}'s, at their positions, so the rows of ${shard}'s key range they never wrote stay missing on the new shards (only later changes arrive)`;

const problemMessage = (m: ReshardMigration, p: MigratorProblem): string => {
  const s = p.stream;
  const where = `stream ${s.id}${s.workflow ? ` (${s.workflow})` : ''} on source shard ${m.keyspace}/${s.shard} of Reshard ${m.workflow.name}`;
  switch (p.reason) {
    case 'unnamedStream':
      return `${where} has no workflow name, which the stream migrator refuses`;
    case 'sameWorkflowName':
      return `${where} carries the Reshard's own workflow name, which the stream migrator refuses`;
    case 'tableNotInVSchema':
      return `${where} replicates a table that is not in the ${m.keyspace} vschema (${p.detail}), which the stream migrator refuses`;
    case 'mixedReferenceTables':
      return `${where} mixes reference and sharded tables, which the stream migrator cannot move`;
    case 'sourceUnparsable':
      return `${where} has a source the stream migrator cannot parse (${p.detail})`;
    case 'positionUnparsable':
      return `${where} has a position the stream migrator cannot decode (${p.detail})`;
  }
};

/** Counts of stream-set keys on one shard. */
function countsOf(shard: MigratorShard): Map<string, number> {
  const counts = new Map<string, number>();
  for (const s of shard.migrated) {
    const k = streamSetKey(s);
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  return counts;
}

/** `a − b` as a multiset, sorted by key. */
function minus(a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>): StreamSetEntry[] {
  const out: StreamSetEntry[] = [];
  for (const k of [...a.keys()].sort()) {
    const n = (a.get(k) ?? 0) - (b.get(k) ?? 0);
    if (n > 0) out.push({ ...splitStreamSetKey(k), count: n });
  }
  return out;
}

function signature(counts: ReadonlyMap<string, number>): string {
  return [...counts.entries()]
    .sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))
    .map(([k, n]) => `${k}\u0002${n}`)
    .join('\u0001');
}

interface Group {
  readonly counts: ReadonlyMap<string, number>;
  readonly shards: MigratorShard[];
}

/** The comparison of one Reshard's source shards: per-shard findings, keyed by shard name. */
function compare(m: ReshardMigration): Map<string, CheckFinding<R>> {
  const out = new Map<string, CheckFinding<R>>();
  const groups = new Map<string, Group>();
  for (const shard of m.shards) {
    if (shard.migrated.length === 0) continue;
    const counts = countsOf(shard);
    const sig = signature(counts);
    const g = groups.get(sig);
    if (g) g.shards.push(shard);
    else groups.set(sig, { counts, shards: [shard] });
  }
  if (groups.size === 0) return out;
  // Largest group; Map order is first appearance in key-range order, so ">" keeps the earliest on ties.
  let reference: Group | undefined;
  for (const g of groups.values()) if (!reference || g.shards.length > reference.shards.length) reference = g;
  const ref = reference!;
  const refShard = ref.shards[0]!;
  const location = (shard: MigratorShard) => ({
    keyspace: m.keyspace,
    shard: shard.name,
    workflow: m.workflow.name,
    tablet: shard.tablet,
  });
  for (const g of groups.values()) {
    if (g === ref) continue;
    const lacks = minus(ref.counts, g.counts);
    const extra = minus(g.counts, ref.counts);
    const sameAs = g.shards.map((s) => s.name);
    for (const shard of g.shards) {
      out.set(shard.name, {
        reason: 'streamsMismatched',
        message: mismatched(m, shard.name, refShard.name, lacks, extra),
        ...location(shard),
        vitessArgs: [refShard.name, shard.name],
        details: {
          referenceShard: refShard.name,
          referenceShards: ref.shards.map((s) => s.name),
          shardsLikeThis: sameAs,
          lacks,
          extra,
        },
      });
    }
  }
  // Shards Vitess leaves out because they have no eligible stream at all: a data-flow hole it never reports.
  for (const shard of m.shards) {
    if (shard.nonReference.length > 0) continue;
    const lacks = minus(ref.counts, new Map());
    out.set(shard.name, {
      reason: 'shardLacksStreams',
      message: lacksAll(m, shard.name, refShard.name, lacks),
      ...location(shard),
      details: {
        referenceShard: refShard.name,
        referenceShards: ref.shards.map((s) => s.name),
        lacks,
      },
    });
  }
  return out;
}

/** v19's own reason for a row refusal whose text carries the stream id (stream_migrator.go:250, :253 @v0.19.10). */
const V19_REASON: Partial<Record<string, R>> = {
  unnamedStream: 'unnamedStreamV19',
  sameWorkflowName: 'sameWorkflowNameV19',
};

function findingsFor(m: ReshardMigration, v19: boolean): CheckFinding<R>[] {
  const findings: CheckFinding<R>[] = [];
  const compared = compare(m);
  for (const shard of m.shards) {
    for (const p of shard.problems) {
      // Judged against v19 only: the text that release prints, with `, stream: %d`.
      const old = v19 && p.vitessErrorBeforeV20 !== undefined ? V19_REASON[p.reason] : undefined;
      findings.push({
        reason: old ?? p.reason,
        message: problemMessage(m, p),
        keyspace: m.keyspace,
        shard: shard.name,
        workflow: m.workflow.name,
        streamId: p.stream.id,
        tablet: shard.tablet,
        // Hand-filled: the texts are built by the model's stream migrator (src/model/stream-migrator.ts).
        ...(old !== undefined
          ? { vitessError: p.vitessErrorBeforeV20 }
          : p.vitessError !== null
            ? { vitessError: p.vitessError }
            : {}),
        details: {
          ...(p.vitessErrorBeforeV20 !== undefined ? { vitessErrorBeforeV20: p.vitessErrorBeforeV20 } : {}),
          streamWorkflow: p.stream.workflow,
          source: p.stream.sourceText,
          problem: p.detail,
        },
      });
    }
    const c = compared.get(shard.name);
    if (c) findings.push(c);
  }
  return findings;
}

const reasons = {
  streamsMismatched: {
    severity: 'error',
    step: 'migrate',
    vitess: {
      template: 'streams are mismatched across source shards: %s vs %s',
      file: 'go/vt/vtctl/workflow/stream_migrator.go',
      line: 375,
      versions: { from: 17 },
    },
  },
  shardLacksStreams: {
    severity: 'warning',
    step: 'migrate',
    heuristic: true,
    rationale:
      "Vitess skips a source shard with none of the other streams and creates them on every new shard from another shard's streams at their positions (stream_migrator.go createTargetStreams), so the rows of the skipped key range they never wrote stay missing.",
  },
  // The row refusals of `readTabletStreams` (src/model/stream-migrator.ts computes them).
  unnamedStream: {
    severity: 'error',
    step: 'migrate',
    vitess: {
      // Since vitessio/vitess#14424 (v20) the vtctld stream migrator prints no stream id (`vitessio/vitess` main,
      // stream_migrator.go:394); the legacy `, stream: %d` text is in details.vitessErrorBeforeV20.
      template: 'VReplication streams must have named workflows for migration: shard: %s:%s',
      file: 'go/vt/vtctl/workflow/stream_migrator.go',
      line: 394,
      versions: { from: 20 },
    },
  },
  sameWorkflowName: {
    severity: 'error',
    step: 'migrate',
    vitess: {
      template: 'VReplication stream has the same workflow name as the resharding workflow: shard: %s:%s',
      file: 'go/vt/vtctl/workflow/stream_migrator.go',
      line: 397,
      versions: { from: 20 },
    },
  },
  unnamedStreamV19: {
    severity: 'error',
    step: 'migrate',
    vitess: {
      template: 'VReplication streams must have named workflows for migration: shard: %s:%s, stream: %d',
      file: 'go/vt/vtctl/workflow/stream_migrator.go',
      line: 250,
      release: 'v0.19.10',
      versions: { from: 19, to: 19 },
    },
  },
  sameWorkflowNameV19: {
    severity: 'error',
    step: 'migrate',
    vitess: {
      template: 'VReplication stream has the same workflow name as the resharding workflow: shard: %s:%s, stream: %d',
      file: 'go/vt/vtctl/workflow/stream_migrator.go',
      line: 253,
      release: 'v0.19.10',
      versions: { from: 19, to: 19 },
    },
  },
  tableNotInVSchema: {
    severity: 'error',
    step: 'migrate',
    vitess: {
      // readTabletStreams wraps identifyRuleType's error: vterrors.Wrap(err, "blsIsReference") → "blsIsReference: …".
      template: 'blsIsReference: table %v not found in vschema',
      file: 'go/vt/vtctl/workflow/stream_migrator.go',
      line: 257,
      versions: { from: 17 },
      wraps: { literal: 'table %v not found in vschema', file: 'go/vt/vtctl/workflow/stream_migrator.go', line: 775 },
    },
  },
  mixedReferenceTables: {
    severity: 'error',
    step: 'migrate',
    vitess: {
      template: 'blsIsReference: cannot reshard streams with a mix of reference and sharded tables: %v',
      file: 'go/vt/vtctl/workflow/stream_migrator.go',
      line: 257,
      versions: { from: 17 },
      wraps: {
        literal: 'cannot reshard streams with a mix of reference and sharded tables: %v',
        file: 'go/vt/vtctl/workflow/stream_migrator.go',
        line: 756,
      },
    },
  },
  sourceUnparsable: {
    severity: 'error',
    step: 'migrate',
    heuristic: true,
    rationale: 'The stream migrator cannot read a row whose source does not parse, so the write switch fails on it.',
  },
  positionUnparsable: {
    severity: 'error',
    step: 'migrate',
    heuristic: true,
    rationale:
      'The stream migrator cannot decode a row whose position does not parse, so the write switch fails on it.',
  },
} satisfies Reasons;

type R = keyof typeof reasons;

export default defineCheck({
  id: 'stream-set-mismatch',
  needs: ['topology'],
  title: "Other workflows' streams match across a Reshard's source shards",
  reasons,
  description:
    "When a Reshard switches writes, Vitess's stream migrator moves every *other* workflow's streams that live on the Reshard's source shards (a Materialize, MoveTables or lookup backfill writing into the resharded keyspace) onto the new shards. It reads every row on each source primary except `<workflow>_reverse` (FROZEN rows included), ignores streams whose tables are all reference tables, and requires the remaining streams to be the same multiset of (workflow, source keyspace, source shard) on every source shard that has any; otherwise SwitchTraffic fails with `streams are mismatched across source shards: %s vs %s`. It also refuses rows without a workflow name, rows named like the Reshard itself, rows whose tables are not in the keyspace vschema or mix reference and sharded tables, and rows whose source or position do not parse. This check reports each of those and every source shard whose streams differ from the most common set, with what it lacks and what it has extra. A source shard with none of those streams is skipped by Vitess, which then creates the streams on every new shard from another source shard's streams, at their positions (`createTargetStreams`): the rows of the skipped key range those workflows never wrote stay missing, and only later changes arrive; that is a warning. Upstream: `vitessio/vitess:go/vt/vtctl/workflow/stream_migrator.go` (`readSourceStreams`, `readTabletStreams`, `blsIsReference`).",
  remediation:
    "List the streams on each source primary with `vtctldclient Workflow --keyspace <keyspace> list` and `vtctldclient Workflow --keyspace <keyspace> show --workflow <other workflow>`, then make the other workflows identical on every source shard: recreate the missing streams (or delete the extra ones) with `vtctldclient Materialize`/`MoveTables` or, for leftovers, `vtctldclient Workflow --keyspace <keyspace> delete --workflow <other workflow>` (never the Reshard itself). Name unnamed rows or delete them, rename or delete rows that carry the Reshard's name, add missing tables to the vschema with `vtctldclient ApplyVSchema`, and split streams that mix reference and sharded tables into separate workflows. Run vtpreflight again before `vtctldclient Reshard --target-keyspace <keyspace> --workflow <workflow> SwitchTraffic`.",
  run(model: ClusterModel, options) {
    const v19 = versionsHold(options.vitess, '<20') === 'all';
    return reshardMigrations(model).flatMap((m) => findingsFor(m, v19));
  },
});
