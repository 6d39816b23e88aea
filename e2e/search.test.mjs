// End-to-end tests of the plan search and the sizing: they run in a Web Worker, show progress,
// can be cancelled without freezing the page, and a result applied is in the share link.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import {
  DIST, OUTPUTS, assertClean, harness, newContext, newPage, num, open, origin, q, select, served, text, typeInto,
  until, waitChange, WAIT,
} from './harness.mjs';

harness();

const rows = (page, id) => page.locator(`${q(id)} tbody tr`);
const cells = async (page, id, row) => (await rows(page, id).nth(row).locator('td').allTextContents()).map((s) => s.trim());

test('a search ranks plans in a worker; applying one puts it in the link, which reopens it', async (t) => {
  const log = { errors: [], requests: [] };
  const page = await newPage(await newContext(t), log);
  await open(page, `${origin}/`);
  const before = await text(page, 'train-days');

  await page.click(q('search'));
  await until(page, 'the search to finish', (s) => !!document.querySelector(s), q('search-yours'));
  assert.equal(await page.locator(q('search-progress')).count(), 0, 'no progress bar once done');
  assert.equal(await rows(page, 'search-results').count(), 10, 'ten plans ranked');
  assert.equal(await page.locator(`${q('search-results')} ${q('search-apply')}`).count(), 10, 'each with Apply');
  const counts = await text(page, 'search-counts');
  const [tried, , notFit, timed] = counts.replace(/,/g, '').match(/\d+/g).map(Number);
  assert.ok(tried > 10_000 && timed > 1000 && notFit > 0, counts);
  assert.match(await text(page, 'search-yours'), /Yours is (the best|\d+\w\w of)/);
  // Ranked best first, except that a conventional plan within the model's error of the
  // fastest leads and says so; the best says what its step is made of, the others what they
  // lose on, or that they are ahead of it.
  const days = [];
  for (let i = 0; i < 10; i++) days.push(num((await cells(page, 'search-results', i))[2]));
  const rest = days.slice(1);
  assert.deepEqual(rest, [...rest].sort((a, b) => a - b), `ranked by days: ${days}`);
  const lead = (await cells(page, 'search-results', 0))[6];
  assert.match(lead, /compute/);
  if (days[0] > days[1]) {
    assert.match(lead, /first as the plan a team would run: [\d.]+ ?% behind the fastest plan found/, lead);
    assert.ok(days[0] <= Math.min(...rest) * 1.13, `within the model's error: ${days}`);
  }
  assert.match((await cells(page, 'search-results', 9))[6], /behind|as good|ahead of the first/);
  // The search ran off the page: the worker's files were loaded.
  assert.ok(log.requests.some((u) => u.endsWith('/clusterplan-worker_bg.wasm')), 'the worker loaded its wasm');

  // Applying the best plan: the cards show the search's days, the notice says so, Undo is offered.
  const best = await cells(page, 'search-results', 0);
  const link = page.url();
  await page.locator(q('search-apply')).first().click();
  await until(page, 'the applied notice', (s) => /Applied/.test(document.querySelector(s)?.textContent ?? ''), q('notice'));
  const applied = await text(page, 'train-days');
  assert.equal(num(applied).toFixed(1), num(best[2]).toFixed(1), `the applied plan's days ${applied} match the row ${best[2]}`);
  assert.notEqual(applied, before);
  const tp = num(best[1].match(/TP (\d+)/)[0]);
  assert.equal(num(await page.inputValue(q('tp'))), tp, 'the form shows the plan');

  // The share link carries the plan: opened elsewhere it gives the same numbers.
  await until(page, 'the link to hold the plan', (old) => location.hash.startsWith('#s=1.') && location.href !== old, link);
  const other = await newPage(await newContext(t), log);
  await open(other, page.url());
  for (const id of OUTPUTS) assert.equal(await text(other, id), await text(page, id), `${id} from the link`);

  // Undo brings the typed plan back.
  await page.click(q('notice-undo'));
  await waitChange(page, 'train-days', applied);
  assert.equal(await text(page, 'train-days'), before);
  // The toolbar's Undo undoes an applied row just as the notice's does.
  await page.locator(q('search-apply')).first().click();
  await waitChange(page, 'train-days', before);
  assert.equal(await text(page, 'train-days'), applied);
  await page.click(q('undo'));
  await waitChange(page, 'train-days', applied);
  assert.equal(await text(page, 'train-days'), before);
  assertClean(log, served());
});

test('the plan search is a named landmark two Tab stops from the top of the page', async (t) => {
  const log = { errors: [], requests: [] };
  const page = await newPage(await newContext(t), log);
  await open(page, `${origin}/`);
  const focused = () => page.evaluate(() => [document.activeElement?.dataset.testid, document.activeElement?.id]);
  await page.keyboard.press('Tab');
  assert.equal((await focused())[0], 'skip-to-results');
  await page.keyboard.press('Tab');
  assert.equal((await focused())[0], 'skip-to-search');
  await page.keyboard.press('Enter');
  assert.deepEqual(await focused(), ['search-panel', 'search'], 'the search panel has the focus');
  const named = await page.evaluate(() => {
    const panel = document.getElementById('search');
    return document.getElementById(panel.getAttribute('aria-labelledby'))?.textContent;
  });
  assert.ok(named && named.length > 3, `the search landmark is named by its heading: ${named}`);
  // The first Tab from the search reaches its own controls, not the top of the page, and
  // "Search every plan" is the second: four Tab stops and Enter from the top in all.
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => !!document.activeElement?.closest('#search')), true);
  await page.keyboard.press('Tab');
  assert.equal((await focused())[0], 'search', 'the button that searches every plan');
  assertClean(log, served());
});

test('sizing finds the smallest cluster of each chip for a deadline, plots them and applies one', async (t) => {
  const log = { errors: [], requests: [] };
  const page = await newPage(await newContext(t), log);
  await open(page, `${origin}/`);
  await typeInto(page, 'size-deadline', 'x');
  assert.ok(await page.locator(q('size-deadline-error')).isVisible(), 'a deadline that is not a number is refused');
  assert.ok(await page.locator(q('size')).isDisabled());
  await typeInto(page, 'size-deadline', '120');
  await page.locator('.size-chips summary').click();
  await page.check(q('size-chip-b200'));
  await page.click(q('size'));
  // Two chips of some ten plan searches each: several seconds in a worker on two cores.
  await until(page, 'the sizing plot', (s) => !!document.querySelector(s), q('plot-sizing'), 3 * WAIT);
  assert.equal(await rows(page, 'size-results').count(), 2, 'one row per chip');
  const [h100, b200] = [await cells(page, 'size-results', 0), await cells(page, 'size-results', 1)];
  assert.equal(b200[0], 'NVIDIA B200 (HGX, 1,000 W)', 'rows name chips as people read them');
  const [n100, n200] = [num(h100[1]), num(b200[1])];
  assert.ok(n200 > 0 && n100 > 0 && n200 < n100, `fewer B200 than H100 meet the deadline: ${n200} < ${n100}`);
  for (const row of [h100, b200]) assert.ok(num(row[5]) <= 120, `${row[0]} meets the deadline: ${row[5]} days`);
  // The plot comes from the worker as an SVG image: it loads and has the chips in its legend.
  await until(page, 'the sizing plot to load', (s) => document.querySelector(s)?.naturalWidth > 0, q('plot-sizing'));
  const svg = decodeURIComponent((await page.getAttribute(q('plot-sizing'), 'src')).replace(/^data:image\/svg\+xml,/, ''));
  const drawn = svg.includes('<svg') && svg.includes('NVIDIA B200') && svg.includes('deadline: 120 days');
  assert.ok(drawn, 'plot-sizing is drawn');

  // Applying the B200 row sets the chip and the count, and the days with failures meet it.
  await page.locator(q('size-apply')).nth(1).click();
  await until(page, 'the B200 count in the form', (want) => document.querySelector('[data-testid="chips"]')?.value.replace(/,/g, '') === String(want), n200);
  assert.ok(num(await text(page, 'effective-days')) <= 120);
  assertClean(log, served());
});

test('a sizing of three chips runs on the pool of workers and answers as one sizing', async (t) => {
  const log = { errors: [], requests: [] };
  const page = await newPage(await newContext(t), log);
  await open(page, `${origin}/`);
  await typeInto(page, 'size-deadline', '90');
  await page.locator('.size-chips summary').click();
  for (const chip of ['ascend-910b', 'mtt-s4000']) await page.check(q(`size-chip-${chip}`));
  const start = Date.now();
  await page.click(q('size'));
  await until(page, 'the sizing plot', (s) => !!document.querySelector(s), q('plot-sizing'), 6 * WAIT);
  const ms = Date.now() - start;
  const all = await rows(page, 'size-results').allTextContents();
  assert.equal(all.length, 3, 'one row per chip, in the order chosen');
  assert.match(all[0], /^NVIDIA H100/);
  assert.match(all[1], /^Huawei Ascend 910B/);
  assert.match(all[2], /^Moore Threads MTT S4000/);
  console.log(`BENCH size_page_three_chips_405b_90_days_ms=${ms}`);
  assertClean(log, served());
});

test('a long sizing shows progress, runs its chips on the pool of workers, leaves the page responsive, and cancels', async (t) => {
  const log = { errors: [], requests: [] };
  const page = await newPage(await newContext(t), log);
  await page.addInitScript(() => localStorage.setItem('clusterplan.workers', '3'));
  await open(page, `${origin}/`);
  await select(page, 'model-preset', 'deepseek-v3');
  // Seven chips against a deadline several cannot meet: seconds of work for the worker.
  await typeInto(page, 'size-deadline', '10');
  await page.locator('.size-chips summary').click();
  for (const chip of ['b200', 'mi300x', 'ascend-910b', 'a100-80gb', 'h200', 'gaudi3', 'mi250x']) {
    await page.check(q(`size-chip-${chip}`));
  }
  await page.click(q('size'));
  await until(page, 'progress under way', (s) => {
    const p = document.querySelector(s);
    return p && Number(p.value) > 0;
  }, q('size-progress'));
  // Seven chips on the three workers asked for, each taking the next chip when done, beside
  // the plots' worker and the sizing's own.
  const running = () => page.workers().length;
  for (let i = 0; running() < 5 && i < 100; i++) await page.waitForEvent('worker', { timeout: WAIT });
  assert.equal(running(), 5, 'the plots\' worker, the sizing\'s and three beside it');

  // The page answers while the worker works: an edit redraws the cards at once.
  const days = await text(page, 'train-days');
  await typeInto(page, 'tokens', '1T');
  await waitChange(page, 'train-days', days);
  assert.equal(await page.locator(q('size-progress')).count(), 1, 'the sizing is still running');
  assert.equal(running(), 5, 'no worker started for a chip beyond the three asked for');

  await page.click(q('size-cancel'));
  await until(page, 'the progress bar to go', (s) => !document.querySelector(s), q('size-progress'));
  assert.ok(await page.locator(q('size')).isEnabled(), 'a new sizing can start');
  assertClean(log, served());
});

test('standalone.html searches offline on a pool of the workers it carries inline, ranking what one worker ranks', async (t) => {
  const log = { errors: [], requests: [] };
  const context = await newContext(t);
  const ranked = {};
  for (const workers of ['2', '1']) {
    const page = await newPage(context, log);
    await page.addInitScript((n) => localStorage.setItem('clusterplan.workers', n), workers);
    await open(page, new URL('standalone.html', DIST).href);
    // The plots' worker, the next job's, and as many beside it as asked, all from blob: URLs.
    await until(page, 'the workers for a search', () => document.documentElement.hasAttribute('data-workers-ready'));
    const started = page.workers();
    assert.ok(started.every((w) => w.url().startsWith('blob:')), 'every worker from the file itself');
    assert.equal(started.length, workers === '1' ? 2 : 4, `${workers} workers asked: ${started.length} started`);
    await page.click(q('search'));
    await until(page, `the offline search on ${workers} workers`, (s) => !!document.querySelector(s), q('search-yours'));
    ranked[workers] = await rows(page, 'search-results').allTextContents();
    assert.equal(ranked[workers].length, 10);
    await page.close();
  }
  assert.deepEqual(ranked['2'], ranked['1'], 'two workers rank what one does');
  const file = `file://${fileURLToPath(DIST)}`;
  assertClean(log, [file, 'data:', 'blob:']);
});
