// End-to-end test of plans out and measurements in, in English and in Chinese: an engineer
// opens "Run this plan", copies the Megatron-LM launch of the plan on screen and switches to
// torchtitan; then drops the log of a 64-GPU run on "My measurements", and the measurement
// appears with its fit while the 10,240-chip estimate moves. A log of nothing is reported and
// changes nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import {
  assertClean, harness, newContext, newPage, num, open, origin, q, served, text, until, waitChange,
} from './harness.mjs';

harness();

const plan = {
  model: { preset: 'llama3-70b', seq_len: 8192 },
  training: { tokens: '15T', global_batch: 512, recipe: 'fp8' },
  cluster: { chip: 'h100-sxm', chips: 2048 },
  parallelism: { tp: 8, pp: 4, cp: 1, micro_batch: 1, virtual_stages: 1, zero: 1, recompute: 'selective', sequence_parallel: true },
};
const link = () => `${origin}/#s=1.${Buffer.from(JSON.stringify(plan)).toString('base64url')}`;

// Drops files (name and text) on the element with test id `id`, as a browser's drag and drop
// delivers them.
async function drop(page, id, files) {
  const transfer = await page.evaluateHandle((files) => {
    const dt = new DataTransfer();
    for (const [name, body] of files) dt.items.add(new File([body], name, { type: 'text/plain' }));
    return dt;
  }, files);
  await page.dispatchEvent(q(id), 'drop', { dataTransfer: transfer });
}

for (const lang of ['en', 'zh-CN']) {
  test(`the plan leaves as a launch and a dropped log comes back as a measurement (${lang})`, async (t) => {
    const log = { errors: [], requests: [] };
    const context = await newContext(t, { locale: lang });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
    const page = await newPage(context, log);
    await open(page, link());

    // Run this plan: Megatron-LM's arguments for the plan on screen, copied whole.
    await page.click(`${q('launch')} summary`);
    await until(page, 'the launch files', (s) => !!document.querySelector(s), q('launch-file-launch-sh'));
    const args = await text(page, 'launch-file-launch-sh');
    for (const flag of ['--tensor-model-parallel-size 8', '--pipeline-model-parallel-size 4', '--global-batch-size 512',
      '--fp8-format hybrid', '--use-distributed-optimizer', '--recompute-granularity selective']) {
      assert.ok(args.includes(flag), `${flag} in the launch`);
    }
    await page.click(q('launch-file-launch-sh-copy'));
    await until(page, 'the launch on the clipboard',
      () => navigator.clipboard.readText().then((s) => s.includes('--tensor-model-parallel-size 8'), () => false));
    await until(page, 'a copy notice', (s) => /launch\.sh/.test(document.querySelector(s)?.textContent ?? ''), q('notice'));
    // Another framework: torchtitan's job file, and what it cannot say (ZeRO-1) in words.
    await page.selectOption(q('launch-for'), 'torchtitan');
    await until(page, 'the torchtitan job file', (s) => !!document.querySelector(s), q('launch-file-train-toml'));
    assert.match(await text(page, 'launch-file-train-toml'), /tensor_parallel_degree = 8/);
    await until(page, 'what torchtitan cannot say', (s) => /ZeRO/.test(document.querySelector(s)?.textContent ?? ''), q('launch-cannot'));

    // A log of nothing: reported, nothing changes.
    const days = await text(page, 'train-days');
    await drop(page, 'measure-log', [['noise.log', 'INFO nothing here\n'.repeat(1000)]]);
    await until(page, 'the report of a log of nothing', (s) => /noise\.log/.test(document.querySelector(s)?.textContent ?? ''), q('measure-report'));
    assert.equal(await page.locator(q('measurement-0')).count(), 0);
    assert.equal(await text(page, 'train-days'), days);

    // A Megatron log of a 64-GPU run, slower than the model says: the measurement joins the
    // plan with its fit, and the 2,048-GPU estimate moves.
    const run = await readFile(new URL('../tests/data/logs/megatron-core-0.15-fp8.log', import.meta.url), 'utf8');
    await drop(page, 'measure-log', [['run-64.log', run]]);
    const later = await waitChange(page, 'train-days', days);
    assert.notEqual(num(later), num(days));
    await until(page, 'the measurement row', (s) => !!document.querySelector(s), q('measurement-0'));
    await until(page, 'the fit', (s) => !!document.querySelector(s), q('measurement-fit'));
    await until(page, 'the measured step beside the model', ([s, p]) => new RegExp(p).test(document.querySelector(s)?.textContent ?? ''),
      [q('measurement-result-0'), '(5\\.9\\d|6\\.0\\d?) ?(s|秒)']);
    assert.match(await text(page, 'measure-report'), /run-64\.log/);
    // From the 64 GPUs measured to the plan's 2,048, with the range that rests on them.
    await until(page, 'the measured run carried to the plan', ([s, p]) => new RegExp(p).test(document.querySelector(s)?.textContent ?? ''),
      [q('measurement-scale'), '64[^0-9]+2,?048']);
    // One Undo step takes it back.
    await page.click(q('undo'));
    await until(page, 'the plan before the log', ([s, d]) => document.querySelector(s)?.textContent === d, [q('train-days'), days]);
    assertClean(log, served());
  });
}
