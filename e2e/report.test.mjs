// End-to-end tests of the report: one click unfolds every section and prints, the printed page
// drops the form and keeps every result with the share link, a PDF comes out of headless
// Chromium, and the breakdowns, bill of materials and plots save as CSV, PNG and SVG.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { assertClean, harness, newContext, newPage, open, origin, q, served, text, until } from './harness.mjs';

harness();

const visible = (page, selector) => page.evaluate((s) => {
  const e = document.querySelector(s);
  return !!e && getComputedStyle(e).display !== 'none' && e.getBoundingClientRect().height > 0;
}, selector);

test('a report prints every section with the share link, and saves as PDF', async (t) => {
  const log = { errors: [], requests: [] };
  const page = await newPage(await newContext(t), log);
  await open(page, `${origin}/`);
  await page.evaluate(() => { window.print = () => { window.printed = (window.printed ?? 0) + 1; }; });
  await page.click(q('report'));
  assert.equal(await page.evaluate(() => window.printed), 1, 'the print dialog was asked for');
  assert.equal(await page.evaluate(() => document.querySelectorAll('details:not([open])').length), 0, 'every section unfolded');

  await page.emulateMedia({ media: 'print' });
  for (const id of ['report-head', 'results', 'train-days', 'plant-cards', 'delivered-cards', 'bom', 'sketch', 'plot-step', 'plot-scaling', 'accuracy']) {
    assert.ok(await visible(page, q(id)), `${id} is on the printed page`);
  }
  assert.ok(!(await visible(page, '.inputs')), 'the form is not printed');
  assert.ok(!(await visible(page, q('search-panel'))), 'the search controls are not printed');
  assert.match(await text(page, 'report-link'), /^http:\/\/127\.0\.0\.1:\d+\/#s=1\./, 'the share link is printed');

  const pdf = await page.pdf({ format: 'A4', printBackground: true });
  assert.equal(pdf.subarray(0, 5).toString(), '%PDF-');
  const pages = (pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g) ?? []).length;
  assert.ok(pages >= 3, `a report of several pages: ${pages}`);
  assertClean(log, served());
});

test('breakdowns and the bill of materials save as CSV, plots as PNG and SVG', async (t) => {
  const log = { errors: [], requests: [] };
  const page = await newPage(await newContext(t, { acceptDownloads: true }), log);
  await open(page, `${origin}/`);
  await page.locator(`${q('breakdown-tables')} > summary`).click();
  const saved = async (id) => {
    const [download] = await Promise.all([page.waitForEvent('download'), page.click(q(id))]);
    return { name: download.suggestedFilename(), body: await readFile(await download.path()) };
  };
  const breakdown = await saved('breakdown-csv');
  assert.equal(breakdown.name, 'clusterplan-breakdown.csv');
  assert.match(breakdown.body.toString(), /^breakdown,part,value,unit\n/);
  assert.match(breakdown.body.toString(), /\nstep,total,[\d.e-]+,s\n/);
  await page.locator('.bom > summary').click();
  const bom = await saved('bom-csv');
  assert.match(bom.body.toString(), /^item,tier,count,unit_price_usd,price_usd,model,unit_power_w,power_w\nnodes,,\d+,[\d.]+,[\d.]+,/);
  const png = await saved('plot-step-png');
  assert.equal(png.name, 'clusterplan-plot-step.png');
  assert.deepEqual([...png.body.subarray(1, 4)], [0x50, 0x4e, 0x47], 'a PNG image');
  // SVG is drawn by the worker from the same drawing code.
  const svg = await saved('plot-scaling-svg');
  assert.equal(svg.name, 'clusterplan-plot-scaling.svg');
  assert.match(svg.body.toString(), /^<svg[\s\S]*Scaling: days to train and MFU[\s\S]*<\/svg>\s*$/);
  await until(page, 'the page to stay', () => true);
  assertClean(log, served());
});
