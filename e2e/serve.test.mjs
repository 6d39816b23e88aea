// End-to-end tests of serving and RL post-training, in English and in Chinese: neither shows on
// the first load; turning them on shows their cards and the serving frontier drawn by the plots'
// worker with the decode step's parts; a looser time per token gives more tokens a chip; a benchmark's concurrency and the
// engine's tokens a step move the first token; attention kept in BF16 lowers the tokens a chip,
// and so do weights kept in the host's memory, whose copy the step's table shows, and portable
// kernels; the link reopens both.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  assertClean, harness, newContext, newPage, num, open, origin, plotOf, q, served, text, typeInto, until,
} from './harness.mjs';

harness();

const SERVE = ['serving-throughput', 'serving-ttft', 'serving-tpot', 'serving-cost-per-mtok', 'serving-energy', 'serving-chips-needed'];
const RL = ['rl-step-time', 'rl-generation-share'];

for (const lang of ['en', 'zh-CN']) {
  test(`${lang}: the Serve and RL cards show once turned on, the frontier draws, and a link reopens them`, async (t) => {
    const log = { errors: [], requests: [] };
    const page = await newPage(await newContext(t, { locale: lang, viewport: { width: 1440, height: 1000 } }), log);
    await open(page, `${origin}/`);
    for (const id of [...SERVE, ...RL]) {
      assert.equal(await page.locator(q(id)).count(), 0, `${id} on the first load`);
    }

    await page.locator(`${q('serving-on')} input, input${q('serving-on')}`).first().check();
    await until(page, 'the Serve cards', (s) => !!document.querySelector(s)?.textContent.trim(), q('serving-throughput'));
    for (const id of SERVE) {
      assert.ok(num(await text(page, id)) > 0, `${id}: ${await text(page, id)}`);
      assert.ok((await page.locator(q(`${id}-range`)).count()) === 1, `${id} has its range`);
    }
    assert.ok((await plotOf(page, 'plot-serving-frontier')).drawn, 'the frontier is drawn');

    // The decode step's parts, each with its time, sum to the step under them.
    const parts = await page.locator(`${q('serving-step-part')} td:nth-child(2)`).allTextContents();
    const step = num(await page.locator(`${q('serving-step-total')} td:nth-child(2)`).textContent());
    assert.ok(parts.length >= 2, `${parts.length} parts of the step`);
    const sum = parts.reduce((a, p) => a + num(p), 0);
    assert.ok(step > 0 && Math.abs(sum / step - 1) < 0.02, `parts ${sum} ms of a ${step} ms step`);

    // A looser time per token: a larger batch, more tokens a chip. Typed key by key, the page
    // may show the answer for 1 and 15 ms on the way; it ends at 150 ms's.
    const before = await text(page, 'serving-throughput');
    await typeInto(page, 'serving-tpot-ms', '150');
    await until(page, `more tokens a chip than ${before}`, ([s, old]) => {
      const now = (document.querySelector(s)?.textContent ?? '').replace(/[,\u00a0\u2009\u202f]/g, '');
      return Number(now.match(/-?\d+(\.\d+)?/)?.[0]) > old;
    }, [q('serving-throughput'), num(before)]);
    assert.ok(num(await text(page, 'serving-tpot')) <= 150, await text(page, 'serving-tpot'));

    // Attention's projections kept in BF16 beside FP8 weights (a mixed-precision checkpoint):
    // more bytes every step, fewer tokens a chip.
    const narrow = await text(page, 'serving-throughput');
    await page.selectOption(q('serving-attention-weights'), 'bf16');
    await until(page, `fewer tokens a chip than ${narrow}`, ([s, old]) => {
      const now = (document.querySelector(s)?.textContent ?? '').replace(/[,\u00a0\u2009\u202f]/g, '');
      return Number(now.match(/-?\d+(\.\d+)?/)?.[0]) < old;
    }, [q('serving-throughput'), num(narrow)]);

    // Weights kept in the host's memory: every step copies them in over the host link, a part
    // of its own in the step's table, and each chip gives fewer tokens.
    const resident = await text(page, 'serving-throughput');
    await typeInto(page, 'serving-offload-gb', '20');
    await until(page, `fewer tokens a chip than ${resident} with weights offloaded`, ([s, old]) => {
      const now = (document.querySelector(s)?.textContent ?? '').replace(/[,\u00a0\u2009\u202f]/g, '');
      return Number(now.match(/-?\d+(\.\d+)?/)?.[0]) < old;
    }, [q('serving-throughput'), num(resident)]);
    const copy = lang === 'en' ? 'copying offloaded weights in' : '从主机内存拷入卸载的权重';
    await until(page, 'the copy among the step\'s parts', ([s, words]) =>
      [...document.querySelectorAll(s)].some((row) => row.textContent.includes(words)), [q('serving-step-part'), copy]);
    const withCopy = await page.locator(`${q('serving-step-part')} td:nth-child(2)`).allTextContents();
    const copied = num(await page.locator(`${q('serving-step-total')} td:nth-child(2)`).textContent());
    const summed = withCopy.reduce((a, p) => a + num(p), 0);
    assert.ok(Math.abs(summed / copied - 1) < 0.02, `parts ${summed} ms of a ${copied} ms step with the copy`);
    await typeInto(page, 'serving-offload-gb', '0');
    await until(page, `the tokens a chip back at ${resident}`, ([s, old]) => document.querySelector(s)?.textContent === old,
      [q('serving-throughput'), resident]);

    // Portable kernels in place of the vendor's library: every step slower, fewer tokens a chip;
    // turned off again, the figure comes back.
    const vendor = await text(page, 'serving-throughput');
    const portable = page.locator(`${q('serving-portable-kernels')} input, input${q('serving-portable-kernels')}`).first();
    await portable.check();
    await until(page, `fewer tokens a chip than ${vendor} on portable kernels`, ([s, old]) => {
      const now = (document.querySelector(s)?.textContent ?? '').replace(/[,\u00a0\u2009\u202f]/g, '');
      return Number(now.match(/-?\d+(\.\d+)?/)?.[0]) < old;
    }, [q('serving-throughput'), num(vendor)]);
    await portable.uncheck();
    await until(page, `the tokens a chip back at ${vendor}`, ([s, old]) => document.querySelector(s)?.textContent === old,
      [q('serving-throughput'), vendor]);

    // A benchmark's fixed concurrency far past the batch: the clients without a place wait for
    // one, and the first token moves; a step's budget of 64 tokens spreads each prompt over
    // many steps, and it moves again.
    for (const [id, value] of [['serving-concurrency', '5000'], ['serving-max-tokens', '64']]) {
      const was = await text(page, 'serving-ttft');
      await typeInto(page, id, value);
      await until(page, `the first token after ${id} ${value}`, ([s, old]) => {
        const now = document.querySelector(s)?.textContent.trim();
        return !!now && now !== old;
      }, [q('serving-ttft'), was]);
    }

    await page.locator(`${q('rl-on')} input, input${q('rl-on')}`).first().check();
    await until(page, 'the RL cards', (s) => !!document.querySelector(s)?.textContent.trim(), q('rl-step-time'));
    const share = num(await text(page, 'rl-generation-share'));
    assert.ok(share > 0 && share < 100, `generation ${share} %`);

    // The cheapest deployments that meet every target, each with its Apply: applying the first
    // writes its degrees into the plan, and the table's best row is then the plan's own.
    await until(page, 'the deployments', (s) => document.querySelectorAll(s).length > 0, q('serving-deployment'));
    const rows = await page.locator(q('serving-deployment')).count();
    assert.ok(rows >= 1 && rows <= 5, `${rows} deployments`);
    assert.ok((await text(page, 'serving-deployments-said')).length > 0, 'the sentence over the deployments');
    await page.locator(q('serving-deployment-apply')).first().click();
    await until(page, 'the applied degrees in the link', () => {
      const b = (location.hash.match(/^#s=1\.([^&]*)/)?.[1] ?? '').replace(/-/g, '+').replace(/_/g, '/');
      try {
        const json = new TextDecoder().decode(Uint8Array.from(atob(b + '='.repeat((4 - (b.length % 4)) % 4)), (c) => c.charCodeAt(0)));
        return json.includes('"expert_tp"');
      } catch { return false; }
    });

    // The link keeps both: a fresh page opened at it shows the same cards.
    await until(page, 'the fragment to hold serving and rl', () => {
      const b = (location.hash.match(/^#s=1\.([^&]*)/)?.[1] ?? '').replace(/-/g, '+').replace(/_/g, '/');
      try {
        const json = new TextDecoder().decode(Uint8Array.from(atob(b + '='.repeat((4 - (b.length % 4)) % 4)), (c) => c.charCodeAt(0)));
        return json.includes('"serving"') && json.includes('"rl"') && json.includes('"tpot_ms":150');
      } catch { return false; }
    });
    const other = await newPage(await newContext(t, { locale: lang }), log);
    await open(other, page.url());
    await until(other, 'the Serve cards', (s) => !!document.querySelector(s)?.textContent.trim(), q('serving-throughput'));
    await until(other, 'the RL cards', (s) => !!document.querySelector(s)?.textContent.trim(), q('rl-step-time'));
    for (const id of [...SERVE, ...RL]) {
      assert.equal(await text(other, id), await text(page, id), `${id} differs when the link is opened`);
    }
    assertClean(log, served());
  });
}
