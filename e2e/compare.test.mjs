// End-to-end tests of comparing two plans: pin A, edit B, see both side by side, share the
// comparison as one link that reopens it, and end it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  assertClean, harness, newContext, newPage, num, open, origin, q, served, text, typeInto, until, waitChange,
} from './harness.mjs';

harness();

test('pin a plan as A, edit B, compare them, and share both in one link', async (t) => {
  const log = { errors: [], requests: [] };
  const page = await newPage(await newContext(t), log);
  await open(page, `${origin}/`);
  const days = await text(page, 'train-days');

  await page.click(q('compare'));
  await until(page, 'the comparison', (s) => !!document.querySelector(s), q('train-days-b'));
  assert.equal(num(await text(page, 'train-days-a')), num(days));
  assert.equal(num(await text(page, 'train-days-b')), num(days), 'B starts as a copy of A');

  // Editing the form edits B; A stays as pinned.
  await typeInto(page, 'chips', '8192');
  await waitChange(page, 'train-days', days);
  await until(page, 'B to follow the form', ([s, d]) => Number(document.querySelector(s)?.textContent.replace(/,/g, '')) > d,
    [q('train-days-b'), num(days)]);
  assert.equal(num(await text(page, 'train-days-a')), num(days), 'A is unchanged');
  assert.equal(num(await text(page, 'train-days-b')), num(await text(page, 'train-days')), 'B is the form');
  // Half the chips: B is slower (worse) and its MFU moves in points, not in percent of itself.
  assert.match(await text(page, 'train-days-change'), /^\+\d+(\.\d)? % worse$/);
  const [mfuA, mfuB] = [num(await text(page, 'mfu-a')), num(await text(page, 'mfu-b'))];
  const mfuChange = await text(page, 'mfu-change');
  assert.match(mfuChange, /^[+-]\d+\.\d pts/);
  assert.ok(Math.abs(num(mfuChange) - (mfuB - mfuA)) <= 0.11, `${mfuA} to ${mfuB}: ${mfuChange}`);
  const rows = await page.locator(`${q('compare-panel')} tbody tr`).count();
  assert.ok(rows >= 15, `headline figures, step parts and bill of materials: ${rows} rows`);
  // Overlaid plots of both plans arrive from the worker once the edits pause.
  for (const id of ['compare-step', 'compare-scaling']) {
    await until(page, `${id} to load`, (s) => document.querySelector(s)?.naturalWidth > 0, q(id));
  }
  const svg = decodeURIComponent((await page.getAttribute(q('compare-step'), 'src')).replace(/^data:image\/svg\+xml,/, ''));
  assert.match(svg, /plan A against plan B/);

  // The link carries both plans and reopens the comparison.
  await until(page, 'a link with both plans', () => /^#s=1\.[^&]+&b=1\./.test(location.hash));
  const other = await newPage(await newContext(t), log);
  await open(other, page.url());
  await until(other, 'the comparison from the link', (s) => !!document.querySelector(s), q('train-days-b'));
  for (const id of ['train-days-a', 'train-days-b', 'train-days']) {
    assert.equal(await text(other, id), await text(page, id), `${id} from the link`);
  }

  // A side that cannot run says so where its numbers are, and they are dimmed.
  assert.equal(await page.locator(q('compare-name-b-cannot-run')).count(), 0, 'both sides run');
  // 405B split neither by tensor nor by pipeline does not fit an 80 GB chip.
  const [tp, pp] = [await page.inputValue(q('tp')), await page.inputValue(q('pp'))];
  await typeInto(page, 'tp', '1');
  await typeInto(page, 'pp', '1');
  await until(page, 'B to say it cannot run', (s) => !!document.querySelector(s), q('compare-name-b-cannot-run'));
  assert.match(await text(page, 'compare-name-b-cannot-run'), /Cannot run as written: \S/);
  assert.equal(await page.locator(q('compare-name-a-cannot-run')).count(), 0, 'A still runs');
  assert.match(await page.getAttribute(q('train-days-b'), 'class'), /what-if/);
  assert.doesNotMatch((await page.getAttribute(q('train-days-a'), 'class')) ?? '', /what-if/);
  await typeInto(page, 'tp', tp);
  await typeInto(page, 'pp', pp);
  await until(page, 'B to run again', (s) => !document.querySelector(s), q('compare-name-b-cannot-run'));

  // Ending the comparison keeps B and drops A from the link.
  await page.click(q('compare-end'));
  await until(page, 'the comparison to end', (s) => !document.querySelector(s), q('compare-panel'));
  await until(page, 'a link with one plan', () => location.hash.startsWith('#s=1.') && !location.hash.includes('&b='));
  assertClean(log, served());
});
