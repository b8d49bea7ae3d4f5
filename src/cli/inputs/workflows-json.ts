/**
 * `check --workflows-json FILE...`: vtctldclient's JSON output with streams (`GetWorkflows --show-all`, `Workflow
 * show`, `MoveTables|Reshard show` or `status`) converted into one readout, checked offline.
 */
import { readFile } from 'node:fs/promises';
import { Option } from 'commander';
import { get } from '../../config/settings.js';
import { UsageError } from '../../errors.js';
import { oneLine } from '../../text.js';
import {
  parseWorkflowsJson,
  WorkflowsJsonError,
  workflowsJsonToReadout,
  workflowsJsonWarnings,
} from '../../sources/workflows-json.js';
import { VERSION } from '../../version.js';
import type { InputSource } from './types.js';

export const workflowsJsonInput: InputSource = {
  name: 'workflows-json',
  option: () =>
    new Option(
      '--workflows-json <file...>',
      'check vtctldclient output offline: `GetWorkflows --show-all KS`, `Workflow show`, `MoveTables show|status` (repeatable)',
    ),
  validate(_value, s) {
    const clash =
      get<number>(s, 'wait') !== undefined
        ? '--wait'
        : s.values.get('vtctld.address')?.source.kind === 'flag'
          ? '--vtctld'
          : null;
    if (clash !== null)
      throw new UsageError(`--workflows-json cannot be combined with ${clash}: it checks a file offline`);
  },
  open(value, s) {
    const files = value as string[];
    return {
      snapshot: null,
      startsAtCapture: false,
      lacksSource: 'a GetWorkflows JSON file',
      async read({ warn }) {
        const inputs = await Promise.all(
          files.map(async (file) => {
            let text: string;
            try {
              text = await readFile(file, 'utf8');
            } catch (e) {
              throw new UsageError(
                `cannot read --workflows-json ${file}: ${(e as NodeJS.ErrnoException).code ?? oneLine(e)}`,
              );
            }
            try {
              return parseWorkflowsJson(text, file);
            } catch (e) {
              throw new UsageError(`--workflows-json ${oneLine(e)}`);
            }
          }),
        );
        try {
          const readout = workflowsJsonToReadout(inputs, {
            now: new Date().toISOString(),
            toolVersion: VERSION,
            keyspaces: get<string[]>(s, 'keyspaces') ?? [],
            workflows: get<string[]>(s, 'workflows') ?? [],
          });
          for (const line of workflowsJsonWarnings(inputs)) warn(line);
          return readout;
        } catch (e) {
          if (e instanceof WorkflowsJsonError) throw new UsageError(`--workflows-json ${oneLine(e)}`);
          throw e;
        }
      },
    };
  },
};
