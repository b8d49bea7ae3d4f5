/**
 * The atomic (2PC) transaction records of the sidecar (upstream go/vt/sidecardb/schema/twopc): `dt_state`, where this
 * primary coordinates them, and `redo_state`, where it prepared them as a participant. A server without the tables
 * (a Vitess before atomic transactions) refuses with 1146, which reads as "no such table" (null), not as a failure.
 * Judged by checks/atomic-transactions.ts.
 */
import { type Read, readOk, type TwoPcRead, type TwoPcRow } from '../../readout.js';
import { SIDECAR } from '../declaration.js';
import { arr, nullable, num, obj, str } from '../shape.js';
import { decodeRows, must, SQL_TAG, type SqlResult, toDecimal, toInt, toText } from '../sql.js';
import { byCodeUnit } from '../../text.js';
import { defineReadUnit } from '../unit.js';

/** Records read per table and primary (a healthy primary holds none or a few in flight). */
export const TWO_PC_ROW_LIMIT = 100;

/** A server's "no such table / column": the sidecar table does not exist, which is an answer here. */
const isAbsent = (r: Read<unknown>): boolean =>
  !r.ok && (r.error.kind === 'missing-table' || r.error.kind === 'missing-column');

/** One table's rows sorted by dtid, or null when the server has no such table. */
function table(answer: Read<SqlResult> | undefined, what: string, where: string): Read<readonly TwoPcRow[] | null> {
  if (answer === undefined) throw new Error('2PC read: two statements expected');
  if (!answer.ok) return isAbsent(answer) ? readOk(null) : answer;
  const rows = decodeRows(what, where, answer.value, (r) => ({
    dtid: toText(must(r, 'dtid')),
    state: toInt(must(r, 'state')),
    time_created: toDecimal(must(r, 'time_created')),
  }));
  return rows.ok ? readOk([...rows.value].sort((a, b) => byCodeUnit(a.dtid, b.dtid))) : rows;
}

const rows = nullable(arr(obj({ dtid: str, state: num, time_created: str })));

export default defineReadUnit({
  declaration: {
    id: 'twoPc',
    reads: '{sidecar}.dt_state and redo_state',
    role: 'declared',
    optionalInReadout: true,
    privileges: [SIDECAR],
  },
  // Primary-key reads with a LIMIT and no ORDER BY (sorted here).
  statements: ({ sidecar, sidecarName }) =>
    (['dt_state', 'redo_state'] as const).map((t) => ({
      sql: `${SQL_TAG} SELECT \`dtid\`, \`state\`, \`time_created\` FROM ${sidecar}.\`${t}\` LIMIT ${TWO_PC_ROW_LIMIT}`,
      params: [],
      what: `select ${sidecarName}.${t}`,
    })),
  decode([dt, redo], [dtStatement, redoStatement], where): Read<TwoPcRead> {
    const dtState = table(dt, dtStatement?.what ?? '', where);
    if (!dtState.ok) return dtState;
    const redoState = table(redo, redoStatement?.what ?? '', where);
    if (!redoState.ok) return redoState;
    return readOk({ dtState: dtState.value, redoState: redoState.value });
  },
  shape: obj({ dtState: rows, redoState: rows }),
  // The simulated tablets coordinate no atomic transaction.
  simulate: () => ({
    columns: [
      { name: 'dtid', type: 'text' },
      { name: 'state', type: 'int' },
      { name: 'time_created', type: 'int' },
    ],
    rows: [],
  }),
});
