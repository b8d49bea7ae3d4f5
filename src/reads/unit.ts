/**
 * A read unit: everything about one read of a shard primary in one place. Its declaration (what it reads, its role,
 * its privileges), the statements it adds to the primary's batch, the decoder from their answers to the readout
 * value, the value's snapshot shape, and what the project's simulator answers. The places that handle reads loop over
 * the units (src/reads/units/index.ts): the batch and its decoding (src/sources/sidecar.ts), the failed-read stub and
 * the cause marking (src/sources/collect.ts), snapshot validation (src/sources/read-shapes.ts), the model builder
 * (src/model/build.ts) and the simulator (src/sim/sidecar-sql.ts).
 *
 * What stays outside the unit, on purpose: the readout field (src/readout.ts), because the readout is the snapshot
 * format other tools keep and parse, so a new field is a visible change of that contract; and the checks that judge
 * the value, which declare the read in their reasons' `reads`. Pure: no I/O.
 */
import type { Read, TabletSidecarRead } from '../readout.js';
import type { PrimaryRead, PrimaryReadId } from './declaration.js';
import type { Shape } from './shape.js';
import type { SqlParam, SqlResult } from './sql.js';

/** The value a successful read of `Id` holds in the readout. */
export type ReadValue<Id extends PrimaryReadId> = NonNullable<TabletSidecarRead[Id]> extends Read<infer V> ? V : never;

/** The names a unit's statements are written for: the quoted sidecar database, and the tablet's schema as is. */
export interface ReadNames {
  /** The sidecar database, backtick-quoted (`` `_vt` ``), for the statement's text. */
  readonly sidecar: string;
  /** The same name unquoted (`_vt`), for what a failure says was read. */
  readonly sidecarName: string;
  /** The tablet's schema (`vt_<keyspace>`), unquoted: pass it as a parameter, never in the text. */
  readonly schema: string;
}

/** One statement of a unit: `?` placeholders and their values, and how a failure names it. */
export interface UnitStatement {
  /** The statement; it starts with the SQL tag, is a bounded SELECT, and holds `?` for each of `params`. */
  readonly sql: string;
  readonly params: readonly SqlParam[];
  /** What a failure says was being read (`select CONVERT_TZ`); unique within the primary's batch. */
  readonly what: string;
}

/** A column of a simulated answer: a text or an integer. */
export interface SimColumn {
  readonly name: string;
  readonly type: 'text' | 'int';
}

/** What the project's simulator answers to one statement of a unit. */
export interface SimAnswer {
  readonly columns: readonly SimColumn[];
  readonly rows: readonly (readonly (string | number | null)[])[];
}

/** One read, declared whole (see the module header). */
export interface ReadUnit<Id extends PrimaryReadId = PrimaryReadId> {
  readonly declaration: PrimaryRead & { readonly id: Id };
  /** The statements, in batch order; the same for every primary but for the names. */
  statements(names: ReadNames): readonly UnitStatement[];
  /**
   * The readout value from the answers to {@link statements}, in the same order (a failed answer carries its
   * error). Total: a malformed answer is a failed read (`kind: 'bad-answer'`), never a throw.
   */
  decode(answers: readonly Read<SqlResult>[], statements: readonly UnitStatement[], where: string): Read<ReadValue<Id>>;
  /** The snapshot shape of a successful read's value. */
  readonly shape: Shape;
  /** The simulator's answer to the statement at `index` of {@link statements}, given its parameters. */
  simulate(index: number, params: readonly (string | number)[]): SimAnswer;
}

/** Declares a unit, keeping its id's literal type. */
export const defineReadUnit = <Id extends PrimaryReadId>(unit: ReadUnit<Id>): ReadUnit<Id> => unit;
