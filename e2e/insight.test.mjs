// End-to-end tests of what is inside the answer, in English and in Chinese: the step as a
// timeline drawn by the plots' worker for an interleaved plan (the default) and a 1F1B one,
// each bar titled with its kind and time; the sensitivity table, its sentence and tornado; the
// network's load by tier; and Save as file, whose HTML opened from file:// with the network
// cut shows the same days as the page that saved it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  assertClean, harness, newContext, newPage, num, open, origin, plotOf, q, served, text, typeInto, until, waitChange,
} from './harness.mjs';

harness();

const PLAN = {
  model: { preset: 'llama3-405b' },
  training: { tokens: '15.6T', global_batch: 2048, recipe: 'megatron-bf16' },
  cluster: { chip: 'h100-sxm', chips: 16384, scale_out: 'roce-400g' },
  parallelism: { tp: 8, pp: 16, cp: 2, micro_batch: 1, virtual_stages: 4, zero: 1, recompute: 'none', sequence_parallel: true },
};
const link = (plan) => `${origin}/#s=1.${Buffer.from(JSON.stringify(plan)).toString('base64url')}`;

// The titles of the timeline's bars.
const titles = (page) => page.evaluate((s) => [...document.querySelectorAll(`${s} svg rect > title`)].map((t) => t.textContent), q('plot-step-timeline'));

const WORDS = {
  en: { forward: 'forward', backward: 'backward', chunk: 'chunk', stage: 'stage' },
  'zh-CN': { forward: '前向', backward: '反向', chunk: '块', stage: '阶段' },
};

for (const lang of ['en', 'zh-CN']) {
  test(`${lang}: the step's timeline, what moves the days and the network's load are drawn for an interleaved and a 1F1B plan`, async (t) => {
    const log = { errors: [], requests: [] };
    const page = await newPage(await newContext(t, { locale: lang, viewport: { width: 1440, height: 1000 }, acceptDownloads: true }), log);
    const w = WORDS[lang];
    for (const [v, chunks] of [[4, true], [1, false]]) {
      const plan = { ...PLAN, parallelism: { ...PLAN.parallelism, virtual_stages: v } };
      await open(page, link(plan));
      if (v === 1) await page.reload();
      await until(page, `the timeline of v = ${v}`, ([s, chunks, word]) => {
        const all = [...document.querySelectorAll(`${s} svg rect > title`)].map((t) => t.textContent);
        return all.length > 50 && all.some((x) => x.includes(word)) === chunks;
      }, [q('plot-step-timeline'), chunks, w.chunk]);
      assert.ok((await plotOf(page, 'plot-step-timeline')).drawn, 'the timeline is drawn');
      const bars = await titles(page);
      assert.ok(bars.some((x) => x.includes(w.forward)) && bars.some((x) => x.includes(w.backward)), bars.slice(0, 3).join(' | '));
      assert.ok(bars.every((x) => / ms/.test(x) && x.includes(w.stage)), 'each bar says its stage and time');
    }
    assert.ok(await page.locator(q('step-timeline')).count() === 1);
    // The whole step leaves as a Chrome trace: a thread a stage, the passes with their times.
    const [trace] = await Promise.all([page.waitForEvent('download'), page.click(q('timeline-trace'))]);
    assert.equal(trace.suggestedFilename(), 'clusterplan-step.trace.json');
    const events = JSON.parse(readFileSync(await trace.path(), 'utf8')).traceEvents;
    assert.equal(events.filter((e) => e.ph === 'M').length, 16, 'a thread for each of 16 stages');
    const passes = events.filter((e) => e.ph === 'X' && e.name === 'forward');
    assert.ok(passes.length >= 16 && passes.every((e) => e.dur > 0 && e.ts >= 0), `${passes.length} forward passes`);

    // What moves the days: at least ten inputs, a sentence, the tornado.
    await until(page, 'the sensitivity table', (s) => document.querySelectorAll(`${s} tbody tr`).length >= 10, q('sensitivity-table'));
    assert.ok((await text(page, 'sensitivity-said')).length > 20);
    assert.ok((await plotOf(page, 'plot-sensitivity')).drawn, 'the tornado is drawn');

    // The network by tier: a row a tier, one marked hottest, the bars.
    const rows = await page.locator(`${q('network-load-table')} tbody tr`).count();
    assert.ok(rows >= 3, `${rows} tiers`);
    const cells = await page.locator(`${q('network-load-table')} tbody td:last-child`).allTextContents();
    assert.equal(cells.filter((c) => c.trim()).length, 1, 'one tier is the hottest');
    assert.ok((await plotOf(page, 'plot-network-load')).drawn, 'the load is drawn');
    assert.ok((await text(page, 'network-load-said')).length > 10);
    assertClean(log, served());
  });
}

test('Save as file writes one HTML file that opens offline from file:// at the plan that saved it', async (t) => {
  const log = { errors: [], requests: [] };
  const context = await newContext(t, { acceptDownloads: true });
  const page = await newPage(context, log);
  await open(page, `${origin}/`);
  const before = await text(page, 'train-days');
  await typeInto(page, 'chips', '8192');
  const days = await waitChange(page, 'train-days', before);
  const [download] = await Promise.all([page.waitForEvent('download'), page.click(q('save-file'))]);
  const file = join(mkdtempSync(join(tmpdir(), 'clusterplan-')), 'plan.html');
  await download.saveAs(file);
  await until(page, 'the saved notice', (s) => !!document.querySelector(s)?.textContent.trim(), q('notice'));
  assertClean(log, served());

  // A laptop with no network: the file alone, from file://.
  const offline = { errors: [], requests: [] };
  const laptop = await newContext(t, { offline: true });
  const other = await newPage(laptop, offline);
  await open(other, pathToFileURL(file).href);
  assert.equal(await text(other, 'train-days'), days, 'the same days as the page that saved it');
  assert.equal(num(await other.inputValue(q('chips'))), 8192);
  const stray = offline.requests.filter((u) => !u.startsWith('file:') && !u.startsWith('data:') && !u.startsWith('blob:'));
  assert.deepEqual(stray, [], 'no request leaves the file');
  assert.deepEqual(offline.errors, []);

  // Saved again from the file, it carries its own plan, not the first one's.
  await typeInto(other, 'chips', '4096');
  const fewer = await waitChange(other, 'train-days', days);
  const [again] = await Promise.all([other.waitForEvent('download'), other.click(q('save-file'))]);
  const second = join(mkdtempSync(join(tmpdir(), 'clusterplan-')), 'plan.html');
  await again.saveAs(second);
  const third = await newPage(await newContext(t, { offline: true }), { errors: [], requests: [] });
  await open(third, pathToFileURL(second).href);
  assert.equal(await text(third, 'train-days'), fewer);
});

test('the search on a pool of workers ranks the same plans as on one worker', async (t) => {
  const log = { errors: [], requests: [] };
  const page = await newPage(await newContext(t), log);
  await open(page, `${origin}/`);
  const ranked = {};
  for (const workers of ['1', '2', '3']) {
    await page.evaluate((n) => localStorage.setItem('clusterplan.workers', n), workers);
    await page.reload();
    await until(page, 'the answer', (s) => !!document.querySelector(s)?.textContent.trim(), q('train-days'));
    await page.click(q('search'));
    await until(page, `the search on ${workers} workers`, (s) => !!document.querySelector(s), q('search-yours'));
    ranked[workers] = await page.locator(`${q('search-results')} tbody tr`).allTextContents();
    assert.equal(ranked[workers].length, 10, `${workers} workers: ten plans`);
  }
  assert.deepEqual(ranked['2'], ranked['1'], 'two workers rank what one does');
  assert.deepEqual(ranked['3'], ranked['1'], 'three workers rank what one does');
  assertClean(log, served());
});

test('a search whose workers beside it never load is run by the worker that asked them', async (t) => {
  const log = { errors: [], requests: [] };
  const context = await newContext(t);
  // The plots' worker and the search's own load; every worker after them never gets its code.
  let loads = 0;
  const held = [];
  await context.route('**/clusterplan-worker_bg.wasm', (route) => (++loads <= 2 ? route.continue() : held.push(route)));
  t.after(() => held.forEach((r) => r.abort().catch(() => {})));
  const page = await newPage(context, log);
  await page.addInitScript(() => localStorage.setItem('clusterplan.workers', '2'));
  await open(page, `${origin}/`);
  await page.click(q('search'));
  await until(page, 'the search run alone', (s) => !!document.querySelector(s), q('search-yours'), 20_000);
  assert.ok(loads > 2, `the workers beside it asked for their code (${loads} loads)`);
  assert.equal(await page.locator(`${q('search-results')} tbody tr`).count(), 10, 'ten plans');
  assertClean(log, served());
});
