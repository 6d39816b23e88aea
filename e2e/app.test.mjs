// End-to-end tests of the browser app in dist/ (build it first: `trunk build --release`).
// A static server started here serves dist/ on 127.0.0.1; Debian's Chromium runs the app headless.
// Run: `npm run e2e` (node --test e2e/). No fixed sleeps: every wait is on a DOM condition.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import {
  DIST, OUTPUTS, SHOT, assertClean, harness, hasText, newContext, newPage, num, open, origin, q, served, text,
  typeInto, until, waitChange, waitScenario, plotOf } from './harness.mjs';

harness();

test('typing a chip count changes days to train', async (t) => {
  const log = { errors: [], requests: [] };
  const page = await newPage(await newContext(t), log);
  await open(page, `${origin}/`);
  const days = await text(page, 'train-days');
  const hash = await page.evaluate(() => location.hash);

  await typeInto(page, 'chips', '8192');
  const later = await waitScenario(page, ['chips', 8192], 'train-days', days);
  assert.ok(num(later) > num(days), `half the chips should take longer: ${days} -> ${later}`);
  const hashNow = await page.evaluate(() => location.hash);
  assert.ok(hashNow.startsWith('#s=1.'), `fragment ${hashNow}`);
  assert.notEqual(hashNow, hash);

  for (const id of ['plot-step', 'plot-memory', 'plot-scaling']) {
    const p = await plotOf(page, id);
    assert.ok(!p.missing && p.width > 0 && p.shown > 0 && p.drawn, `${id}: ${JSON.stringify(p)}`);
  }

  await mkdir(new URL('.', SHOT), { recursive: true });
  await page.screenshot({ path: fileURLToPath(SHOT), fullPage: true });
  assertClean(log, served());
});

test('a copied link reproduces the same numbers', async (t) => {
  const log = { errors: [], requests: [] };
  const context = await newContext(t);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
  const page = await newPage(context, log);
  await open(page, `${origin}/`);
  const step = await text(page, 'step-time');
  const hash = await page.evaluate(() => location.hash);
  await typeInto(page, 'tp', '4');
  await waitChange(page, 'step-time', step);
  await until(page, 'the fragment to change', (old) => location.hash.startsWith('#s=1.') && location.hash !== old, hash);
  const link = page.url();

  const other = await newPage(await newContext(t), log);
  await open(other, link);
  for (const id of OUTPUTS) {
    assert.equal(await text(other, id), await text(page, id), `${id} differs when the link is opened`);
  }

  await page.click(q('copy-link'));
  await until(page, 'the link on the clipboard',
    () => navigator.clipboard.readText().then((s) => s.includes('#s=1.'), () => false));
  assertClean(log, served());
});

test('a tampered link shows a notice and the default plan', async (t) => {
  const log = { errors: [], requests: [] };
  const context = await newContext(t);
  for (const fragment of ['#s=1.eyJtb2RlbCI6', '#s=9.abc', '#s=1.%%%']) {
    const page = await newPage(context, log);
    await open(page, `${origin}/${fragment}`);
    await until(page, `a notice for ${fragment}`, hasText, q('notice'));
    const notice = await text(page, 'notice');
    assert.match(notice, /link/i, `notice for ${fragment}`);
    assert.ok(Number.isFinite(num(await text(page, 'train-days'))), `default plan for ${fragment}`);
    await page.close();
  }
  assertClean(log, served());
});

test('standalone.html works from file://', async (t) => {
  const standalone = new URL('standalone.html', DIST);
  assert.ok(existsSync(standalone), `${fileURLToPath(standalone)} is missing (trunk's post_build hook writes it)`);
  const log = { errors: [], requests: [] };
  const page = await newPage(await newContext(t), log);
  await open(page, standalone.href, 20_000);
  const days = await text(page, 'train-days');
  assert.ok(Number.isFinite(num(days)), days);
  // The catalog's sources, which the page's own build loads once it is drawn, come from the
  // file itself: the chip's, and the model's with its paper as a link.
  await until(page, 'the chip\'s source', (s) => (document.querySelector(s)?.textContent.length ?? 0) > 20, '.source');
  assert.ok(await page.locator('a[href^="https://arxiv.org/abs/"]').count() > 0);

  const chips = Number(await page.inputValue(q('chips')));
  await typeInto(page, 'chips', String(Math.max(1, Math.floor(chips / 2))));
  await waitChange(page, 'train-days', days);
  assertClean(log, ['file:', 'data:', 'blob:']);
});

test('bad input marks the field, is named at the top and is set aside', async (t) => {
  const log = { errors: [], requests: [] };
  const context = await newContext(t);
  const page = await newPage(context, log);
  await open(page, `${origin}/`);
  const days = await text(page, 'train-days');

  await typeInto(page, 'pp', '-3');
  await until(page, 'error-pp and the refusal named over the results', ([error, refused]) =>
    document.querySelector(error)?.textContent.trim() && /Pipeline/.test(document.querySelector(refused)?.textContent ?? ''),
  [q('error-pp'), q('refused')]);
  assert.equal(await page.inputValue(q('pp')), '-3', 'what was typed stays in the box');
  // The estimate is the plan without the refused degree (its default, 1), as a fresh open
  // of the same link shows it.
  const shown = await waitChange(page, 'train-days', days);
  const again = await newPage(context, log);
  await open(again, page.url());
  assert.equal(await text(again, 'train-days'), shown);
  assert.match(await text(again, 'refused'), /Pipeline/);
  // The refusal's button takes the user to the field.
  await again.click(q('refused-jump'));
  assert.equal(await again.evaluate(() => document.activeElement?.dataset.testid), 'pp');
  assertClean(log, served());
});

test('a reload without a link restores the last scenario', async (t) => {
  const log = { errors: [], requests: [] };
  const context = await newContext(t);
  const page = await newPage(context, log);
  await open(page, `${origin}/`);
  const days = await text(page, 'train-days');
  await typeInto(page, 'chips', '4096');
  await waitScenario(page, ['chips', 4096], 'train-days', days);
  const expected = await text(page, 'train-days');

  const again = await newPage(context, log);
  await open(again, `${origin}/`);
  assert.equal(await again.inputValue(q('chips')), '4096', 'local storage kept the scenario');
  assert.equal(await text(again, 'train-days'), expected);
  assert.ok((await again.evaluate(() => location.hash)).startsWith('#s=1.'), 'the restored scenario is in the link');
  assertClean(log, served());
});

test('export and import a scenario file', async (t) => {
  const log = { errors: [], requests: [] };
  const page = await newPage(await newContext(t, { acceptDownloads: true }), log);
  await open(page, `${origin}/`);
  const [download] = await Promise.all([page.waitForEvent('download'), page.click(q('export'))]);
  const exported = JSON.parse(await readFile(await download.path(), 'utf8'));
  assert.equal(exported.model.preset, 'llama3-405b');
  assert.equal(exported.cluster.chips, 16384);

  const days = await text(page, 'train-days');
  exported.cluster.chips = 2048;
  await page.setInputFiles(q('import'), { name: 'plan.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(exported)) });
  await waitScenario(page, ['chips', 2048], 'train-days', days);
  assert.equal(await page.inputValue(q('chips')), '2048');
  assert.match(await text(page, 'notice'), /Imported plan\.json/);

  await page.setInputFiles(q('import'), { name: 'broken.json', mimeType: 'application/json', buffer: Buffer.from('{ "model": ') });
  await until(page, 'an import error', () => /Did not import broken\.json/.test(document.querySelector('[data-testid="notice"]')?.textContent ?? ''));
  assert.equal(await page.inputValue(q('chips')), '2048', 'a bad file changes nothing');
  assertClean(log, served());
});

test('the dark colour scheme is readable', async (t) => {
  const log = { errors: [], requests: [] };
  const page = await newPage(await newContext(t, { colorScheme: 'dark' }), log);
  await open(page, `${origin}/`);
  const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const [r, g, b] = background.match(/\d+/g).map(Number);
  assert.ok(r + g + b < 150, `dark background, got ${background}`);
  await page.screenshot({ path: fileURLToPath(new URL('planner-dark.png', SHOT)), fullPage: true });
  assertClean(log, served());
});

// Not a test of speed: prints how long the plots take to follow an edit, drawn by the worker
// kept for them (a message each way), as `BENCH plots_after_edit_ms`.
test('the plots are drawn by their worker and follow every edit', async (t) => {
  const log = { errors: [], requests: [] };
  const page = await newPage(await newContext(t), log);
  await open(page, `${origin}/`);
  const scaling = () => page.evaluate((s) => document.querySelector(s)?.innerHTML ?? '', q('plot-scaling'));
  await until(page, 'the first plots', (s) => document.querySelector(s)?.innerHTML.includes('<polyline'), q('plot-scaling'));
  assert.ok(log.requests.some((u) => u.endsWith('/clusterplan-worker_bg.wasm')), 'the plots come from the worker');
  // One input event each (a paste), timed inside the page from the event to the redrawn plot.
  const times = [];
  for (const chips of ['8192', '16384', '4096', '16384', '8192', '2048', '16384']) {
    times.push(await page.evaluate(([input, plot, value]) => new Promise((done) => {
      const field = document.querySelector(input);
      const target = document.querySelector(plot);
      const before = target.innerHTML;
      const start = performance.now();
      const watch = new MutationObserver(() => {
        if (target.innerHTML !== before && target.innerHTML.includes('<polyline')) {
          watch.disconnect();
          done(Math.round(performance.now() - start));
        }
      });
      watch.observe(target, { childList: true, subtree: true, characterData: true });
      field.value = value;
      field.dispatchEvent(new InputEvent('input', { bubbles: true }));
    }), [q('chips'), q('plot-scaling'), chips]));
  }
  times.sort((a, b) => a - b);
  console.log(`BENCH plots_after_edit_ms=${times[3]} (median of ${times.length}; ${times.join(', ')})`);
  assertClean(log, served());
});
