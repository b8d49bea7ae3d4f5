/**
 * What the reports say, end to end through the in-process CLI on the simulated cluster with every fault: no
 * raw Go format verbs or template placeholders in any format, remediation commands filled
 * with the finding's names, markdown `sh` blocks safe to paste, "VStreamer is not open" naming a source tablet,
 * multi-line Vitess texts rendered as lines, one line per finding by default, and no SwitchTraffic refusal quoted
 * for a Materialize workflow (which has no SwitchTraffic).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isSafeToPaste } from '../../src/report/markdown.js';
import { reshardScenario } from '../helpers/reshard-scenario.js';
import { joinRegExp, runCli, snapshotFile, tempDir } from './helpers.js';
import { FORMATS } from '../../src/report/index.js';

const demo = (format: string, ...more: string[]) =>
  runCli(['demo', '--scenario', 'all-faults', '--shards', '4', '--format', format, ...more]);

/** Go verbs and the fold's old template tokens: none may reach a user. */
const RAW = /%[sdvqw]\b|%\d*d\b|\{(shard|tablet|id|keyspace|workflow)\}/;

describe('report content (demo all-faults)', () => {
  it('no format shows a raw format string or a template placeholder', async () => {
    for (const format of FORMATS) {
      const { code, stdout } = await demo(format);
      assert.equal(code, 0, format);
      const hit = RAW.exec(stdout);
      assert.equal(
        hit,
        null,
        `${format}: ${hit?.[0]} in …${stdout.slice(Math.max(0, (hit?.index ?? 0) - 80), (hit?.index ?? 0) + 40)}…`,
      );
    }
  });

  it('json: remediations filled from the findings; predicts has no verb; Materialize quotes nothing', async () => {
    const report = JSON.parse((await demo('json')).stdout);
    const remediation = (id: string): string => report.checks.find((c: { id: string }) => c.id === id).remediation;
    assert.match(
      remediation('copy-incomplete'),
      /`vtctldclient Workflow --keyspace customer show --workflow cust2cust`/,
    );
    // The VStreamer finding names the source shard and the tablet it most likely picked; the fix command uses them.
    const vstreamer = report.findings.find((f: { reason: string }) => f.reason === 'vstreamerNotOpen');
    assert.match(
      vstreamer.message,
      /source tablet zone1-\d{10} \(REPLICA\) in customer\/[0-9a-f-]+, the one its picker/,
    );
    assert.match(vstreamer.details.sourceTablet, /^zone1-\d{10}$/);
    assert.match(remediation('source-not-serving'), /`vtctldclient GetTablets --keyspace customer --shard [0-9a-f-]+`/);
    for (const f of report.findings) if (f.predicts !== undefined) assert.doesNotMatch(f.predicts, /%/, f.check);
    const byName = new Map(report.workflows.map((w: { workflow: string }) => [w.workflow, w]));
    for (const name of ['customer_orders', 'customer_sales', 'product_ref']) {
      const w = byName.get(name) as { type: string; vitessWouldSay: string | null };
      assert.equal(w.type, 'Materialize');
      assert.equal(w.vitessWouldSay, null, `${name}: Materialize has no SwitchTraffic to refuse`);
    }
    // A Reshard still quotes the first refusal of its own steps (the prelude's missing filter).
    assert.match(
      (byName.get('cust2cust') as { vitessWouldSay: string }).vitessWouldSay,
      /^missing filters for customer\//,
    );
  });

  it('markdown: every sh block line is a read-only command with nothing left to fill in', async () => {
    const md = (await demo('markdown')).stdout;
    const blocks = [...md.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!.trim().split('\n'));
    assert.ok(blocks.length > 3, 'the report has sh blocks');
    for (const line of blocks.flat()) {
      assert.ok(isSafeToPaste(line), line);
      assert.doesNotMatch(line, / (stop|start|delete|cancel|complete|update|SwitchTraffic|switchtraffic)( |$)/, line);
    }
    // The changing commands are still said, in the prose.
    assert.match(md, /`vtctldclient Workflow --keyspace customer delete --workflow cust2cust`/);
  });

  it('text: one line per finding by default, the fix under --verbose; a multi-line Vitess text as lines', async () => {
    const plain = (await demo('text')).stdout;
    assert.equal(/^\s+fix: /m.test(plain), false);
    assert.match(plain, /^--verbose: what to do about each check/m);
    assert.equal(plain.includes('\\n'), false, 'no \\n escape');
    // A multi-line Vitess text as lines is proven in test/report/text.test.ts (the demo has none since
    // `unreachable` follows canSwitch's refresh: its unread shard is refreshed by no selected switch).
    const verbose = (await demo('text', '--verbose')).stdout;
    assert.match(verbose, /^ {6}fix: /m);
    assert.match(verbose, /^ {6}Vitess would say: missing filters for customer\//m);
  });

  it('a multi-line Vitess text (stream migrator errors aggregated per shard) is printed as lines', async () => {
    const tmp = tempDir('vtpreflight-multiline-');
    try {
      const b = reshardScenario()
        .patchStream('customer', '-80', 1, { state: 'Stopped', message: 'Stopped by user' })
        .patchStream('customer', '80-', 1, { state: 'Stopped', message: 'Stopped by user' });
      const snap = await snapshotFile(b, tmp.path('stopped.json'));
      const json = JSON.parse((await runCli(['check', '--snapshot', snap, '--format', 'json'])).stdout);
      const said = json.workflows.find((w: { workflow: string }) => w.workflow === 'cust2cust').vitessWouldSay;
      assert.match(said, /are running: -80: \d+\ncannot migrate until all streams are running: 80-: \d+$/);
      const text = (await runCli(['check', '--snapshot', snap])).stdout;
      assert.equal(text.includes('\\n'), false, 'no \\n escape');
      assert.match(
        text,
        new RegExp(
          joinRegExp(
            /^ {9}Vitess would say: "failed to migrate the workflow streams: cannot migrate until all streams\n/,
            / {11}are running: -80: \d+\n {11}cannot migrate until all streams are running: 80-: \d+"$/,
          ),
          'm',
        ),
      );
      const md = (await runCli(['check', '--snapshot', snap, '--format', 'markdown'])).stdout;
      assert.match(md, /are running: -80: \d+<br>cannot migrate until all streams are running: 80-: \d+ \|/);
    } finally {
      tmp.cleanup();
    }
  });
});
