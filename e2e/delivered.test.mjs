// End-to-end tests of what the cluster really delivers: goodput, days with failures, mean time
// between interruptions and the effective-compute plot, and how checkpoints and storage move
// them. No console error, no stray request.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  assertClean, harness, newContext, newPage, num, open, origin, q, served, text, typeInto, until, waitChange, plotOf } from './harness.mjs';

harness();

test('goodput, days with failures and MTBF are shown and respond to checkpoints and size', async (t) => {
  const log = { errors: [], requests: [] };
  const page = await newPage(await newContext(t, { viewport: { width: 1440, height: 1000 } }), log);
  await open(page, `${origin}/`);
  const goodput = num(await text(page, 'goodput'));
  assert.ok(goodput > 90 && goodput < 100, `goodput ${goodput} %`);
  const days = num(await text(page, 'train-days'));
  const effective = num(await text(page, 'effective-days'));
  assert.ok(effective > days, `${effective} days with failures, ${days} without`);
  assert.ok(num(await text(page, 'mtbf')) > 1, await text(page, 'mtbf'));
  assert.match(await text(page, 'time-lost'), /restarts .* h/);
  assert.ok((await plotOf(page, 'plot-effective')).drawn, 'plot-effective is drawn');

  // Synchronous checkpoints to slow storage stall training.
  await page.selectOption(q('checkpoint'), 'sync');
  await page.fill(q('storage'), '50');
  await until(page, 'a lower goodput', ([s, before]) => {
    const now = parseFloat(document.querySelector(s)?.textContent ?? '');
    return now > 0 && now < before - 5;
  }, [q('goodput'), goodput]);

  // Twice the chips fail twice as often.
  const mtbf = await text(page, 'mtbf');
  await typeInto(page, 'chips', '32768');
  const later = await waitChange(page, 'mtbf', mtbf);
  assert.ok(num(later) < num(mtbf), `${mtbf} -> ${later}`);
  assertClean(log, served());
});
