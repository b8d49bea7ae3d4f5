/**
 * Before stopping writes, SwitchTraffic makes sure the reverse workflow will have a tablet to stream from on every
 * target shard (the reverse workflow's sources).
 *
 * Upstream: `vitessio/vitess:go/vt/vtctl/workflow/server.go` `switchWrites` → when reverse replication is enabled
 * (the default), `areTabletsAvailableToStreamFrom(ctx, req, ts, ts.TargetKeyspaceName(), ts.TargetShards())`
 * (`vitessio/vitess` `utils.go`, main at b3666b2d line 650): per target shard, the cells of the request, else the
 * workflow's `cell` column, else the shard primary's cell; the workflow's `tablet_types`; a tablet picker with the
 * primary's cell as local cell; `GetMatchingTablets` empty ⇒ `no tablet found to source data in keyspace %s, shard
 * %s` (utils.go:685 @00bd50b), wrapped `no tablets were available to stream from in the %s keyspace` with the
 * TARGET keyspace (`handleError(fmt.Sprintf(…, ts.TargetKeyspaceName()), err)`, server.go:3096 @006b7393; the legacy
 * wrangler printed the source keyspace there). Skipped for a frozen workflow (writes already switched). The same
 * in every release modelled (v19–v24).
 *
 * What we cannot see: tablet health and serving state (GetMatchingTablets drops unhealthy tablets), the request's
 * `--cells`, and cell aliases (a listed name that is no tablet's cell is treated as unresolvable: not judged).
 */
import { defineCheck, type CheckFinding, type Reasons } from '../src/engine/check.js';
import { shardsWithoutStreamTablets } from '../src/model/stream-from.js';
import { migrationType } from '../src/model/traffic-switch.js';

const reasons = {
  noTabletForReverse: {
    severity: 'error',
    step: 'reverse-tablets',
    vitess: {
      template:
        'no tablets were available to stream from in the %s keyspace: no tablet found to source data in keyspace %s, shard %s',
      file: 'go/vt/vtctl/workflow/server.go',
      line: 3096,
      wraps: {
        literal: 'no tablet found to source data in keyspace %s, shard %s',
        file: 'go/vt/vtctl/workflow/utils.go',
        line: 685,
      },
      versions: { from: 17 },
    },
  },
} satisfies Reasons;

type R = keyof typeof reasons;

export default defineCheck({
  id: 'reverse-tablets-missing',
  title: 'The reverse workflow will have a tablet to stream from on every target shard',
  needs: ['topology', 'tablets'],
  reasons,
  description:
    "SwitchTraffic creates a reverse workflow that streams from the target shards back to the source, and before it stops writes it checks that on every target shard a tablet of the workflow's tablet types exists in its cells (the workflow's `cell` setting, else the shard primary's cell): `no tablets were available to stream from in the … keyspace: no tablet found to source data in keyspace …, shard …` (`server.go` `switchWrites`, `utils.go` `areTabletsAvailableToStreamFrom`). Tablet health is not visible here, so a tablet that exists but is unhealthy is not reported.",
  remediation:
    "Add a tablet of one of the workflow's tablet types in its cells on each reported target shard (or change the workflow with `vtctldclient Workflow --keyspace <keyspace> update --workflow <workflow> --cells … --tablet-types …`), or switch with `--enable-reverse-replication=false` if you accept having no way back. Then run vtpreflight again.",
  run(model) {
    const out: CheckFinding<R>[] = [];
    for (const wf of model.workflows) {
      if (wf.frozen || (wf.type !== 'MoveTables' && wf.type !== 'Reshard')) continue;
      if (migrationType(wf) === null) continue;
      // The picker view is shared with reverse-traffic (src/model/stream-from.ts).
      for (const miss of shardsWithoutStreamTablets(model, wf) ?? []) {
        out.push({
          reason: 'noTabletForReverse',
          message: `target shard ${wf.keyspace}/${miss.shard} of ${wf.name} has no ${miss.types.join('/')} tablet in ${miss.cells.join(', ')}, so the reverse workflow would have nothing to stream from`,
          keyspace: wf.keyspace,
          shard: miss.shard,
          workflow: wf.name,
          // handleError(fmt.Sprintf("… in the %s keyspace", ts.TargetKeyspaceName()), err) (server.go:3096).
          vitessArgs: [wf.keyspace, wf.keyspace, miss.shard],
          details: { cells: [...miss.cells], tabletTypes: miss.typesText },
        });
      }
    }
    return out;
  },
});
