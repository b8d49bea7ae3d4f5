/** `check --workflows-json FILE...`: vtctldclient's JSON output converted into one readout, checked offline. */
import { readFile } from 'node:fs/promises';
import { Option } from 'commander';
import { get } from '../../config/settings.js';
import { UsageError, oneLine } from '../../errors.js';
import { parseWorkflowsJson, WorkflowsJsonError, workflowsJsonToReadout } from '../../sources/workflows-json.js';
import { VERSION } from '../../version.js';
import type { InputSource } from './types.js';

export const workflowsJsonInput: InputSource = {
  name: 'workflows-json',
  option: () =>
    new Option(
      '--workflows-json <file...>',
      'check the output of `vtctldclient GetWorkflows KEYSPACE --include-logs --json` offline (repeatable)',
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
      async read() {
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
          return workflowsJsonToReadout(inputs, {
            now: new Date().toISOString(),
            toolVersion: VERSION,
            keyspaces: get<string[]>(s, 'keyspaces') ?? [],
            workflows: get<string[]>(s, 'workflows') ?? [],
          });
        } catch (e) {
          if (e instanceof WorkflowsJsonError) throw new UsageError(`--workflows-json ${oneLine(e)}`);
          throw e;
        }
      },
    };
  },
};
