/**
 * Whether the primary converts named time zones: its time-zone tables are loaded. MoveTables with
 * `--source-time-zone` converts the source's times on the target primaries with the same kind of call
 * (materializer.go `select convert_tz(%s, %s, 'UTC')`), which yields NULL without the tables. Judged by
 * checks/time-zone-tables.ts.
 */
import { type Read, readOk } from '../../readout.js';
import { bool } from '../shape.js';
import { decodeRows, must, SQL_TAG } from '../sql.js';
import { defineReadUnit } from '../unit.js';

/** A fixed instant: any value converts, and NULL means the zone is unknown to the server. */
const PROBE = '2006-01-02 15:04:05';

export default defineReadUnit({
  declaration: {
    id: 'timeZoneTables',
    reads: "CONVERT_TZ('…', 'UTC', 'UTC')",
    role: 'declared',
    optionalInReadout: true,
    // A function call on constants: no table, no privilege.
    privileges: [],
  },
  statements: () => [
    {
      sql: `${SQL_TAG} SELECT CONVERT_TZ('${PROBE}', 'UTC', 'UTC') AS \`converted\``,
      params: [],
      what: 'select CONVERT_TZ',
    },
  ],
  decode([answer], [statement], where): Read<boolean> {
    if (answer === undefined || statement === undefined) throw new Error('time-zone probe: one statement expected');
    if (!answer.ok) return answer;
    const rows = decodeRows(statement.what, where, answer.value, (r) => must(r, 'converted') !== null);
    return rows.ok ? readOk(rows.value[0] === true) : rows;
  },
  shape: bool,
  // The simulated servers have their time-zone tables loaded.
  simulate: () => ({ columns: [{ name: 'converted', type: 'text' }], rows: [[PROBE]] }),
});
