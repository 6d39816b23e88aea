// End-to-end tests of the user's own catalog: a custom chip saved by name is kept in the
// browser, used again in one click (the link then carries it whole), exported and imported as
// JSON, and a broken catalog file is refused without touching the one kept.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import {
  assertClean, harness, newContext, newPage, open, origin, q, select, served, text, until, waitChange, waitScenario,
} from './harness.mjs';

harness();

const entries = (page) => page.locator(q('catalog-entry')).count();

test('a chip of your own is saved, kept, used again, exported and imported', async (t) => {
  const log = { errors: [], requests: [] };
  const page = await newPage(await newContext(t, { acceptDownloads: true }), log);
  await open(page, `${origin}/`);
  await select(page, 'chip', 'custom');
  await until(page, 'custom chip fields', (s) => document.querySelector(s), q('chip-bf16'));
  const days = await text(page, 'train-days');
  await page.fill(q('chip-bf16'), '1800');
  await waitChange(page, 'train-days', days);

  await page.locator(`${q('my-catalog')} > summary`).click();
  await page.click(q('catalog-save-chip'));
  assert.match(await text(page, 'notice'), /name/i, 'a name is asked for first');
  await page.fill(q('catalog-name'), 'X1 (2027)');
  await page.click(q('catalog-save-chip'));
  await until(page, 'the entry listed', (s) => document.querySelectorAll(s).length === 1, q('catalog-entry'));
  assert.match(await text(page, 'notice'), /X1 \(2027\)/);

  // Back to the default plan, then the entry in one click; the link carries the chip whole.
  const custom = await text(page, 'train-days');
  await page.click(q('reset'));
  await waitChange(page, 'train-days', custom);
  await page.click(q('catalog-use'));
  await waitScenario(page, ['bf16_tflops', 1800], 'notice', '');
  assert.equal(await text(page, 'train-days'), custom, 'the same chip, the same days');
  assert.equal(await page.isDisabled(q('catalog-use')), true, 'marked in use');

  // Kept across visits.
  await page.reload();
  await open(page, page.url());
  await page.locator(`${q('my-catalog')} > summary`).click();
  assert.equal(await entries(page), 1);

  // Exported as JSON, deleted, and read back.
  const [download] = await Promise.all([page.waitForEvent('download'), page.click(q('catalog-export'))]);
  assert.equal(download.suggestedFilename(), 'clusterplan-catalog.json');
  const exported = JSON.parse(await readFile(await download.path(), 'utf8'));
  assert.equal(exported.clusterplan_catalog, 1);
  assert.equal(exported.entries[0].name, 'X1 (2027)');
  assert.equal(exported.entries[0].fields['cluster.chip'].bf16_tflops, 1800);
  await page.click(q('catalog-delete'));
  await until(page, 'the entry gone', (s) => document.querySelectorAll(s).length === 0, q('catalog-entry'));
  await page.setInputFiles(q('catalog-import'), { name: 'mine.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(exported)) });
  await until(page, 'the entry back', (s) => document.querySelectorAll(s).length === 1, q('catalog-entry'));

  // A broken file is refused whole; the catalog kept is unchanged.
  const broken = { ...exported, entries: [{ kind: 'chip', name: 'bad', fields: { 'cluster.chip': { name: 'bad', bf16_tflops: -1 } } }] };
  await page.setInputFiles(q('catalog-import'), { name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(broken)) });
  await until(page, 'the refusal', (s) => /bad/.test(document.querySelector(s)?.textContent ?? ''), q('notice'));
  assert.equal(await entries(page), 1);
  assertClean(log, served());
});
