// PLACEHOLDER: implemented by the primitives work (issue 2). Signatures are the contract.
/** A key range with bounds as lower-case hex; '' = unbounded. */
export interface KeyRange {
  readonly start: string;
  readonly end: string;
}
export declare function parseKeyRange(shardName: string): KeyRange | null;
export declare function keyRangesIntersect(a: KeyRange | null, b: KeyRange | null): boolean;
export declare function keyRangeContains(a: KeyRange | null, b: KeyRange | null): boolean;
export declare function keyRangeEqual(a: KeyRange | null, b: KeyRange | null): boolean;
export declare function keyRangeString(kr: KeyRange | null): string;
export declare function isKeyRangeName(text: string): boolean;
