/**
 * The read units (src/reads/unit.ts), in the order their statements join a primary's batch: after the reads every
 * schema answers, before the optional grants' reads. Adding a read is a file here, its line below, its readout field
 * (src/readout.ts) and the check that judges it.
 */
import type { ReadUnit } from '../unit.js';
import timeZoneTables from './time-zone-tables.js';
import twoPc from './two-pc.js';

export const READ_UNITS = [twoPc, timeZoneTables] as const satisfies readonly ReadUnit[];

/** The ids of the reads declared as units. */
export type UnitReadId = (typeof READ_UNITS)[number]['declaration']['id'];

/** The ids of the reads declared as units, as a list. */
export const UNIT_READ_IDS: readonly UnitReadId[] = READ_UNITS.map((u) => u.declaration.id);
