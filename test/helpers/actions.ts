/**
 * Routing states of a MoveTables for the action tests (`--action reverse|complete|cancel`): the global routing rules
 * MoveTables create writes (every table, unqualified and qualified with either keyspace, for each tablet type suffix,
 * pointing at the source) with the switched tablet types pointing at the target instead, as SwitchTraffic's
 * `switchTableReads` / `changeRouting` leave them (`vitessio/vitess:go/vt/vtctl/workflow/traffic_switcher.go`).
 */
import type { RoutingRuleRecord } from '../../src/readout.js';

export type SwitchedType = 'primary' | 'replica' | 'rdonly';

export function moveTablesRules(
  from: string,
  to: string,
  tables: readonly string[],
  switched: readonly SwitchedType[],
): RoutingRuleRecord[] {
  const out: RoutingRuleRecord[] = [];
  for (const t of tables)
    for (const type of ['primary', 'replica', 'rdonly'] as const) {
      const suffix = type === 'primary' ? '' : `@${type}`;
      const target = switched.includes(type) ? `${to}.${t}` : `${from}.${t}`;
      for (const name of [t, `${from}.${t}`, `${to}.${t}`])
        out.push({ fromTable: `${name}${suffix}`, toTables: [target] });
    }
  return out;
}
