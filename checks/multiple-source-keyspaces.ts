/**
 * multiple-source-keyspaces: the streams of one workflow (one target keyspace, one name) read different source
 * keyspaces.
 */
import { defineCheck, type CheckFinding } from '../src/engine/check.js';
import { parsedStreams } from '../src/model/traffic-switch.js';
import type { Stream, Workflow } from '../src/model/types.js';

const keyspaceStreams = (ks: string, streams: readonly Stream[]) =>
  `${ks === '' ? 'no keyspace' : ks} (${streams.length === 1 ? 'stream' : 'streams'} ${streams.map((s) => `${s.id} on ${s.shard}`).join(', ')})`;

const several = (wf: Workflow, byKeyspace: ReadonlyMap<string, readonly Stream[]>) =>
  `${wf.type} ${wf.keyspace}.${wf.name} reads from ${byKeyspace.size} source keyspaces: ` +
  [...byKeyspace].map(([ks, streams]) => keyspaceStreams(ks, streams)).join(', ');

function findings(wf: Workflow): CheckFinding<'multipleSourceKeyspaces'>[] {
  // Group in the model's order (target shards in key-range order, then stream id): the first keyspace met is the
  // one Vitess keeps and compares the others with. A source without a keyspace (a hand-edited row) counts as the
  // empty keyspace, as buildTrafficSwitcher compares `bls.Keyspace` (server.go:2351-2352 @v0.24.4): measured on real
  // v24.0.4, `Workflow show` of such a workflow fails with `multiple source keyspaces for a single workflow`. An
  // external MySQL source has no keyspace by design and is left out.
  const byKeyspace = new Map<string, Stream[]>();
  for (const s of parsedStreams(wf)) {
    if (s.source?.externalMysql !== '') continue;
    let l = byKeyspace.get(s.sourceKeyspace);
    if (!l) byKeyspace.set(s.sourceKeyspace, (l = []));
    l.push(s);
  }
  if (byKeyspace.size < 2) return [];
  const [first, second] = [...byKeyspace.keys()];
  return [
    {
      reason: 'multipleSourceKeyspaces',
      message: several(wf, byKeyspace),
      keyspace: wf.keyspace,
      workflow: wf.name,
      vitessArgs: [first!, second!],
      details: {
        sourceKeyspaces: [...byKeyspace.keys()],
        streams: Object.fromEntries(
          [...byKeyspace].map(([ks, l]) => [ks, l.map((s) => ({ shard: s.shard, streamId: s.id }))]),
        ),
        getWorkflowsError: `workflow = ${wf.name}, ks1 = ${first}, ks2 = ${second}: multiple source keyspaces for a single workflow`,
      },
    },
  ];
}

export default defineCheck({
  id: 'multiple-source-keyspaces',
  title: 'A workflow reads from one source keyspace',
  reasons: {
    multipleSourceKeyspaces: {
      severity: 'error',
      step: 'build-switcher',
      vitess: {
        template: 'source keyspaces are mismatched across streams: %v vs %v',
        file: 'go/vt/vtctl/workflow/server.go',
        line: 2309,
        versions: { from: 17 },
      },
    },
  },
  description: [
    'Vitess assumes every stream of a workflow reads the same source keyspace. When two streams of one workflow name in',
    'a target keyspace read different keyspaces, SwitchTraffic, ReverseTraffic, Complete and Cancel fail while building',
    'the traffic switcher with `source keyspaces are mismatched across streams: %v vs %v`',
    '(`vitessio/vitess:go/vt/vtctl/workflow/server.go` `buildTrafficSwitcher`), and `GetWorkflows`/`Workflow show` fail',
    'with `workflow = %v, ks1 = %v, ks2 = %v: multiple source keyspaces for a single workflow` (`workflows.go`',
    '`scanWorkflow`). That second failure covers an unfiltered listing of the keyspace (`GetWorkflows`, `Workflow',
    'list`); `canSwitch` of another workflow reads only its own (`GetWorkflow` passes `IncludeWorkflows`) and is not',
    'affected. Which two keyspaces Vitess names first depends on Go map',
    'order; the finding uses the order of the target shards.',
  ].join('\n'),
  remediation: [
    'Find the streams that read the unexpected keyspace (listed in the finding) with',
    '`vtctldclient GetWorkflows --include-logs=false <keyspace>` or by querying `_vt.vreplication` on the target primaries.',
    'If they belong to another migration, recreate that migration under its own workflow name; otherwise cancel the',
    'workflow (`vtctldclient MoveTables --target-keyspace <keyspace> --workflow <workflow> cancel`) and create it again.',
  ].join('\n'),
  run(model) {
    return model.workflows.flatMap(findings);
  },
});
