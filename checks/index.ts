/**
 * The check registry: every check imported explicitly, sorted by id (ESLint's lib/rules/index.js).
 * No filesystem scanning at runtime; a meta-test fails when a file in checks/ is not listed here.
 */
import type { Check } from '../src/engine/check.js';
import atomicTransactions from './atomic-transactions.js';
import binlogsPurged from './binlogs-purged.js';
import cancelWorkflow from './cancel-workflow.js';
import completeWorkflow from './complete-workflow.js';
import copyIncomplete from './copy-incomplete.js';
import createWorkflow from './create-workflow.js';
import externalizeOptionsInvalid from './externalize-options-invalid.js';
import externalizeWorkflow from './externalize-workflow.js';
import frozenWorkflow from './frozen-workflow.js';
import gtidSetTooLong from './gtid-set-too-long.js';
import leftoverFrozenWorkflows from './leftover-frozen-workflows.js';
import leftoverJournals from './leftover-journals.js';
import leftoverLookupVindexes from './leftover-lookup-vindexes.js';
import leftoverMirrorRules from './leftover-mirror-rules.js';
import leftoverOnlineDdl from './leftover-online-ddl.js';
import leftoverQueryService from './leftover-query-service.js';
import leftoverReverseWorkflows from './leftover-reverse-workflows.js';
import leftoverRoutingRules from './leftover-routing-rules.js';
import leftoverShards from './leftover-shards.js';
import leftoverTables from './leftover-tables.js';
import longTransactions from './long-transactions.js';
import mirrorTraffic from './mirror-traffic.js';
import missingSource from './missing-source.js';
import movedTablesForeignKeys from './moved-tables-foreign-keys.js';
import movedTablesWithoutKey from './moved-tables-without-key.js';
import multipleSourceKeyspaces from './multiple-source-keyspaces.js';
import multipleTargetKeyspaces from './multiple-target-keyspaces.js';
import noStreams from './no-streams.js';
import orphanDeniedTables from './orphan-denied-tables.js';
import positionDrift from './position-drift.js';
import replicationLag from './replication-lag.js';
import reversePermissions from './reverse-permissions.js';
import reverseTabletsMissing from './reverse-tablets-missing.js';
import reverseTraffic from './reverse-traffic.js';
import sameKeyspaceMovetables from './same-keyspace-movetables.js';
import semiSyncAckers from './semi-sync-ackers.js';
import servingGraphMissing from './serving-graph-missing.js';
import shardSetMismatch from './shard-set-mismatch.js';
import sidecarSchemaSkew from './sidecar-schema-skew.js';
import sourceNotServing from './source-not-serving.js';
import sourceStreamsNotRunning from './source-streams-not-running.js';
import sourceTablesGlobalRouting from './source-tables-global-routing.js';
import srvKeyspacePartitions from './srv-keyspace-partitions.js';
import stopAfterCopyState from './stop-after-copy-state.js';
import strayRoutingRules from './stray-routing-rules.js';
import streamCoverage from './stream-coverage.js';
import streamError from './stream-error.js';
import streamSetMismatch from './stream-set-mismatch.js';
import streamTemplateInvalid from './stream-template-invalid.js';
import switchTrafficUnsupported from './switch-traffic-unsupported.js';
import tableListMismatch from './table-list-mismatch.js';
import tabletsInBackup from './tablets-in-backup.js';
import targetPrimaryMissing from './target-primary-missing.js';
import targetSequences from './target-sequences.js';
import timeZoneTables from './time-zone-tables.js';
import unreachable from './unreachable.js';
import vdiffEvidence from './vdiff-evidence.js';
import vitessVersionMismatch from './vitess-version-mismatch.js';

/** Every check, sorted by id. */
export const CHECKS: readonly Check[] = Object.freeze([
  atomicTransactions,
  binlogsPurged,
  cancelWorkflow,
  completeWorkflow,
  copyIncomplete,
  createWorkflow,
  externalizeOptionsInvalid,
  externalizeWorkflow,
  frozenWorkflow,
  gtidSetTooLong,
  leftoverFrozenWorkflows,
  leftoverJournals,
  leftoverLookupVindexes,
  leftoverMirrorRules,
  leftoverOnlineDdl,
  leftoverQueryService,
  leftoverReverseWorkflows,
  leftoverRoutingRules,
  leftoverShards,
  leftoverTables,
  longTransactions,
  mirrorTraffic,
  missingSource,
  movedTablesForeignKeys,
  movedTablesWithoutKey,
  multipleSourceKeyspaces,
  multipleTargetKeyspaces,
  noStreams,
  orphanDeniedTables,
  positionDrift,
  replicationLag,
  reversePermissions,
  reverseTabletsMissing,
  reverseTraffic,
  sameKeyspaceMovetables,
  semiSyncAckers,
  servingGraphMissing,
  shardSetMismatch,
  sidecarSchemaSkew,
  sourceNotServing,
  sourceStreamsNotRunning,
  sourceTablesGlobalRouting,
  srvKeyspacePartitions,
  stopAfterCopyState,
  strayRoutingRules,
  streamCoverage,
  streamError,
  streamSetMismatch,
  streamTemplateInvalid,
  switchTrafficUnsupported,
  tableListMismatch,
  tabletsInBackup,
  targetPrimaryMissing,
  targetSequences,
  timeZoneTables,
  unreachable,
  vdiffEvidence,
  vitessVersionMismatch,
]);

/** Looks a check up by id. */
export function findCheck(id: string): Check | undefined {
  return CHECKS.find((c) => c.id === id);
}
