// PLACEHOLDER: implemented by the primitives work (issue 2). Signatures are the contract.
import type { KeyRange } from './keyrange.js';
export type OnDdlAction = 'IGNORE' | 'STOP' | 'EXEC' | 'EXEC_IGNORE';
export interface Rule {
  readonly match: string;
  readonly filter: string;
  readonly convertEnumToText: Readonly<Record<string, string>>;
  readonly convertCharset: Readonly<Record<string, { readonly fromCharset: string; readonly toCharset: string }>>;
  readonly sourceUniqueKeyColumns: string;
  readonly targetUniqueKeyColumns: string;
  readonly sourceUniqueKeyTargetColumns: string;
  readonly convertIntToEnum: Readonly<Record<string, boolean>>;
  readonly forceUniqueKey: string;
}
export interface Filter {
  readonly rules: readonly Rule[];
  readonly fieldEventMode: 'ERR_ON_MISMATCH' | 'BEST_EFFORT';
  readonly workflowType: string;
  readonly workflowName: string;
}
export interface BinlogSource {
  readonly keyspace: string;
  readonly shard: string;
  readonly tabletType: string;
  readonly keyRange: KeyRange | null;
  readonly tables: readonly string[];
  readonly filter: Filter | null;
  readonly onDdl: OnDdlAction;
  readonly externalMysql: string;
  readonly stopAfterCopy: boolean;
  readonly externalCluster: string;
  readonly sourceTimeZone: string;
  readonly targetTimeZone: string;
  readonly unknownFields: readonly string[];
}
export declare function parseBinlogSource(text: string): BinlogSource;
