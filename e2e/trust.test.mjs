// End-to-end tests of trust at first sight, with the exact inputs users tried: a 10,000-chip
// cluster, numbers written as people write them, impossible plans, absurd figures, a bad import,
// Reset then Undo and Back, a chip change on RoCE, a phone screen and a high-density screen.
// Every test also checks that the page logged no console error and made no stray request.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  DIST, assertClean, harness, newContext, newPage, num, open, origin, q, select, served, text, typeInto, until, waitChange,
} from './harness.mjs';

harness();

const attr = (page, id, name) => page.locator(q(id)).getAttribute(name);

async function fresh(t, options = {}) {
  const log = { errors: [], requests: [] };
  const page = await newPage(await newContext(t, options), log);
  await open(page, `${origin}/`);
  return { page, log };
}

async function waitFeasible(page, value) {
  await until(page, `results data-feasible=${value}`, ([s, v]) => document.querySelector(s)?.dataset.feasible === v,
    [q('results'), String(value)]);
}

async function waitError(page, id, pattern) {
  await until(page, `error-${id} matching ${pattern}`, ([s, p]) => new RegExp(p).test(document.querySelector(s)?.textContent ?? ''),
    [q(`error-${id}`), pattern.source]);
  return text(page, `error-${id}`);
}

// Waits for the problems list to match: while a number is typed, its first digits can be a
// problem of their own ("EP 6" on the way to "EP 64").
async function waitProblem(page, pattern) {
  await until(page, `problems matching ${pattern}`, ([s, p]) => new RegExp(p).test(document.querySelector(s)?.textContent ?? ''),
    [q('problems'), pattern.source]);
  return text(page, 'problems');
}


test('10,000 chips are taken with 16 idle, the round counts one click away', async (t) => {
  const { page, log } = await fresh(t);
  await typeInto(page, 'chips', '10000');
  // Wait for the whole typed count: while typing, "1 chips" does not divide either.
  const idle = /TP × PP × DP × CP = 9,984 but the cluster has 10,000 chips; the rest sit idle/;
  await until(page, 'the idle chips said', ([s, p]) => new RegExp(p).test(document.querySelector(s)?.textContent ?? ''),
    [q('warnings'), idle.source]);
  assert.equal(await page.locator(q('error-chips')).count(), 0, 'not refused: the field is not red');
  assert.equal(await page.locator(q('error-dp')).count(), 0, 'no error on DP');
  assert.equal(await page.locator(q('refused')).count(), 0);
  const suggestions = await page.locator(q('chips-suggest')).allTextContents();
  assert.deepEqual(suggestions, ['9,984 chips', '10,240 chips']);
  const days = await text(page, 'train-days');
  await page.locator(q('chips-suggest')).nth(1).click();
  await until(page, 'chips to become 10240', (s) => document.querySelector(s)?.value === '10240', q('chips'));
  await waitFeasible(page, true);
  assert.equal(await page.locator(q('error-chips')).count(), 0);
  assert.notEqual(await text(page, 'train-days'), days);
  // The chips slider reaches counts between powers of two.
  const step = Number(await page.getAttribute(q('chips-slider'), 'max'));
  assert.ok(step >= 32 * 17, `fine chip slider, max position ${step}`);
  // DP follows the chips while automatic: its slider only shows the value.
  assert.equal(await page.locator(q('dp-slider')).isDisabled(), true);
  assertClean(log, served());
});

// The mission's own sizes, which the default plan's 256-chip replicas do not divide: numbers
// at once on the largest count it divides, the rest idle and said, the round counts still
// offered, and later edits move them.
for (const lang of ['en', 'zh-CN']) {
  test(`${lang}: 10,000 and 15,000 chips answer at once`, async (t) => {
    const { page, log } = await fresh(t, { locale: lang });
    let days = await text(page, 'train-days');
    for (const chips of ['10000', '15000']) {
      await typeInto(page, 'chips', chips);
      const shown = Number(chips).toLocaleString('en-US');
      await until(page, `${shown} chips taken`, ([s, p]) => new RegExp(p).test(document.querySelector(s)?.textContent ?? ''),
        [q('warnings'), shown]);
      assert.equal(await page.locator(q('error-chips')).count(), 0, 'not refused');
      days = await waitChange(page, 'train-days', days);
      await waitFeasible(page, true);
      assert.equal(await page.locator('.results.stale').count(), 0, 'the numbers are the typed count\'s');
      const idle = lang === 'en' ? /the rest sit idle/ : /其余的卡闲置/;
      await until(page, 'the idle chips said', ([s, p]) => new RegExp(p).test(document.querySelector(s)?.textContent ?? ''), [q('warnings'), idle.source]);
      assert.ok((await page.locator(q('chips-suggest')).count()) >= 2, 'round counts still offered');
    }
    // A later edit moves the numbers: liquid cooling lowers the site's power.
    const site = await text(page, 'provisioned');
    await select(page, 'cooling', 'liquid');
    await waitChange(page, 'provisioned', site);
    assertClean(log, served());
  });
}

test('numbers written the way people write them are understood', async (t) => {
  const { page, log } = await fresh(t);
  const days = await text(page, 'train-days');
  await typeInto(page, 'chips', '１６３８４');
  await until(page, 'full-width 16384 accepted', (s) => !document.querySelector(s), q('error-chips'));
  assert.equal(await text(page, 'train-days'), days, 'full-width digits mean 16,384');

  await typeInto(page, 'chips', '16k');
  // 16,000: read as a number and taken with its idle chips, not refused.
  await until(page, '16,000 chips taken', (s) => /16,000 chips/.test(document.querySelector(s)?.textContent ?? ''), q('warnings'));
  assert.equal(await page.locator(q('error-chips')).count(), 0);
  await typeInto(page, 'chips', '16,384');
  await until(page, '16,384 accepted', (s) => !document.querySelector(s), q('error-chips'));

  await typeInto(page, 'tokens', '14.8T');
  const later = await waitChange(page, 'train-days', days);
  assert.ok(Math.abs(num(later) / num(days) - 14.8 / 15.6) < 0.01, `${days} -> ${later}`);
  assert.equal(await page.locator(q('error-tokens')).count(), 0);
  assert.equal(await page.inputValue(q('tokens')), '14.8T', 'shown as typed');
  assertClean(log, served());
});

test('impossible plans are marked, dimmed and explained, problems first', async (t) => {
  const { page, log } = await fresh(t);
  // DeepSeek-V3 on 2,048 chips with TP 8, PP 16, CP 2: DP × CP = 16, so EP 64 cannot be formed.
  await select(page, 'model-preset', 'deepseek-v3');
  await typeInto(page, 'chips', '2048');
  await until(page, 'chips 2048 accepted', (s) => !document.querySelector(s), q('error-chips'));
  await typeInto(page, 'ep', '64');
  await waitFeasible(page, false);
  const problems = await waitProblem(page, /EP 64 /);
  assert.match(problems, /EP 64 × expert TP 8 must divide the TP × CP × DP = 128 ranks it is folded from/);
  assert.ok(await page.locator('.results.infeasible').count(), 'results dimmed');
  const order = await page.evaluate(() => {
    const all = [...document.querySelectorAll('[data-testid="problems"], [data-testid="warnings"], .card')];
    return all[0]?.dataset.testid;
  });
  assert.equal(order, 'problems', 'problems come before the numbers');
  assert.match(await page.locator(q('ep')).evaluate((e) => e.closest('.field').className), /invalid/);

  // A micro-batch larger than a replica's share of the batch.
  await typeInto(page, 'ep', '8');
  await waitFeasible(page, true);
  await typeInto(page, 'micro-batch', '4096');
  await waitFeasible(page, false);
  assert.match(await waitProblem(page, /micro-batch 4,096 /), /micro-batch 4,096 is more than/);
  assertClean(log, served());
});

test('absurd chip figures are refused in short words and the layout holds', async (t) => {
  const { page, log } = await fresh(t);
  await select(page, 'chip', 'custom');
  await until(page, 'custom chip fields', (s) => document.querySelector(s), q('chip-bw'));
  const days = await text(page, 'train-days');
  // Pasted whole (one input event), so no prefix of the number is ever a valid figure.
  await page.fill(q('chip-bw'), '1e-30');
  assert.match(await waitError(page, 'chip-bw', /too small/), /min 0.01 TB\/s/);
  await page.fill(q('chip-bf16'), '1e40');
  const error = await waitError(page, 'chip-bf16', /too large/);
  assert.match(error, /max 100,000 TFLOP\/s/);
  assert.ok(error.length < 60, `short: ${error}`);
  assert.equal(await text(page, 'train-days'), days, 'no absurd days are shown');
  const widths = await page.evaluate(() => ['chip-fp8', 'chip-hbm', 'chip-bf16']
    .map((id) => document.querySelector(`[data-testid="${id}"]`).getBoundingClientRect().width));
  assert.ok(widths.every((w) => w > 60), `fields keep their width: ${widths}`);
  assertClean(log, served());
});

test('a bad import keeps the plan and lists the problems', async (t) => {
  const { page, log } = await fresh(t);
  await typeInto(page, 'chips', '4096');
  await until(page, 'chips 4096', (s) => !document.querySelector(s), q('error-chips'));
  const bad = { model: { preset: 'llama3-405b', layers: 'many' }, cluster: { chip: 'z9000' } };
  await page.setInputFiles(q('import'), { name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(bad)) });
  await until(page, 'a rejection notice', (s) => /Did not import bad\.json/.test(document.querySelector(s)?.textContent ?? ''), q('notice'));
  const notice = await text(page, 'notice');
  assert.match(notice, /your plan is unchanged/);
  // Fields are named in words, not by their keys in the file.
  assert.match(notice, /Layers: "many" is not a number/);
  assert.doesNotMatch(notice, /model\.layers|cluster\.chip/);
  assert.match(notice, /unknown chip 'z9000'/);
  assert.equal(await page.inputValue(q('chips')), '4096');
  assert.equal(await page.inputValue(q('model-preset')), 'llama3-405b');
  assert.equal(await page.locator('.field.invalid').count(), 0, 'no field turned red');
  assertClean(log, served());
});

test('Reset is undone by Undo and by Back', async (t) => {
  const { page, log } = await fresh(t);
  assert.equal(await page.locator(q('undo')).isDisabled(), true, 'nothing to undo yet');
  await typeInto(page, 'chips', '4096');
  await until(page, 'chips 4096', (s) => !document.querySelector(s), q('error-chips'));
  const mine = await text(page, 'train-days');
  assert.equal(await page.locator(q('undo')).isDisabled(), false, 'a typed edit is undoable');

  await page.click(q('reset'));
  await until(page, 'the default plan', (s) => document.querySelector(s)?.value === '16384', q('chips'));
  await page.click(q('undo'));
  await until(page, 'undone', (s) => document.querySelector(s)?.value === '4096', q('chips'));
  assert.equal(await text(page, 'train-days'), mine);

  await page.click(q('reset'));
  await until(page, 'the default plan again', (s) => document.querySelector(s)?.value === '16384', q('chips'));
  await page.goBack();
  await until(page, 'Back returns to the plan before', (s) => document.querySelector(s)?.value === '4096', q('chips'));
  assert.ok(page.url().startsWith(origin), 'Back stayed on the page');
  assert.equal(await text(page, 'train-days'), mine);
  assertClean(log, served());
});

test('changing the chip keeps the network the user chose, and says so', async (t) => {
  const { page, log } = await fresh(t);
  assert.equal(await page.inputValue(q('scale-out')), 'roce-400g');
  await select(page, 'chip', 'h200');
  await until(page, 'a chip notice', (s) => /H200/.test(document.querySelector(s)?.textContent ?? ''), q('notice'));
  assert.equal(await page.inputValue(q('scale-out')), 'roce-400g', 'RoCE 400G is kept');
  assert.match(await text(page, 'notice'), /kept your scale-out network RoCE/);
  await page.click(q('notice-undo'));
  await until(page, 'the H100 back', (s) => document.querySelector(s)?.value === 'h100-sxm', q('chip'));
  assertClean(log, served());
});

test('the page says how sure it is, explains its terms and shows its validation', async (t) => {
  const { page, log } = await fresh(t);
  // The default plan is not a published plan and is larger than the runs of its kind: an
  // estimate with its range, not "validated".
  assert.equal(await attr(page, 'confidence', 'data-firm'), 'false');
  assert.match(await text(page, 'confidence'), /^estimate ±\d+(\.\d)? %/);
  for (const id of ['train-days', 'effective-days', 'mfu', 'step-time', 'chip-hours', 'tokens-per-s']) {
    assert.match(await text(page, `${id}-range`), /^likely .+ to .+/, `${id} has a range`);
  }
  const [lo, hi] = (await text(page, 'train-days-range')).replace(/,/g, '').match(/[\d.]+/g).map(Number);
  const days = num(await text(page, 'train-days'));
  assert.ok(lo < hi && lo <= days * 1.2 && hi >= days * 0.8, `${lo} to ${hi} around ${days}`);
  // GPT-3 175B on 1,024 A100 with Megatron-LM as the 2021-2023 papers ran it: the kind of plan
  // many published runs back, within their sizes.
  const validated = {
    model: { preset: 'gpt3-175b' }, training: { tokens: '300B', global_batch: 1536 },
    cluster: { chip: 'a100-80gb', chips: 1024, scale_out: 'ib-hdr' },
    parallelism: { tp: 8, pp: 8, micro_batch: 1, stack: 'megatron-baseline', recompute: 'selective' },
  };
  await page.goto('about:blank');
  await open(page, `${origin}/#s=1.${Buffer.from(JSON.stringify(validated)).toString('base64url')}`);
  assert.equal(await attr(page, 'confidence', 'data-firm'), 'true');
  assert.equal(await text(page, 'confidence'), 'validated');
  // No published run fits a Moore Threads chip: its efficiency is its class's.
  await select(page, 'chip', 'mtt-s4000');
  await until(page, 'a soft confidence badge', (s) => document.querySelector(s)?.dataset.firm === 'false', q('confidence'));
  const badge = await text(page, 'confidence');
  assert.match(badge, /MTT S4000: .*board power unverified/);
  assert.match(badge, /efficiency assumed by chip class/);
  assert.doesNotMatch(badge, /_per_s|hbm_/, 'human names, not code names');

  // A term explains itself on keyboard focus.
  const help = page.locator('.card .help').nth(1);
  await help.focus();
  const tip = help.locator('.tip');
  assert.ok(await tip.isVisible(), 'the MFU explanation shows on focus');
  assert.match(await tip.textContent(), /BF16 dense peak/);

  // Sources are links and the validation table is one click away.
  assert.ok(await page.locator('.reading a[href^="https://arxiv.org/abs/"]').count() > 0);
  await page.locator(`${q('accuracy')} summary`).click();
  await until(page, 'the validation rows', (s) => document.querySelectorAll(s).length >= 30, `${q('accuracy')} tbody tr`);
  const rows = await page.locator(`${q('accuracy')} tbody tr`).count();
  assert.ok(rows >= 30, `validation rows: ${rows}`);
  assertClean(log, served());
});

test('presets help: a published plan in one click, a hint at EP, "(modified)"', async (t) => {
  const { page, log } = await fresh(t);
  assert.equal(await page.locator(q('warnings')).count(), 0, 'the default plan opens without a warning');
  assert.equal(await page.locator(q('dispatcher')).count(), 0, 'a dense model has no token dispatcher to choose');
  await select(page, 'model-preset', 'deepseek-v3');
  await until(page, 'an EP hint', (s) => /mixture of experts/.test(document.querySelector(s)?.textContent ?? ''), q('notice'));
  const button = page.locator(q('load-published-plan'));
  assert.match(await button.textContent(), /2,048 H800, PP 16, EP 64, FP8/);
  await button.click();
  await until(page, '2,048 chips', (s) => document.querySelector(s)?.value === '2048', q('chips'));
  await waitFeasible(page, true);
  assert.equal(await page.inputValue(q('ep')), '64');
  // A mixture of experts offers its token dispatcher, and the choice is kept.
  assert.equal(await page.inputValue(q('dispatcher')), 'alltoall');
  await select(page, 'dispatcher', 'deepep');
  await until(page, 'DeepEP chosen', (s) => document.querySelector(s)?.value === 'deepep', q('dispatcher'));

  await typeInto(page, 'layers', '60');
  await until(page, '"(modified)"', (s) => {
    const el = document.querySelector(s);
    return /\(modified\)/.test(el?.options[el.selectedIndex]?.text ?? '');
  }, q('model-preset'));
  assertClean(log, served());
});

test('a phone screen: nothing scrolls sideways and the headline is in sight', async (t) => {
  const { page, log } = await fresh(t, { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true });
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 390, `page is ${width} px wide`);
  const summary = await page.locator(q('summary')).boundingBox();
  assert.ok(summary && summary.y + summary.height <= 844, `summary at ${JSON.stringify(summary)}`);
  assert.match(await text(page, 'summary'), /days/);
  // Plots are drawn as wide as their column, so their text is never scaled down.
  await until(page, 'the scaling plot drawn at its column\'s width', (s) => {
    const svg = document.querySelector(`${s} svg`);
    const shown = svg?.getBoundingClientRect().width ?? 0;
    return shown > 0 && shown <= 390 && Math.abs(Number(svg.getAttribute('width')) - shown) <= 4;
  }, q('plot-scaling'));
  assertClean(log, served());
});

test('a wide screen puts each group of cards in one row', async (t) => {
  const { page, log } = await fresh(t, { viewport: { width: 1440, height: 900 } });
  const rows = await page.evaluate(() => [...document.querySelectorAll('.cards')].map((g) =>
    [...g.querySelectorAll('.card')].map((c) => Math.round(c.getBoundingClientRect().top))));
  assert.equal(rows.length, 3, 'training results, the cluster as built, what it delivers');
  for (const tops of rows) assert.equal(new Set(tops).size, 1, `card rows: ${tops}`);
  assertClean(log, served());
});

test('standalone.html points Copy link to Save as file', async (t) => {
  const log = { errors: [], requests: [] };
  const context = await newContext(t);
  const page = await newPage(context, log);
  await open(page, new URL('standalone.html', DIST).href, 20_000);
  await page.click(q('copy-link'));
  await until(page, 'a copy notice', (s) => /opened from a file/.test(document.querySelector(s)?.textContent ?? ''), q('notice'));
  const notice = await text(page, 'notice');
  assert.match(notice, /Save as file/);
  // The notice says where to go, short, and prints no fragment of the link.
  assert.doesNotMatch(notice, /#s=1\./);
  assert.ok(notice.length < 400, notice);
  assertClean(log, ['file:', 'data:', 'blob:']);
});
