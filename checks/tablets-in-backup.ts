/**
 * tablets-in-backup: tablets of the shards SwitchTraffic refreshes that are taking a backup or restoring one, read from
 * GetTablets (the tablet record's type), not from GetFullStatus: such a tablet still answers GetFullStatus, so
 * `unreachable` does not see it.
 *
 * Upstream: `canSwitch` (`vitessio/vitess:go/vt/vtctl/workflow/server.go`) and the write switch
 * (`traffic_switcher.go` `changeTableSourceWrites`) call `topotools.RefreshTabletsByShard`
 * (`go/vt/topotools/keyspace.go:44`) on every source and target shard, all cells; each tablet gets a RefreshState RPC,
 * and any failure makes the refresh partial: `could not refresh all of the tablets involved in the operation`.
 * RefreshState first takes the tablet manager's action lock (`go/vt/vttablet/tabletmanager/rpc_actions.go`
 * `RefreshState`: `tm.lock(ctx)`). A drained backup holds that lock for the whole backup and sets the tablet type to
 * BACKUP (`rpc_backup.go` `Backup`: `ShouldDrainForBackup` → `tm.lock`, `ChangeType(BACKUP)`), and a restore holds it
 * for the whole restore as type RESTORE (`RestoreFromBackup`), so the RPC waits until the refresh deadline expires.
 * Field evidence: #15630 ("Once a pod fails tablet refresh, all other pods not yet processed also report failing
 * tablet refresh"; 32 shards whose backups take hours), #16528 (ReverseTraffic refused for one tablet: the rollback
 * you need in an emergency), PR #10058 (the refresh in dry runs). `--force` (newer releases, PR #16529) only logs
 * partial refresh failures.
 *
 * Tablets without a hostname are skipped by the refresh (`keyspace.go:77`, "The tablet is not running"), so they do
 * not fail it; they are reported as info because they will not pick up the new serving state either.
 *
 * Failure modes (`details.reason`): `backupRunning` (error), `restoreRunning` (error), `noHostname` (info).
 */
import { defineCheck, type CheckFinding, type VitessText, type Reasons } from '../src/engine/check.js';
import { refreshedShards } from '../src/model/switch-state.js';
import type { ClusterModel, Tablet } from '../src/model/types.js';
import { byCodeUnit } from '../src/text.js';

const REFUSAL = 'could not refresh all of the tablets involved in the operation';

/** `canSwitch`: the refresh of some tablet of a source or target shard failed. */
const REFRESH_FAILED: VitessText = {
  template: 'could not refresh all of the tablets involved in the operation:\n%s',
  file: 'go/vt/vtctl/workflow/server.go',
  line: 104,
  versions: { from: 17 },
};

function tabletFinding(t: Tablet, side: 'source' | 'target', workflows: readonly string[]): CheckFinding<R> | null {
  const base = { keyspace: t.keyspace, shard: t.shard, tablet: t.alias };
  const type = t.type.toUpperCase();
  if (t.hostname === '') {
    return {
      ...base,
      reason: 'noHostname',
      message: `tablet ${t.alias} (${type}) of ${t.keyspace}/${t.shard} has no hostname: SwitchTraffic skips its refresh, so it keeps its old serving state until it restarts`,
      details: { tabletType: type, side, workflows: [...workflows] },
    };
  }
  if (type !== 'BACKUP' && type !== 'RESTORE') return null;
  const doing = type === 'BACKUP' ? 'is taking a backup' : 'is restoring a backup';
  const vitessArgs = [
    `failed to successfully refresh all tablets in the ${t.keyspace}/${t.shard} ${side} shard (<nil>):\n  failed to refresh tablet ${t.alias}: context deadline exceeded`,
  ];
  return {
    ...base,
    reason: type === 'BACKUP' ? 'backupRunning' : 'restoreRunning',
    vitessArgs,
    message: `tablet ${t.alias} of ${t.keyspace}/${t.shard} ${doing} (type ${type}) and holds its action lock, so the RefreshState SwitchTraffic sends to every tablet of the ${side} shard waits until the backup ends or the refresh times out: "${REFUSAL}"`,
    details: { tabletType: type, side, workflows: [...workflows] },
  };
}

const reasons = {
  backupRunning: { severity: 'error', step: 'can-switch-refresh', vitess: REFRESH_FAILED },
  restoreRunning: { severity: 'error', step: 'can-switch-refresh', vitess: REFRESH_FAILED },
  noHostname: {
    severity: 'info',
    step: 'can-switch-refresh',
    heuristic: true,
    rationale:
      'RefreshTabletsByShard skips a tablet without hostname, so it keeps its old serving state until it restarts.',
  },
} satisfies Reasons;

type R = keyof typeof reasons;

export default defineCheck({
  id: 'tablets-in-backup',
  needs: ['tablets'],
  title: 'No tablet SwitchTraffic refreshes is taking or restoring a backup',
  reasons,
  description:
    "SwitchTraffic refreshes every tablet of every source and target shard, in all cells, and refuses when one refresh fails: `could not refresh all of the tablets involved in the operation` (`vitessio/vitess:go/vt/vtctl/workflow/server.go` `canSwitch`, `go/vt/topotools/keyspace.go` `RefreshTabletsByShard`). RefreshState first takes the tablet manager's action lock (`go/vt/vttablet/tabletmanager/rpc_actions.go`), which a drained backup (type BACKUP) and a restore (type RESTORE) hold for hours (`rpc_backup.go`), so the refresh times out. The tablet still answers GetFullStatus, so `unreachable` does not see it; its type in GetTablets does. Field evidence: vitessio/vitess #15630 (a backup schedule on 32 shards left almost no window), #16528 (ReverseTraffic refused for one tablet), PR #10058. Tablets without a hostname are skipped by the refresh (info: they keep their old serving state).",
  remediation:
    'Wait for the backup or restore to finish (`vtctldclient GetTablets --keyspace <keyspace> --shard <shard>` shows the type return to REPLICA or RDONLY), or pause the backup schedule for the cutover window, then run vtpreflight again. A tablet without a hostname is not running: start it, or remove its record with `vtctldclient DeleteTablets <alias>` if it is gone for good.',
  run(model: ClusterModel) {
    // One finding per tablet, naming every selected workflow whose switch refreshes it.
    const seen = new Map<string, { tablet: Tablet; side: 'source' | 'target'; workflows: string[] }>();
    for (const wf of model.workflows) {
      if (wf.type !== 'MoveTables' && wf.type !== 'Reshard' && wf.type !== 'Migrate') continue;
      for (const { keyspace, shard, side } of refreshedShards(wf)) {
        for (const t of model.shard(keyspace, shard)?.tablets ?? []) {
          const entry = seen.get(t.alias);
          if (entry === undefined) seen.set(t.alias, { tablet: t, side, workflows: [`${wf.keyspace}.${wf.name}`] });
          else if (!entry.workflows.includes(`${wf.keyspace}.${wf.name}`))
            entry.workflows.push(`${wf.keyspace}.${wf.name}`);
        }
      }
    }
    return [...seen.values()]
      .sort((a, b) => byCodeUnit(a.tablet.alias, b.tablet.alias))
      .flatMap(({ tablet, side, workflows }) => {
        const f = tabletFinding(tablet, side, workflows);
        return f === null ? [] : [f];
      });
  },
});
