/**
 * Per-stream facts for the report (`report.streams`, `workflows[].targetShards`): what the HTML stream matrix
 * draws, computed here from the model so that the reporters stay pure and no human view shows what the JSON
 * cannot carry.
 *
 * Both fields are additive to the version 1 JSON contract:
 * - `streams[]`: one entry per stream of the selected workflows, in model order (workflow, then target shard in
 *   key-range order, then stream id). Lag follows Vitess's newest rule (`src/model/lag.ts`): `null` for a stream
 *   stored as Copying, whose lag Vitess counts as unbounded.
 * - `workflows[].targetShards`: the target shards a workflow has streams on or, by the topology, must have
 *   streams on (`src/model/expected-streams.ts`), in key-range order: one matrix cell each, so a shard that
 *   lacks its streams shows up as an empty cell rather than disappearing.
 */
import { buildExpectedStreams } from '../model/expected-streams.js';
import { transactionLagSeconds } from '../model/lag.js';
import type { ClusterModel, Stream, Workflow } from '../model/types.js';
import type { StreamSummary } from './report.js';

/** The report's view of one stream. */
export function toStreamSummary(s: Stream, nowSeconds: number): StreamSummary {
  return {
    keyspace: s.keyspace,
    workflow: s.workflow,
    shard: s.shard,
    streamId: s.id,
    tablet: s.tablet,
    sourceKeyspace: s.sourceKeyspace,
    sourceShard: s.sourceShard,
    state: s.displayState,
    position: s.posText,
    lagSeconds: transactionLagSeconds(s, nowSeconds),
    message: s.message,
    copyTablesLeft: s.copyTables.ok ? s.copyTables.value.length : null,
  };
}

/** Every stream of the selected workflows, summarised (lag against the model's read time). */
export function buildStreamSummaries(model: ClusterModel): StreamSummary[] {
  const now = Math.floor(model.readAt / 1000);
  return model.workflows.flatMap((wf) => wf.streams.map((s) => toStreamSummary(s, now)));
}

/**
 * The target shards of a workflow's matrix row: shards with its streams plus the shards Vitess would have created
 * streams on, in the keyspace's key-range order (shards without a shard record last, as the model lists them).
 */
export function matrixTargetShards(model: ClusterModel, wf: Workflow): string[] {
  const wanted = new Set(wf.targetShards);
  const expected = buildExpectedStreams(model, wf);
  if (expected.ok) for (const t of expected.value.targets) if (t.mustHaveStreams) wanted.add(t.shard);
  const ks = model.keyspace(wf.keyspace);
  const ordered: string[] = [];
  if (ks?.shards.ok) for (const name of ks.shards.value.keys()) if (wanted.delete(name)) ordered.push(name);
  for (const name of wf.targetShards) if (wanted.delete(name)) ordered.push(name);
  return ordered;
}
