// End-to-end tests that the page is a function of its scenario: after each of a generated run
// of edits (chip counts that do and do not divide, chip and system switches, pools, sites,
// measurements, serving on and off), every section the page shows reads exactly what a fresh
// open of the resulting link reads, in English and in Chinese; a link or a saved file carrying
// a refused measurement opens with its days and the refusal named over the results; a reload
// after a chip switch shows the same days; Undo and Ctrl+Z restore a typed chip count.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  assertClean, harness, newContext, newPage, num, open, origin, q, select, served, text, typeInto, until, waitChange,
} from './harness.mjs';

harness();

const link = (plan) => `${origin}/#s=1.${Buffer.from(JSON.stringify(plan)).toString('base64url')}`;

// Waits until the worker's drawing is the page's scenario's, and nothing says it is updating.
async function settled(page) {
  await until(page, 'the drawing of the scenario on screen', () => document.querySelector('main')?.dataset.drawn === 'true'
    && !document.querySelector('[data-updating="true"]'), undefined, 20_000);
}

// What the page shows of its plan: the summary bar and every section of the results column
// but the jobs a button starts (search, sizing, the accuracy report), as text, with every
// drawing's markup, so a plot's markers count too.
function shown(page) {
  return page.evaluate(() => {
    const outputs = document.querySelector('.outputs').cloneNode(true);
    for (const job of outputs.querySelectorAll('#search, footer.about, .compare-plots')) job.remove();
    const drawings = [...outputs.querySelectorAll('svg')].map((svg) => svg.outerHTML);
    const images = [...outputs.querySelectorAll('img')].map((img) => img.getAttribute('src'));
    const words = (el) => (el?.textContent ?? '').replace(/\s+/g, ' ').trim();
    return { summary: words(document.querySelector('[data-testid="summary"]')), outputs: words(outputs), drawings, images };
  });
}

// A generator of the same edits on every run (xorshift), so a failure reads the same again.
function rng(seed) {
  let x = seed >>> 0;
  return (n) => {
    x ^= x << 13; x >>>= 0; x ^= x >>> 17; x ^= x << 5; x >>>= 0;
    return x % n;
  };
}

// The edits a user makes, each a step the page must answer for its scenario alone.
const EDITS = [
  ['chips that divide', (page, pick) => typeInto(page, 'chips', ['4096', '8192', '2048'][pick(3)])],
  ['chips that do not divide', (page, pick) => typeInto(page, 'chips', ['10000', '15000', '6000'][pick(3)])],
  ['a chip', (page, pick) => select(page, 'chip', ['ascend-910b', 'mi300x', 'b200', 'h100-sxm', 'mtt-s4000'][pick(5)])],
  ['a system', async (page, pick) => {
    const systems = await page.$$eval(`${q('system')} option`, (options) => options.map((o) => o.value));
    await select(page, 'system', systems[pick(systems.length)]);
  }],
  ['a pool', async (page, pick) => {
    if (await page.locator(q('pool-remove-0')).count()) {
      await page.click(q('pool-remove-0'));
      return;
    }
    await page.click(q('pool-add'));
    await until(page, 'the pool', (s) => !!document.querySelector(s), q('pool-chip-0'));
    await select(page, 'pool-chip-0', ['ascend-910b', 'h800'][pick(2)]);
  }],
  ['a site', async (page) => {
    if (await page.locator(q('site')).count() < 2) await page.click(q('site-add'));
  }],
  ['a measurement', async (page, pick) => {
    if (!(await page.locator(q('measurement-value-0')).count())) {
      await page.click(q('measurement-add'));
      await until(page, 'the measurement', (s) => !!document.querySelector(s), q('measurement-value-0'));
    }
    // A step the chip cannot reach (refused) or one it can.
    await typeInto(page, 'measurement-value-0', ['20', '2000', '0.001'][pick(3)]);
  }],
  ['serving', (page) => page.click(q('serving-on'))],
];

for (const lang of ['en', 'zh-CN']) {
  test(`${lang}: after every generated edit the page reads what a fresh open of its link reads`, async (t) => {
    const log = { errors: [], requests: [] };
    const context = await newContext(t, { locale: lang });
    const page = await newPage(context, log);
    const start = { model: { preset: 'llama3-70b' }, training: { tokens: '2T', global_batch: 1024 },
      cluster: { chip: 'h100-sxm', chips: 4096 }, parallelism: { tp: 8, pp: 4 } };
    await open(page, link(start));
    await settled(page);
    const pick = rng(lang === 'en' ? 0x5EED : 0xC0DE);
    const done = [];
    for (let step = 0; step < 12; step++) {
      const [what, edit] = EDITS[pick(EDITS.length)];
      await edit(page, pick);
      done.push(what);
      await settled(page);
      const here = await shown(page);
      assert.ok(here.outputs.length > 0, `after ${done.join(', ')}: the results have text`);
      const fresh = await newPage(context, log);
      await open(fresh, page.url());
      await settled(fresh);
      const there = await shown(fresh);
      const after = `after ${done.join(', ')}`;
      assert.equal(here.summary, there.summary, `${after}: the summary bar`);
      assert.equal(here.outputs, there.outputs, `${after}: the sections' text`);
      assert.deepEqual(here.images, there.images, `${after}: the pictures`);
      assert.deepEqual(here.drawings, there.drawings, `${after}: the drawings`);
      await fresh.close();
    }
    assert.ok(new Set(done).size >= 5, `the edits vary: ${done}`);
    assertClean(log, served());
  });
}

// Llama 3.1 70B on 4,096 S4000 (the KUAE system) with a measurement of 20 s a step on 1,024
// chips, more than the chip can reach: refused, so not applied.
const REFUSED = {
  model: { preset: 'llama3-70b' }, training: { tokens: '2T', global_batch: 1024 },
  cluster: { chip: 'mtt-s4000', chips: 4096, system: 'kuae-s4000' }, parallelism: { tp: 8, pp: 4 },
  calibration: [{ scenario: { cluster: { chip: 'mtt-s4000', chips: 1024 }, parallelism: { tp: 8, pp: 4, dp: null } },
    measured: { step_s: 20 } }],
};
const WITHOUT = { ...REFUSED, calibration: undefined };

test('a link or a saved file with a refused measurement opens with its days and the refusal named', async (t) => {
  const log = { errors: [], requests: [] };
  const context = await newContext(t, { acceptDownloads: true });
  const page = await newPage(context, log);
  await open(page, link(WITHOUT));
  const own = await text(page, 'train-days');
  await open(page, link(REFUSED));
  await until(page, 'the refusal over the results', (s) => /Measurement 1|measurement/i.test(document.querySelector(s)?.textContent ?? ''),
    q('refused'));
  assert.equal(await text(page, 'train-days'), own, 'the days of the plan without it');
  // Its button takes the user to the measurement, however far down the form it is.
  await page.click(q('refused-jump'));
  assert.match(await page.evaluate(() => document.activeElement?.closest('[data-path]')?.dataset.path ?? ''), /^calibration\.0/);

  const [download] = await Promise.all([page.waitForEvent('download'), page.click(q('save-file'))]);
  const file = join(mkdtempSync(join(tmpdir(), 'clusterplan-')), 'plan.html');
  await download.saveAs(file);
  const laptop = await newPage(await newContext(t, { offline: true }), { errors: [], requests: [] });
  await open(laptop, pathToFileURL(file).href);
  assert.equal(await text(laptop, 'train-days'), own, 'the saved file opens with the same days');
  assert.ok(await laptop.locator(q('refused')).count(), 'and names the refusal');
  assertClean(log, served());
});

test('a link naming an unknown chip keeps its model and names the chip in words', async (t) => {
  const log = { errors: [], requests: [] };
  const page = await newPage(await newContext(t), log);
  await open(page, link({ ...WITHOUT, cluster: { chip: 'h900-sxm', chips: 4096 } }));
  await until(page, 'the refusal over the results', (s) => /h900-sxm/.test(document.querySelector(s)?.textContent ?? ''),
    q('refused'));
  const refused = await text(page, 'refused');
  assert.match(refused, /nearest known: h100-sxm/);
  assert.doesNotMatch(refused, /ascend|mtt-s4000/, 'three near ids, not the catalogue');
  assert.equal(await page.inputValue(q('model-preset')), 'llama3-70b', 'the model is kept');
  assert.equal(await page.getAttribute(q('hidden'), 'placeholder'), '8,192', "70B's width shown");
  assert.ok(num(await text(page, 'train-days')) > 0, 'the plan answers on the chip set aside for it');
  assertClean(log, served());
});

test('a reload after a chip switch shows the same days; Undo and Ctrl+Z restore a typed count', async (t) => {
  const log = { errors: [], requests: [] };
  const context = await newContext(t);
  const page = await newPage(context, log);
  await open(page, `${origin}/`);
  const before = await text(page, 'train-days');
  await select(page, 'chip', 'ascend-910b');
  const days = await waitChange(page, 'train-days', before);
  await page.reload();
  await until(page, 'the answer', (s) => !!document.querySelector(s)?.textContent.trim(), q('train-days'));
  assert.equal(await text(page, 'train-days'), days, 'the reload restores the same days');

  await typeInto(page, 'chips', '10000');
  await until(page, 'the typed count', (s) => document.querySelector(s)?.value === '10000', q('chips'));
  const typed = await waitChange(page, 'train-days', days);
  await page.click(q('undo'));
  await until(page, 'the count before', (s) => document.querySelector(s)?.value === '16384', q('chips'));
  assert.equal(await text(page, 'train-days'), days);
  // Ctrl+Shift+Z outside a text box goes forward again, Ctrl+Z back, as the page's history.
  await page.click('h1');
  await page.keyboard.press('Control+Shift+Z');
  await until(page, 'redone', (s) => document.querySelector(s)?.value === '10000', q('chips'));
  assert.equal(await text(page, 'train-days'), typed);
  await page.keyboard.press('Control+Z');
  await until(page, 'undone by the key', (s) => document.querySelector(s)?.value === '16384', q('chips'));
  assertClean(log, served());
});
