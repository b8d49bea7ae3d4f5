// PLACEHOLDER: implemented by the primitives work (issue 2). Signatures are the contract.
export type GtidFlavor = 'MySQL56' | 'MariaDB' | 'FilePos';
export interface GtidSet {
  readonly flavor: GtidFlavor;
  toString(): string;
  equals(other: GtidSet): boolean;
  contains(other: GtidSet): boolean;
  union(other: GtidSet): GtidSet;
  subtract(other: GtidSet): GtidSet;
  count(): bigint;
  isEmpty(): boolean;
}
export declare function parseGtidSet(text: string, flavor?: 'MySQL56' | 'MariaDB' | 'FilePos'): GtidSet;
export interface Position {
  readonly flavor: GtidFlavor | '';
  readonly gtidSet: GtidSet | null;
  isZero(): boolean;
  toString(): string;
  equals(other: Position): boolean;
  atLeast(other: Position): boolean;
}
export declare function parsePosition(text: string): Position;
