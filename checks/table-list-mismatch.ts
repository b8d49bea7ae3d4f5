/**
 * table-list-mismatch: `buildTrafficSwitcher` (`vitessio/vitess:go/vt/vtctl/workflow/server.go`) requires every
 * stream of a workflow to have filter rules (`missing filters for %s/%s`) and to carry the same sorted list of rule
 * `match` values (`table lists are mismatched across streams: %v vs %v`). `getWorkflowState`'s `no tables in
 * workflow` is only reachable on releases without the filter test.
 */
import { defineCheck, type CheckFinding } from '../src/engine/check.js';
import {
  goStringSlice,
  parsedStreams,
  referenceTableList,
  sameTableList,
  streamTableList,
} from '../src/model/traffic-switch.js';
import type { Stream, Workflow } from '../src/model/types.js';

/** Workflow types Vitess builds a traffic switcher for (SwitchTraffic, ReverseTraffic, Complete, Cancel). */
const SWITCHED: ReadonlySet<string> = new Set(['MoveTables', 'Migrate', 'Reshard']);

const mismatch = (wf: Workflow, s: Stream, tables: readonly string[], reference: readonly string[], others: number) =>
  `stream ${s.id} on ${wf.keyspace}/${s.shard} of ${wf.type} ${wf.keyspace}.${wf.name} replicates ${goStringSlice(tables)} ` +
  `while ${others === 1 ? 'the other stream replicates' : `the other ${others} streams replicate`} ${goStringSlice(reference)}`;

function findings(wf: Workflow): CheckFinding[] {
  if (wf.type === 'OnlineDDL') return [];
  const streams = parsedStreams(wf);
  if (streams.length === 0) return [];
  const switched = SWITCHED.has(wf.type);
  // buildTrafficSwitcher checks each stream's filter before comparing table lists: `bls.Filter == nil ||
  // bls.Filter.Rules == nil` ⇒ `missing filters for %s/%s` (bls keyspace and shard; FIDELITY-AUDIT §17, `main`
  // b3666b2d server.go). An empty repeated field is nil in Go, so no rule at all counts.
  if (switched) {
    const unfiltered = streams.filter((s) => (s.source?.filter?.rules.length ?? 0) === 0);
    if (unfiltered.length > 0)
      return unfiltered.map((s) => ({
        message: `stream ${s.id} on ${wf.keyspace}/${s.shard} of ${wf.type} ${wf.keyspace}.${wf.name} has no filter rule in its source (${s.sourceKeyspace}/${s.sourceShard}), so building the traffic switcher fails`,
        keyspace: wf.keyspace,
        shard: s.shard,
        workflow: wf.name,
        streamId: s.id,
        tablet: s.tablet,
        details: { reason: 'missingFilters', vitessError: `missing filters for ${s.sourceKeyspace}/${s.sourceShard}` },
      }));
  }
  const reference = referenceTableList(streams);
  // No stream lists a table: a switched workflow was refused above (missing filters); others are never switched.
  if (reference === null) return [];
  const out: CheckFinding[] = [];
  const odd = streams.filter((s) => !sameTableList(streamTableList(s), reference));
  const agreeing = streams.length - odd.length;
  for (const s of odd) {
    const tables = streamTableList(s);
    const set = new Set(tables);
    const ref = new Set(reference);
    out.push({
      message: mismatch(wf, s, tables, reference, agreeing),
      ...(switched ? {} : { severity: 'warning' as const }),
      keyspace: wf.keyspace,
      shard: s.shard,
      workflow: wf.name,
      streamId: s.id,
      tablet: s.tablet,
      details: {
        reason: 'tableListMismatch',
        tables,
        expectedTables: reference,
        missingTables: reference.filter((t) => !set.has(t)),
        extraTables: tables.filter((t) => !ref.has(t)),
        ...(switched
          ? {
              vitessError: `table lists are mismatched across streams: ${goStringSlice(reference)} vs ${goStringSlice(tables)}`,
            }
          : {}),
      },
    });
  }
  return out;
}

export default defineCheck({
  id: 'table-list-mismatch',
  title: 'All streams of a workflow replicate the same tables',
  severity: 'error',
  predicts: 'table lists are mismatched across streams: %v vs %v',
  needs: ['streamDetails'],
  description: [
    'Every SwitchTraffic, ReverseTraffic, Complete or Cancel starts by building a traffic switcher',
    '(`vitessio/vitess:go/vt/vtctl/workflow/server.go` `buildTrafficSwitcher`). It collects the sorted rule `match`',
    'values of each stream and fails with `table lists are mismatched across streams: %v vs %v` as soon as two streams',
    'differ — for MoveTables and for Reshard alike (a Reshard stream lists its reference-table exclusions and `/.*`).',
    'A stream missing a table also means that table is not copied to that target shard.',
    '',
    'Vitess meets the streams in Go map order, so which two lists it prints first varies between runs; the finding',
    'names the streams that differ from the list most streams agree on. When a stream lists no',
    'table, building the switcher fails first with `missing filters for %s/%s`. Materialize and CreateLookupIndex workflows are',
    'never switched, so there a differing stream is a warning (a table missing on some shard), not a predicted error.',
  ].join('\n'),
  remediation: [
    'Show the streams with `vtctldclient Workflow --keyspace <keyspace> show --workflow <workflow>` and compare their',
    'filter rules. Streams created by one command always agree, so a differing stream was edited or left from an older',
    'workflow of the same name: cancel the workflow (`vtctldclient MoveTables --target-keyspace <keyspace> --workflow',
    '<workflow> cancel`, or `Reshard ... cancel`) and create it again.',
  ].join('\n'),
  run(model) {
    return model.workflows.flatMap(findings);
  },
});
