/**
 * gtid-set-too-long. Field evidence: vitessio/vitess #19122 (v19.0.7: `Data too long for
 * column 'pos' at row 1 (errno 1406)`), #18185 (GTID sets of pods reparented by bin-packing), #8612 (v11: streams broke
 * past 10,000 bytes), PR #18608 (journal `val` widened: "GTID sets can quickly go over 64K causing SwitchWrites to
 * fail"), PR #19119 (`pos` → longblob). Upstream: `go/vt/sidecardb/schema/vreplication/vreplication.sql`
 * (`pos varbinary(10000)`), `resharding_journal.sql` (`val`), `go/vt/vtctl/workflow/traffic_switcher.go`
 * `createReverseVReplication`, `createJournals`.
 */
import check from '../../checks/gtid-set-too-long.js';
import { checkTester } from '../helpers/check-tester.js';
import { cluster, upstreamPositionColumns, type ClusterBuilder } from '../helpers/cluster.js';
import { joinRegExp } from '../helpers/regexp.js';
import { moveTablesScenario } from '../helpers/reshard-scenario.js';

/** A `MySQL56/` position of about `bytes` bytes: one `uuid:1-9` interval per 41 bytes. */
function longPosition(bytes: number, seed = 1): string {
  const n = Math.ceil((bytes - 8) / 41);
  const entries = Array.from({ length: n }, (_, i) => {
    const h = (seed * 100000 + i).toString(16).padStart(12, '0');
    return `${h.slice(0, 8)}-aaaa-bbbb-cccc-${h}:1-9`;
  });
  return `MySQL56/${entries.join(',')}`;
}

/** commerce/0 (…100) → customer shards (…110, …120 …), every primary reporting the upstream column sizes. */
function moveTables(shards = ['-80', '80-'], o: { valType?: string; valBytes?: number; posBytes?: number } = {}) {
  const b = cluster()
    .keyspace('commerce', { shards: ['0'] })
    .keyspace('customer', { shards })
    .moveTables('commerce2customer', { from: 'commerce', to: 'customer', tables: ['customer'], column: 'customer_id' });
  for (const [ks, list] of [
    ['commerce', ['0']],
    ['customer', shards],
  ] as const)
    for (const sh of list) b.positionColumns(ks, sh, upstreamPositionColumns(o.valType, o.valBytes, o.posBytes));
  return b;
}

const at = (b: ClusterBuilder, alias: string, bytes: number, seed = 1) =>
  b.fullStatusOf(alias, { primaryPosition: longPosition(bytes, seed) });

checkTester(check, {
  valid: [
    { name: 'short GTID sets', model: moveTables() },
    {
      name: 'long positions where pos is a longblob (PR #19119)',
      model: at(moveTables(['-80', '80-'], { posBytes: 4294967295 }), 'zone1-0000000110', 12000),
      reasons: ['reversePosTooLong', 'forwardPosTooLong'],
    },
    {
      name: 'a position at 79 % of pos',
      model: at(moveTables(), 'zone1-0000000110', 7900),
      reasons: ['posNearLimit'],
    },
    {
      name: 'sixteen target positions that fit the mediumblob val of the stored upstream schema',
      model: [...Array(16).keys()].reduce(
        (b, i) => at(b, `zone1-${String(110 + 10 * i).padStart(10, '0')}`, 4500, i + 2),
        moveTables(sixteen()),
      ),
      reasons: ['journalTooLong'],
    },
    {
      name: 'column sizes not read, positions within the upstream default',
      model: moveTablesScenario(['customer']).fullStatusOf('zone1-0000000110', { primaryPosition: longPosition(9000) }),
      reasons: ['columnSizeUnknown'],
    },
    { name: 'tablet status not read', model: moveTables().fullStatusOf('zone1-0000000110', { error: 'UNAVAILABLE' }) },
  ],
  invalid: [
    {
      name: 'a target position longer than pos on the source: the reverse insert fails after writes stop (#19122)',
      model: at(moveTables(), 'zone1-0000000110', 10750),
      findings: [
        {
          reason: 'reversePosTooLong',
          severity: 'error',
          keyspace: 'commerce',
          shard: '0',
          tablet: 'zone1-0000000100',
          workflow: 'commerce2customer',
          message: joinRegExp(
            /^the position of customer\/-80 is 107\d\d bytes but vreplication\.pos on commerce\/0 holds 10000: the /,
            /reverse stream /,
            /SwitchTraffic inserts on commerce\/0 after stopping writes fails with "Data too long for column 'pos' /,
            /at row 1 \(errno 1406\)"$/,
          ),
          details: { positionOf: 'customer/-80', columnBytes: 10000, column: 'vreplication.pos' },
        },
      ],
    },
    {
      name: 'a source position longer than pos on the targets: the streams cannot record progress (#18185)',
      model: at(moveTables(), 'zone1-0000000100', 10500),
      findings: [
        { reason: 'forwardPosTooLong', keyspace: 'customer', shard: '-80', details: { positionOf: 'commerce/0' } },
        { reason: 'forwardPosTooLong', keyspace: 'customer', shard: '80-', details: { positionOf: 'commerce/0' } },
      ],
    },
    {
      name: 'sixteen target positions that overflow a 64 KiB blob val (PR #18608)',
      model: [...Array(16).keys()].reduce(
        (b, i) => at(b, `zone1-${String(110 + 10 * i).padStart(10, '0')}`, 4500, i + 2),
        moveTables(sixteen(), { valType: 'blob', valBytes: 65535 }),
      ),
      findings: [
        {
          reason: 'journalTooLong',
          severity: 'error',
          keyspace: 'commerce',
          shard: '0',
          message: joinRegExp(
            /^the resharding journal SwitchTraffic writes on commerce\/0 at the point of no return holds about /,
            /7\d{4} bytes \(its position and those of 16 target shard\(s\)\) but resharding_journal\.val holds 65535/,
          ),
          details: { columnBytes: 65535 },
        },
      ],
    },
    {
      name: 'a target position at 85 % of pos: a warning',
      model: at(moveTables(), 'zone1-0000000120', 8500),
      findings: [
        {
          reason: 'posNearLimit',
          severity: 'warning',
          keyspace: 'commerce',
          shard: '0',
          message: /is 85\d\d bytes, 8[56] % of the 10000 vreplication\.pos holds on commerce\/0/,
        },
      ],
    },
    {
      name: 'the column sizes were not read and a position exceeds the upstream default',
      model: moveTablesScenario(['customer'])
        .positionColumns('commerce', '0', { error: 'SELECT command denied' })
        .fullStatusOf('zone1-0000000110', { primaryPosition: longPosition(11000) }),
      findings: [
        {
          reason: 'columnSizeUnknown',
          severity: 'warning',
          keyspace: 'commerce',
          shard: '0',
          details: { assumedColumnBytes: 10000, positionOf: 'customer/-80' },
        },
      ],
    },
  ],
});

/** Sixteen shards covering the key space: -10, 10-20, …, f0-. */
function sixteen(): string[] {
  const b = [...Array(15).keys()].map((i) => ((i + 1) * 16).toString(16).padStart(2, '0'));
  return [`-${b[0]}`, ...b.slice(0, -1).map((x, i) => `${x}-${b[i + 1]}`), `${b[14]}-`];
}
