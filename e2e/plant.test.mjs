// End-to-end tests of the cluster as built: changing the system, the switch, the planes, the
// oversubscription, the cooling and the PUE moves switch counts, site power, cost and days,
// and the power and cost plots are drawn; money reads in yuan when asked, and a chip the
// catalog prices nowhere asks for its servers' price. No console error, no stray request.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import {
  assertClean, harness, newContext, newPage, num, open, origin, q, select, served, text, typeInto, until, waitChange, plotOf,
} from './harness.mjs';

harness();

async function fresh(t) {
  const log = { errors: [], requests: [] };
  const page = await newPage(await newContext(t, { viewport: { width: 1440, height: 1000 } }), log);
  await open(page, `${origin}/`);
  return { page, log };
}

// A row of the bill of materials by its item and tier.
async function bom(page, item, tier = '') {
  return page.evaluate(([s, item, tier]) => {
    for (const row of document.querySelectorAll(`${s} tbody tr`)) {
      const cells = [...row.children].map((c) => c.textContent.trim());
      if (cells[0] === item && cells[1] === tier) return Number(cells[2].replace(/,/g, ''));
    }
    return NaN;
  }, [q('bom'), item, tier]);
}

test('the cluster as built is shown with its bill of materials and plots', async (t) => {
  const { page, log } = await fresh(t);
  for (const id of ['facility-mw', 'energy', 'capex', 'run-cost']) {
    assert.ok(Number.isFinite(num(await text(page, id))), `${id}: ${await text(page, id)}`);
  }
  assert.match(await text(page, 'facility-mw'), /MW$/);
  // The default plan runs RoCE: Ethernet Spectrum-4 switches of 128 x 400G, not the DGX
  // reference's 64-port InfiniBand ones.
  assert.equal(await bom(page, 'leaf switches'), 256);
  assert.equal(await bom(page, 'core switches'), 128);
  const leaves = await bom(page, 'leaf switches');
  await select(page, 'scale-out', 'ib-ndr');
  await until(page, 'the InfiniBand fabric', ([s, n]) => [...document.querySelectorAll(`${s} tbody tr`)].some((r) => r.children[0].textContent.trim() === 'leaf switches' && Number(r.children[2].textContent.replace(/,/g, '')) === n), [q('bom'), 2 * leaves]);
  assert.equal(await bom(page, 'core switches'), 256, 'InfiniBand NDR: 64-port Quantum-2 switches');
  for (const id of ['plot-power', 'plot-cost', 'plot-plant-scaling']) {
    assert.ok((await plotOf(page, id)).drawn, `${id} is drawn`);
  }
  assertClean(log, served());
});

test('thinning the core 1:7 saves switches and money but slows a plan that crosses pods', async (t) => {
  const { page, log } = await fresh(t);
  // On InfiniBand's 64-port switches, whose pods of 1,024 chips the plan's data parallelism leaves.
  await select(page, 'scale-out', 'ib-ndr');
  await until(page, 'the InfiniBand fabric', ([s]) => [...document.querySelectorAll(`${s} tbody tr`)].some((r) => r.children[0].textContent.trim() === 'core switches' && r.children[2].textContent.trim() === '256'), [q('bom')]);
  await typeInto(page, 'pp', '8');
  await until(page, 'PP 8 accepted', (s) => !document.querySelector(s), q('error-pp'));
  const days = await text(page, 'train-days');
  const capex = await text(page, 'capex');
  const cores = await bom(page, 'core switches');
  await typeInto(page, 'oversubscription', '7');
  const later = await waitChange(page, 'train-days', days);
  assert.ok(num(later) > num(days), `${days} -> ${later}`);
  assert.ok(num(await text(page, 'capex')) < num(capex), 'fewer core switches cost less');
  assert.ok((await bom(page, 'core switches')) < cores / 5);
  assertClean(log, served());
});

test('a second plane doubles the switches; a larger switch needs fewer', async (t) => {
  const { page, log } = await fresh(t);
  const leaves = await bom(page, 'leaf switches');
  const mw = await text(page, 'facility-mw');
  await typeInto(page, 'planes', '2');
  await waitChange(page, 'facility-mw', mw);
  assert.equal(await bom(page, 'leaf switches'), 2 * leaves);

  await typeInto(page, 'planes', '1');
  await until(page, 'one plane', ([s, n]) => {
    for (const row of document.querySelectorAll(`${s} tbody tr`)) {
      if (row.children[0].textContent.trim() === 'leaf switches') return Number(row.children[2].textContent.replace(/,/g, '')) === n;
    }
    return false;
  }, [q('bom'), leaves]);
  const capex = await text(page, 'capex');
  await page.selectOption(q('switch'), 'q3400');
  await waitChange(page, 'capex', capex);
  // 144-port switches serve 72 nodes per rail leaf: 29 units of 8 leaves instead of 64.
  assert.equal(await bom(page, 'leaf switches'), 232);
  assertClean(log, served());
});

test('a liquid-cooled rack system on air is warned about; PUE moves site power', async (t) => {
  const { page, log } = await fresh(t);
  const mw = await text(page, 'facility-mw');
  await page.selectOption(q('system'), 'gb200-nvl72');
  await until(page, 'the GB200 chosen', (s) => document.querySelector(s)?.value === 'gb200', q('chip'));
  await until(page, 'liquid cooling by default', (s) => document.querySelector(s)?.value === 'liquid', q('cooling'));
  assert.notEqual(await text(page, 'facility-mw'), mw);
  await page.selectOption(q('cooling'), 'air');
  await until(page, 'a rack warning', (s) => /air-cooled racks shed/.test(document.querySelector(s)?.textContent ?? ''), q('warnings'));
  const before = await text(page, 'facility-mw');
  await typeInto(page, 'pue', '1.1');
  const after = await waitChange(page, 'facility-mw', before);
  assert.ok(num(after) < num(before), `${before} -> ${after}`);
  assertClean(log, served());
});

// Heat: a hall above 27 °C slows air-cooled chips and says so, in both languages; the same
// chips on cold plates keep their speed.
for (const lang of ['en', 'zh-CN']) {
  test(`${lang}: a hot inlet throttles air-cooled chips, not liquid-cooled ones`, async (t) => {
    const log = { errors: [], requests: [] };
    const page = await newPage(await newContext(t, { locale: lang, viewport: { width: 390, height: 900 } }), log);
    await open(page, `${origin}/`);
    const cool = await text(page, 'step-time');
    await typeInto(page, 'inlet-c', '35');
    const hot = await waitChange(page, 'step-time', cool);
    assert.ok(num(hot) > num(cool), `${cool} -> ${hot}`);
    const warned = lang === 'en' ? /air at 35 °C .* throttle, 6\.8% slower/ : /进风温度 35 °C.*慢 6\.8%/;
    await until(page, 'the heat warning', ([s, re]) => new RegExp(re).test(document.querySelector(s)?.textContent ?? ''), [q('warnings'), warned.source]);
    await select(page, 'cooling', 'liquid');
    await waitChange(page, 'step-time', hot);
    assert.equal(await text(page, 'step-time'), cool, 'cold plates keep the speed');
    assertClean(log, served());
  });
}

// The site as it must be built, in both languages: provisioned power above the average, the
// racks' design, the swing each step (narrowed by a power floor, at its energy's cost), and
// the checkpoint storage in the bill of materials.
for (const lang of ['en', 'zh-CN']) {
  test(`${lang}: the site is built for its peak, swings each step and stores its checkpoints`, async (t) => {
    const log = { errors: [], requests: [] };
    const page = await newPage(await newContext(t, { locale: lang, viewport: { width: 390, height: 900 } }), log);
    await open(page, `${origin}/`);
    const site = await text(page, 'provisioned');
    const [provisioned, , , average] = site.replace(/,/g, '').match(/[\d.]+/g).map(Number);
    assert.ok(provisioned > average, `${provisioned} MW built against ${average} MW drawn: ${site}`);
    assert.match(site, lang === 'en' ? /designed for 40\.8 kW/ : /按 40\.8 kW 设计/);
    const swing = await text(page, 'power-swing');
    const megawatts = (words) => num(words.match(/([\d.,]+)\s*MW/)[1]);
    const mw = megawatts(swing);
    assert.ok(mw > 5 && mw < 20, `a swing of ${mw} MW at 16,384 H100: ${swing}`);
    assert.match(await text(page, 'site-storage'), lang === 'en' ? /108 nodes/ : /108 个节点/);
    assert.equal(await bom(page, lang === 'en' ? 'storage nodes' : '存储节点'), 108);
    const energy = num(await text(page, 'energy'));
    await typeInto(page, 'power-floor', '0.9');
    await waitChange(page, 'power-swing', swing);
    const floored = await text(page, 'power-swing');
    assert.match(floored, lang === 'en' ? /power floor/ : /功率下限/);
    assert.ok(megawatts(floored) < mw / 4, floored);
    assert.ok(num(await text(page, 'energy')) > energy, 'the floor costs energy');

    // Failures as a distribution, from the plots' worker: ordered percentiles, the chance of
    // finishing by each day drawn, and the chance of meeting a deadline once one is set.
    await until(page, 'the simulated runs', (s) => !!document.querySelector(s), q('failures-spread'));
    const spread = await text(page, 'failures-spread');
    const [runs, p10, p50, p90] = spread.replace(/,/g, '').match(/\d+(\.\d+)?/g).map(Number).filter((x) => x !== 10 && x !== 90);
    assert.equal(runs, 400, spread);
    assert.ok(p10 <= p50 && p50 <= p90, spread);
    assert.ok(await page.locator(`${q('plot-finish')} svg`).count() === 1, 'the chance by day is drawn');
    const deadline = Math.ceil(p90);
    await typeInto(page, 'deadline-days', String(deadline));
    // The worker answers each keystroke; wait for its answer to the whole deadline.
    await until(page, `the chance of meeting ${deadline} days`, ([s, d]) => {
      const said = document.querySelector(s)?.textContent.replace(/,/g, '') ?? '';
      return (said.match(/\d+(\.\d+)?/g) ?? []).map(Number).includes(d);
    }, [q('deadline-chance'), deadline]);
    assert.match(await text(page, 'deadline-chance'), lang === 'en' ? /met by (9\d|100)(\.\d)?\s?%/ : /(9\d|100)(\.\d)?\s?%/);

    // Without spares every failure that takes nodes waits for their repair: the median run
    // takes longer.
    const withDeadline = await text(page, 'failures-spread');
    await select(page, 'recovery', 'wait');
    await waitChange(page, 'failures-spread', withDeadline);
    const waiting = (await text(page, 'failures-spread')).replace(/,/g, '').match(/\d+(\.\d+)?/g).map(Number).filter((x) => x !== 10 && x !== 90);
    assert.ok(waiting[2] > p50, `${waiting[2]} days waiting against ${p50} on spares`);

    // A rail-only network needs no core tier at 16,384 H100.
    const core = lang === 'en' ? 'core switches' : 'Core 交换机';
    assert.equal(await bom(page, core), 128);
    await select(page, 'fabric-kind', 'rail-only');
    await page.waitForFunction(([s, item]) => [...document.querySelectorAll(`${s} tbody tr`)].some((r) => r.children[0].textContent.trim() === item && r.children[2].textContent.trim() === '0'), [q('bom'), core]);

    // A torus of cubes needs a domain of one cube: refused on H100, built on TPU v4 with its
    // optical circuit switches counted and drawn.
    await select(page, 'fabric-kind', 'torus-ocs');
    await until(page, 'the kind refused', (s) => /64/.test(document.querySelector(s)?.textContent ?? ''), q('error-fabric-kind'));
    await select(page, 'chip', 'tpu-v4');
    const ocs = lang === 'en' ? 'optical circuit switches' : '光路交换机';
    await page.waitForFunction(([s, item]) => [...document.querySelectorAll(`${s} tbody tr`)].some((r) => r.children[0].textContent.trim() === item && r.children[2].textContent.trim() === '192'), [q('bom'), ocs]);
    const drawn = lang === 'en' ? '192 optical circuit switches join' : '192 台光路交换机';
    await until(page, 'the switches listed', ([s, words]) => (document.querySelector(s)?.textContent ?? '').includes(words), [q('sketch-list'), drawn]);
    assertClean(log, served());
  });
}

// A sum as the Chinese page writes it ("¥39.8亿", "$5,540万"), in units.
function amount(s) {
  const unit = /亿/.test(s) ? 1e8 : /万/.test(s) ? 1e4 : 1;
  return num(s) * unit;
}

test('in yuan every money figure reads ¥ in 万 and 亿: cards, plots, the report and the bill of materials', async (t) => {
  const log = { errors: [], requests: [] };
  const context = await newContext(t, { locale: 'zh-CN', acceptDownloads: true, viewport: { width: 1440, height: 1000 } });
  const page = await newPage(context, log);
  await open(page, `${origin}/`);
  await until(page, 'the page in Chinese', () => document.documentElement.lang === 'zh-CN');
  const dollars = await text(page, 'capex');
  assert.match(dollars, /^\$[\d.,]+(万|亿)/, dollars);
  assert.equal(await page.inputValue(q('currency')), 'usd');

  await select(page, 'currency', 'cny');
  const yuan = await waitChange(page, 'capex', dollars);
  assert.match(yuan, /^¥[\d.,]+(万|亿)/, yuan);
  const rate = amount(yuan) / amount(dollars);
  assert.ok(Math.abs(rate - 7.19) < 0.05, `¥ over $ is the default rate, 7.19: ${rate}`);
  for (const id of ['plant-cards', 'summary-cost', 'site-storage', 'report-inputs']) {
    const words = await text(page, id);
    assert.match(words, /¥/, `${id}: ${words}`);
    assert.doesNotMatch(words, /\$/, `${id}: ${words}`);
  }
  await until(page, 'the cost plot in yuan', (s) => /百万元/.test(document.querySelector(s)?.innerHTML ?? ''), q('plot-cost'));

  // The bill of materials prices every row in yuan, and its prices sum to the hardware's.
  await page.locator('.bom > summary').click();
  const [download] = await Promise.all([page.waitForEvent('download'), page.click(q('bom-csv'))]);
  const csv = (await readFile(await download.path())).toString();
  assert.match(csv, /^item,tier,count,unit_price_cny,price_cny,model,unit_power_w,power_w\nnodes,,\d+,[\d.]+,[\d.]+,/, csv);
  const total = csv.trim().split('\n').slice(1).map((l) => Number(l.split(',')[4] || 0)).reduce((a, b) => a + b, 0);
  const detail = await page.evaluate((s) => document.querySelector(s).parentElement.querySelector('.card-detail').textContent, q('capex'));
  const hardware = detail.match(/硬件\s*(¥[\d.,]+(万|亿)?)/)?.[1];
  assert.ok(hardware, detail);
  assert.ok(Math.abs(total / amount(hardware) - 1) < 0.01, `the rows sum to ¥${total}, the card says ${hardware}`);

  // A rate typed in moves every figure with it.
  await typeInto(page, 'usd-to-cny', '7');
  const at7 = await waitChange(page, 'capex', yuan);
  assert.ok(Math.abs(amount(at7) / amount(dollars) - 7) < 0.05, `${at7} at 7 yuan a dollar`);
  assertClean(log, served());
});

test('a chip the catalog prices nowhere says so, and the server price it asks for is counted', async (t) => {
  const { page, log } = await fresh(t);
  await page.selectOption(q('chip'), 'tpu-v5p');
  await until(page, 'the unpriced warning', (s) => /servers have no price/.test(document.querySelector(s)?.textContent ?? ''), q('warnings'));
  const capex = await text(page, 'capex');
  await typeInto(page, 'node-price', '100000');
  const priced = await waitChange(page, 'capex', capex);
  assert.ok(num(priced) > num(capex), `${capex} -> ${priced}`);
  await until(page, 'the warning gone', (s) => !/servers have no price/.test(document.querySelector(s)?.textContent ?? ''), q('warnings'));
  assertClean(log, served());
});
