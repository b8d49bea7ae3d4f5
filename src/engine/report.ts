/** The report object: the JSON report contract of DESIGN.md, version 1. Every reporter renders this. */
import type { Finding, Severity } from './check.js';

export const REPORT_VERSION = 1 as const;

export type CheckStatus = 'pass' | 'fail' | 'error' | 'skipped';

export interface CheckResult {
  readonly id: string;
  readonly status: CheckStatus;
  readonly findings: number;
  readonly durationMs: number;
  /** Set when status is `error`: the one-line error the check threw. Not in DESIGN's example; additive. */
  readonly error?: string;
  /** Display metadata for reporters (additive to the contract). */
  readonly title?: string;
  readonly severity?: Severity;
  readonly remediation?: string;
}

export type Verdict = 'blocked' | 'at-risk' | 'ready';

export interface WorkflowVerdict {
  readonly keyspace: string;
  readonly workflow: string;
  readonly type: string;
  readonly verdict: Verdict;
  readonly blockedBy: readonly string[];
  readonly vitessWouldSay: string | null;
}

export interface Report {
  readonly version: typeof REPORT_VERSION;
  readonly tool: { readonly name: 'vtpreflight'; readonly version: string };
  readonly target: {
    readonly vtctld: string | null;
    readonly snapshot: string | null;
    readonly keyspaces: readonly string[];
    readonly workflows: readonly string[];
  };
  readonly startedAt: string;
  readonly durationMs: number;
  readonly checks: readonly CheckResult[];
  readonly findings: readonly Finding[];
  readonly workflows: readonly WorkflowVerdict[];
  readonly summary: { readonly error: number; readonly warning: number; readonly info: number; readonly exitCode: 0 | 1 | 2 };
}
