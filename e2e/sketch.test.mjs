// End-to-end tests of the cluster drawing: it draws the cluster at any size as a few boxes with
// counts, edits the plan from its own − and + buttons (by mouse and keyboard), tells a part's
// counts, power and price on hover and focus, and saves as SVG and PNG.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import {
  SHOT, assertClean, harness, newContext, newPage, num, open, origin, q, served, text, typeInto, until, waitChange,
} from './harness.mjs';

harness();

const knob = (path, sign) => `${q('sketch')} [data-edit="${path}"][aria-label$="${sign}"]`;
// "$1.02 B" as a number.
const money = (s) => {
  const m = s.replace(/[$,]/g, '').match(/([\d.]+)\s*([kMBT]?)/);
  return Number(m[1]) * { '': 1, k: 1e3, M: 1e6, B: 1e9, T: 1e12 }[m[2]];
};
const sketchText = (page) => page.locator(q('sketch')).textContent();

test('the drawing edits the plan from its own buttons, by mouse and keyboard', async (t) => {
  const log = { errors: [], requests: [] };
  const page = await newPage(await newContext(t), log);
  await open(page, `${origin}/`);
  await page.locator(q('sketch')).scrollIntoViewIfNeeded();
  await page.locator(q('sketch')).screenshot({ path: fileURLToPath(new URL('sketch-en.png', SHOT)) });
  assert.match(await sketchText(page), /16,384/, 'the chip count is drawn');

  // One more plane: the form, the link and the capex follow.
  const capex = await text(page, 'capex');
  await page.click(knob('cluster.fabric.planes', '+'));
  await waitChange(page, 'capex', capex);
  assert.ok(money(await text(page, 'capex')) > money(capex), `a second plane costs more: ${capex} to ${await text(page, 'capex')}`);
  assert.equal(await page.inputValue(q('planes')), '2', 'the form follows the drawing');
  assert.match(decodeURIComponent(await page.evaluate(() => location.hash)), /^#s=1\./);

  // Keyboard: Enter on a focused button halves the chips per node and keeps the focus there.
  await page.focus(knob('cluster.chips_per_node', '−'));
  await page.keyboard.press('Enter');
  await until(page, 'chips per node to halve', (s) => /(^|\D)4$/.test(document.querySelector(s)?.value ?? ''), q('chips-per-node'));
  await until(page, 'the focus to stay on the button', () => document.activeElement?.getAttribute('data-edit') === 'cluster.chips_per_node');
  await page.keyboard.press('Enter');
  await until(page, 'chips per node to halve again', (s) => document.querySelector(s)?.value === '2', q('chips-per-node'));
  await until(page, 'twice as many nodes of half the size', (s) => /8,192 nodes/.test(document.querySelector(s)?.textContent ?? ''), q('sketch'));

  // Hover and focus tell a part's counts, power and price.
  await page.hover(`${q('sketch')} .sk-part >> nth=0`);
  await until(page, 'the part under the pointer to be told', (s) => /kW/.test(document.querySelector(s)?.textContent ?? ''), q('sketch-info'));
  await page.focus(`${q('sketch')} .sk-part >> nth=-1`);
  await until(page, 'the focused part to be told', (s) => /switches/.test(document.querySelector(s)?.textContent ?? ''), q('sketch-info'));
  assertClean(log, served());
});

test('100,000 chips are a few boxes with counts, and the drawing saves as SVG and PNG', async (t) => {
  const log = { errors: [], requests: [] };
  const page = await newPage(await newContext(t, { acceptDownloads: true }), log);
  await open(page, `${origin}/`);
  const days = await text(page, 'train-days');
  await typeInto(page, 'pp', '1');
  await typeInto(page, 'cp', '1');
  await typeInto(page, 'chips', '100000');
  await waitChange(page, 'train-days', days);
  // The drawing comes from the plots' worker, which answers each keystroke's count in turn.
  await until(page, 'the drawing of 100,000 chips', (s) => /100,000/.test(document.querySelector(`${s} svg`)?.textContent ?? ''), q('sketch'));
  const boxes = await page.locator(`${q('sketch')} .sk-box`).count();
  assert.ok(boxes <= 6, `${boxes} boxes`);
  assert.match(await sketchText(page), /…/, 'the pods not drawn are counted');

  const saved = async (id) => {
    const [download] = await Promise.all([page.waitForEvent('download'), page.click(q(id))]);
    return { name: download.suggestedFilename(), body: await readFile(await download.path()) };
  };
  const svg = await saved('sketch-svg');
  assert.equal(svg.name, 'clusterplan-sketch.svg');
  assert.match(svg.body.toString(), /^<svg [^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  assert.match(svg.body.toString(), /100,000/);
  const png = await saved('sketch-png');
  assert.equal(png.name, 'clusterplan-sketch.png');
  assert.deepEqual([...png.body.subarray(1, 4)], [0x50, 0x4e, 0x47], 'a PNG image');
  assertClean(log, served());
});
