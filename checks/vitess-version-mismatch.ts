/**
 * vitess-version-mismatch: the cluster does not run one Vitess release, or not the one `--vitess-version` names.
 *
 * vtpreflight judges each rule by the Vitess release the cluster runs (`options.vitess`, `src/vitess/versions.ts`).
 * When tablets run different builds (vtctld `GetVersion`, `vitessio/vitess:go/vt/vtctl/grpcvtctldserver/server.go`
 * `getVersionFromTabletDebugVars`), when their sidecar schemas belong to different releases, or when the release
 * given on the command line contradicts what the cluster shows, a prediction may follow the wrong release's rule.
 * Vitess itself raises nothing for this (its `ValidateVersionShard` is a separate, manual command), so this is a
 * warning about the predictions, not a refusal.
 */
import { defineCheck } from '../src/engine/check.js';
import { formatRange } from '../src/vitess/versions.js';

export default defineCheck({
  id: 'vitess-version-mismatch',
  title: 'The cluster runs one Vitess release, the one vtpreflight judges against',
  reasons: {
    mixedVersions: {
      severity: 'warning',
      step: 'build-targets',
      heuristic: true,
      rationale:
        'Vitess raises nothing for mixed releases, but a prediction may then follow the wrong release of a rule.',
    },
  },
  description:
    'Several refusal texts and rules depend on the Vitess release (the lag rule of PR 17616 backported to 19.0.10, 20.0.6 and 21.0.3; the v20 unnamed-stream texts; Externalize on v22 versus v23+). vtpreflight judges by the release given with `--vitess-version`, or by what the cluster shows (sidecar columns, optional vtctld RPCs, the build facts vtctld `GetVersion` returns). This warns when tablets run different builds, when their sidecar schemas belong to different releases, or when the given release contradicts the cluster: during an upgrade the prediction may follow the wrong release. The report says which release it judged against (`vitess`).',
  remediation:
    'Finish the upgrade (every vttablet and vtctld on one release) before the cutover, or run vtpreflight with `--vitess-version` set to the release of vtctld, which runs SwitchTraffic. Compare builds with `vtctldclient GetVersion <tablet alias>` (or `vtctldclient ValidateVersionShard <keyspace/shard>`).',
  run(_model, options) {
    // options.vitess.mixed is set by src/model/versions.ts (resolveVitessVersions), which the engine runs first.
    const v = options.vitess;
    if (v.mixed === null) return [];
    return [
      {
        reason: 'mixedVersions',
        message: `the cluster does not run one Vitess release: ${v.mixed}; judged against Vitess ${formatRange(v.lo, v.hi)}`,
        details: {
          judgedAgainst: formatRange(v.lo, v.hi),
          source: v.source,
        },
      },
    ];
  },
});
