/**
 * What a `--workflows-json` file is: vtctldclient prints many JSON shapes, and only some carry streams. Each file is
 * classified before it is converted, so that the wrong kind of file is refused with a name for what it looks like
 * instead of being read as "0 workflows" (which would pass every check).
 *
 * Accepted (every vtctldclient output that carries streams):
 * - `GetWorkflowsResponse` `{"workflows": [...]}`: printed by `vtctldclient GetWorkflows KEYSPACE` (with or without
 *   `--show-all` and `--include-logs`; `vitessio/vitess:go/cmd/vtctldclient/command/vreplication/workflow/get.go`),
 *   `Workflow --keyspace KS show --workflow WF` (`…/workflow/show.go`) and `MoveTables|Reshard … show`
 *   (`…/vreplication/common/show.go`); v17-era files carry enum numbers;
 * - one `vtctldata.Workflow` object, or a bare list of them (hand-cut from the above);
 * - `WorkflowStatusResponse` `{"table_copy_state", "shard_streams", "traffic_state"}`: printed by
 *   `MoveTables|Reshard … status` (`…/vreplication/common/status.go`, always JSON): per-shard stream state and copy
 *   progress, but no binlog source filter, no timestamps and no workflow name (`vitessio/vitess:
 *   go/vt/vtctl/workflow/server.go` `WorkflowStatus`).
 *
 * Everything else is refused, naming what it looks like: `Workflow list` output (names only), `GetTablets --format
 * json`, `GetKeyspaces`, a vtpreflight snapshot or report, an empty object or list, a GetWorkflows output without a
 * single workflow, or any other JSON.
 */

/** A file that is not vtctldclient output with streams; the message is one line. */
export class NotWorkflowsJsonError extends Error {}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const has = (o: Obj, ...keys: string[]) => keys.some((k) => k in o);

/** A classified file. */
export type VtctldclientJson =
  | { readonly kind: 'workflows'; readonly shape: string; readonly workflows: readonly Obj[] }
  | { readonly kind: 'status'; readonly shape: string; readonly status: Obj };

const CAPTURE = 'capture it with `vtctldclient GetWorkflows --show-all KEYSPACE`';

/** A `vtctldata.Workflow` object as protojson (proto names) or lowerCamel JSON writes it. */
function isWorkflow(v: unknown): v is Obj {
  return isObj(v) && typeof v.name === 'string' && has(v, 'shard_streams', 'shardStreams', 'workflow_type', 'source');
}

/** `WorkflowStatusResponse`: shard_streams keyed `keyspace/shard` whose streams carry `status`/`source_shard`. */
function isStatus(o: Obj): boolean {
  if (has(o, 'traffic_state', 'trafficState', 'table_copy_state', 'tableCopyState')) return true;
  const ss = o.shard_streams ?? o.shardStreams;
  if (!isObj(ss)) return false;
  return Object.values(ss).some(
    (v) =>
      isObj(v) &&
      Array.isArray(v.streams) &&
      v.streams.some((s) => isObj(s) && has(s, 'status', 'source_shard', 'sourceShard')),
  );
}

/** Names a list that is not a list of workflows. */
function listLooksLike(list: readonly unknown[]): string {
  if (list.length === 0) return 'an empty list';
  if (list.every((v) => typeof v === 'string'))
    return '`vtctldclient Workflow list` output: workflow names only, no streams';
  const first = list[0];
  if (isObj(first)) {
    if (has(first, 'alias') && has(first, 'hostname', 'port_map', 'type', 'mysql_hostname'))
      return '`vtctldclient GetTablets --format json` output: tablet records, no streams';
    if (typeof first.name === 'string' && isObj(first.keyspace))
      return '`vtctldclient GetKeyspaces` output: keyspace records, no streams';
  }
  return 'a JSON list that is not a list of workflows';
}

/** Names an object that is neither workflows nor a status. */
function objectLooksLike(o: Obj): string {
  const keys = Object.keys(o);
  if (keys.length === 0) return 'an empty object';
  if (has(o, 'sidecars') && has(o, 'topology')) return 'a vtpreflight snapshot: check it with --snapshot';
  if (isObj(o.tool) && o.tool.name === 'vtpreflight') return 'a vtpreflight report, not vtctldclient output';
  if (has(o, 'alias') && has(o, 'hostname', 'port_map', 'type'))
    return '`vtctldclient GetTablet` output: one tablet record, no streams';
  if (isObj(o.shards) && keys.length === 1)
    return '`vtctldclient FindAllShardsInKeyspace` output: shard records, no streams';
  if (typeof o.name === 'string' && isObj(o.keyspace))
    return '`vtctldclient GetKeyspace` output: a keyspace record, no streams';
  if (has(o, 'vindexes', 'sharded') || (isObj(o.tables) && !has(o, 'workflows')))
    return '`vtctldclient GetVSchema` output: a vschema, no streams';
  if (Array.isArray(o.rules)) return 'routing rules (`GetRoutingRules` or `GetShardRoutingRules`), no streams';
  if (has(o, 'fields') && has(o, 'rows')) return '`ExecuteFetchAsDBA --json` output: a query result, not workflows';
  if (typeof o.summary === 'string' && has(o, 'details'))
    return 'the response of a workflow action (start, stop, update, delete), no streams';
  const shown = keys.slice(0, 4).join(', ') + (keys.length > 4 ? ', …' : '');
  return `a JSON object with keys ${shown}, none of which vtctldclient prints with streams`;
}

/**
 * Classifies a parsed file. Throws NotWorkflowsJsonError (one line, starting with what the file looks like) for
 * anything but vtctldclient output that carries streams.
 */
export function classifyVtctldclientJson(data: unknown): VtctldclientJson {
  if (Array.isArray(data)) {
    if (data.length > 0 && data.every(isWorkflow))
      return { kind: 'workflows', shape: 'a list of workflows', workflows: data };
    throw new NotWorkflowsJsonError(`is ${listLooksLike(data)}; ${CAPTURE}`);
  }
  if (!isObj(data)) throw new NotWorkflowsJsonError(`is a JSON ${typeof data}, not vtctldclient output; ${CAPTURE}`);
  if ('workflows' in data) {
    const list = data.workflows;
    if (!Array.isArray(list)) throw new NotWorkflowsJsonError(`has "workflows" that is not a list; ${CAPTURE}`);
    if (list.length === 0)
      throw new NotWorkflowsJsonError(
        `is GetWorkflows output without a single workflow: nothing to check (was --show-all missing, or the keyspace wrong?); ${CAPTURE}`,
      );
    if (list.every((v) => typeof v === 'string'))
      throw new NotWorkflowsJsonError(`is a list of workflow names, no streams; ${CAPTURE}`);
    const bad = list.findIndex((w) => !isWorkflow(w));
    if (bad >= 0)
      throw new NotWorkflowsJsonError(`workflows[${bad}] is not a workflow (no name and streams); ${CAPTURE}`);
    return { kind: 'workflows', shape: 'GetWorkflows output', workflows: list as Obj[] };
  }
  if (isStatus(data)) return { kind: 'status', shape: 'MoveTables/Reshard status output', status: data };
  if (isWorkflow(data)) return { kind: 'workflows', shape: 'one workflow', workflows: [data] };
  throw new NotWorkflowsJsonError(`is ${objectLooksLike(data)}; ${CAPTURE}`);
}
