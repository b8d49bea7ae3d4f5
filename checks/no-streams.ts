/**
 * no-streams: a workflow named with `--workflow` has no stream in the target keyspace(s) it would be switched in.
 */
import { defineCheck, type CheckFinding, type Reasons } from '../src/engine/check.js';
import type { ClusterModel } from '../src/model/types.js';

const inKeyspace = (workflow: string, keyspace: string, primaries: number, elsewhere: readonly string[]) =>
  `workflow ${workflow} has no stream on ${primaries === 1 ? 'the only shard primary' : `any of the ${primaries} shard primaries`} of keyspace ${keyspace}` +
  (elsewhere.length > 0
    ? ` (it exists in ${elsewhere.length === 1 ? 'keyspace' : 'keyspaces'} ${elsewhere.join(', ')})`
    : '');

const anywhere = (workflow: string, keyspaces: readonly string[], primaries: number) =>
  `workflow ${workflow} has no stream in any keyspace (${keyspaces.length} ${keyspaces.length === 1 ? 'keyspace' : 'keyspaces'}, ${primaries} shard ${primaries === 1 ? 'primary' : 'primaries'} read)`;

/**
 * Number of shard primaries of the keyspace whose sidecar was read, or null when any shard of it was not read:
 * then "no streams" is not proven (BuildTargets reads every shard of the keyspace, and `unreachable` reports the gap).
 */
function primariesRead(model: ClusterModel, keyspace: string): number | null {
  const ks = model.keyspace(keyspace);
  if (!ks?.shards.ok) return null;
  let n = 0;
  for (const shard of ks.shards.value.values()) {
    if (!shard.sidecar?.ok) return null;
    n++;
  }
  return n;
}

function findings(model: ClusterModel): CheckFinding<R>[] {
  const out: CheckFinding<R>[] = [];
  const exists = new Map<string, string[]>();
  for (const wf of model.allWorkflows) {
    let l = exists.get(wf.name);
    if (!l) exists.set(wf.name, (l = []));
    l.push(wf.keyspace);
  }
  const names = [...new Set(model.selection.workflows)];
  for (const workflow of names) {
    const found = exists.get(workflow) ?? [];
    if (model.selection.keyspaces.length > 0) {
      for (const keyspace of [...new Set(model.selection.keyspaces)]) {
        // A keyspace missing from a topology that was read is not a workflow problem (and Vitess fails on the shard
        // list first); one whose primaries were not all read proves nothing.
        if (found.includes(keyspace) || !model.keyspace(keyspace)) continue;
        const primaries = primariesRead(model, keyspace);
        if (primaries === null) continue;
        out.push({
          reason: 'noStreams',
          message: inKeyspace(workflow, keyspace, primaries, found),
          keyspace,
          workflow,
          vitessArgs: [keyspace, workflow],
          details: { primariesRead: primaries, foundInKeyspaces: found },
        });
      }
      continue;
    }
    // No --keyspace: Vitess needs one (--target-keyspace), so the message cannot name the one the operator will type.
    if (found.length > 0 || !model.keyspacesRead.ok) continue;
    const keyspaces = [...model.keyspaces.keys()];
    let primaries = 0;
    let proven = true;
    for (const ks of keyspaces) {
      const n = primariesRead(model, ks);
      if (n === null) {
        proven = false;
        break;
      }
      primaries += n;
    }
    if (!proven) continue;
    out.push({
      reason: 'noStreamsAnyKeyspace',
      message: anywhere(workflow, keyspaces, primaries),
      workflow,
      details: { keyspaces, primariesRead: primaries },
    });
  }
  return out;
}

const reasons = {
  noStreams: {
    severity: 'error',
    step: 'build-targets',
    vitess: {
      template: 'no streams found in keyspace %s for %s',
      file: 'go/vt/vtctl/workflow/utils.go',
      line: 426,
      wraps: { literal: 'no streams found', file: 'go/vt/vtctl/workflow/traffic_switcher.go', line: 52 },
      versions: { from: 17 },
    },
  },
  noStreamsAnyKeyspace: {
    severity: 'error',
    step: 'build-targets',
    heuristic: true,
    rationale:
      'Without --keyspace the operator will name some target keyspace, and the workflow has streams in none of them, so Vitess will refuse with no streams found.',
  },
} satisfies Reasons;

type R = keyof typeof reasons;

export default defineCheck({
  id: 'no-streams',
  role: 'workflow-not-found',
  title: 'A workflow named on the command line has streams',
  reasons,
  description: [
    "Every SwitchTraffic, ReverseTraffic, Complete or Cancel starts by reading the workflow's rows from the primary of",
    'every shard of the target keyspace (`vitessio/vitess:go/vt/vtctl/workflow/utils.go` `BuildTargets`). When none has',
    "a row with that workflow name (and the tablet's database), it fails with `no streams found in keyspace %s for %s`",
    '— usually a typo in the workflow name, the wrong `--target-keyspace`, or a workflow already completed or cancelled.',
    '',
    'Only workflows named with `--workflow` are checked, in each keyspace named with `--keyspace`. Without `--keyspace`',
    'the check reports a workflow found in no keyspace at all, without a Vitess message (Vitess would name the keyspace',
    'you pass as `--target-keyspace`). "No streams" is only reported when every shard primary of the keyspace was read;',
    'otherwise it is not proven and `unreachable` reports what could not be read. When the name exists in another',
    'keyspace the finding says where.',
  ].join('\n'),
  remediation: [
    'List the workflows of the keyspace with `vtctldclient GetWorkflows <keyspace>` (or `vtctldclient Workflow --keyspace',
    '<keyspace> list`) and run vtpreflight and SwitchTraffic with the exact name and target keyspace shown there.',
  ].join('\n'),
  run(model) {
    return findings(model);
  },
});
