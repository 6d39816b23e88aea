// End-to-end tests of mixed fleets in the page: 4,096 Ascend 910B added beside 4,096 H800 (a
// pool of no chips marked on its field first), one job over both with each pool's share and the best split, how many more meet a deadline, the
// two pools at two sites synchronised by DiLoCo, and the link reopening it all, in English and
// Chinese.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  assertClean, harness, newContext, newPage, num, open, origin, q, select, served, text, typeInto, until,
} from './harness.mjs';

harness();

for (const lang of ['en', 'zh-CN']) {
  const zh = lang === 'zh-CN';
  test(`${lang}: a fleet of 4,096 H800 and 4,096 Ascend 910B runs one job over both`, async (t) => {
    const log = { errors: [], requests: [] };
    const page = await newPage(await newContext(t, { locale: lang }), log);
    const s = { model: { preset: 'llama3-70b' }, training: { tokens: '40T', global_batch: 4096 },
      cluster: { chip: 'h800', chips: 4096 }, parallelism: { tp: 8, pp: 4 } };
    await open(page, `${origin}/#s=1.${Buffer.from(JSON.stringify(s)).toString('base64url')}`);
    await page.click(q('pool-add'));
    await until(page, 'the second pool', (s) => !!document.querySelector(s), q('pool-chip-0'));
    await select(page, 'pool-chip-0', 'ascend-910b');
    // A pool of no chips is refused as any field is: marked where it was typed and named over
    // the results, which are the fleet without it, until it is put right.
    await typeInto(page, 'pool-chips-0', '0');
    await until(page, 'the pool\'s chips marked', ([error, refused]) => !!document.querySelector(error)
      && !!document.querySelector(refused), [q('error-pool-chips-0'), q('refused')]);
    await typeInto(page, 'pool-chips-0', '4096');
    await until(page, 'the mark gone', (s) => !document.querySelector(s), q('error-pool-chips-0'));
    await typeInto(page, 'between-pools', '100000');
    // The Ascend pool in Huawei's Atlas 800T A2 servers, as the system its chip is built into.
    await select(page, 'pool-system-0', 'atlas-800t-a2');
    // Over the fast link both pools take a share.
    await until(page, 'the job over both pools',
      (s) => [...document.querySelectorAll(s)].filter((c) => /%/.test(c.textContent)).length === 2, q('pool-card'));
    const rows = await page.locator(q('pool-card')).allTextContents();
    // Each pool's card is marked in the colour the drawing gives it.
    const colours = await page.$$eval(q('pool-card'), (cards) => cards.map((c) => getComputedStyle(c).borderLeftColor));
    assert.notEqual(colours[0], colours[1], `${colours}`);
    const drawing = await page.locator(`${q('fleet-drawing')} svg`).innerHTML();
    assert.match(drawing, /H800/);
    assert.match(drawing, /Ascend 910B/);
    assert.match(rows[0], /NVIDIA H800.*× 4,096/, rows[0]);
    assert.match(rows[1], /Huawei Ascend 910B × 4,096/, rows[1]);
    const shares = rows.map((r) => num(r.match(/([\d.]+) %/)[1]));
    assert.ok(shares[0] > shares[1] && shares[1] > 0, `the faster pool takes more: ${shares}`);
    assert.match(await text(page, 'pool-job'), zh ? /跨全部资源池/ : /One job over every pool/);
    // Above the results, a line says their cards are the first pool alone, beside the fleet's days.
    const headline = await text(page, 'fleet-headline');
    assert.match(headline, zh ? /第一个资源池（NVIDIA H800.*× 4,096）/ : /first pool, NVIDIA H800.*× 4,096, on its own/, headline);
    assert.ok(headline.includes((await text(page, 'pool-job')).match(/([\d.]+) ?(days|天)/)[1]), headline);
    // The fleet's own cards: its days, with failures no fewer, and every pool's cost and power,
    // more than the first pool's alone.
    const fleetDays = num(await text(page, 'fleet-days'));
    assert.ok(num(await text(page, 'fleet-effective-days')) >= fleetDays, 'failures add days');
    assert.ok(headline.includes(String(fleetDays)), `${fleetDays} in ${headline}`);
    assert.ok(num(await text(page, 'fleet-power')) > num(await text(page, 'facility-mw')), 'both pools draw');
    assert.match(await text(page, 'fleet-cost'), /^\$/);
    // The search over splits says how much the best beats the H800 alone.
    const best = await text(page, 'pool-best');
    assert.match(best, zh ? /最佳划分.*快 [\d.]+ %/ : /best split found.*[\d.]+ % faster than the fastest pool alone/, best);
    // Applying the best split writes its shares, and the job becomes the split found.
    await page.click(q('pool-best-apply'));
    const bestDays = best.match(/([\d.]+) ?(days|天)/)[1];
    await until(page, 'the best split applied', ([s, d]) => document.querySelector(s)?.textContent.includes(d),
      [q('pool-job'), bestDays]);
    // The two pools miss 90 days; how many more Ascend 910B meet it, and applying the answer.
    assert.ok(Number(bestDays) > 90, `${bestDays} days already meets 90`);
    await typeInto(page, 'fleet-deadline', '90');
    await page.click(q('fleet-add'));
    await until(page, 'the answer', (s) => !!document.querySelector(s), q('fleet-add-answer'));
    const answer = await text(page, 'fleet-add-answer');
    assert.match(answer, zh ? /增加 [\d,]+ 张 Huawei Ascend 910B/ : /Add [\d,]+ Huawei Ascend 910B/, answer);
    await page.click(q('fleet-add-apply'));
    await until(page, 'a third pool', (s) => document.querySelectorAll(s).length === 3, q('pool-card'));
    // The best split over the three pools meets it.
    const best3 = await text(page, 'pool-best');
    assert.ok(Number(best3.match(/([\d.]+) ?(days|天)/)[1]) <= 90, best3);
    await page.click(q('notice-undo'));
    await until(page, 'two pools again', (s) => document.querySelectorAll(s).length === 2, q('pool-card'));
    // Between vendors the link is host-staged TCP unless RDMA works; the drawing says which.
    assert.match(await page.locator(`${q('fleet-drawing')} svg`).innerHTML(), /TCP/);
    await page.check(q('between-pools-rdma'));
    await until(page, 'the link as RDMA', (s) => /RDMA/.test(document.querySelector(s)?.innerHTML), `${q('fleet-drawing')} svg`);
    // The two pools at two sites 10 Gb/s apart, synchronised by streamed DiLoCo.
    await page.click(q('site-add'));
    await until(page, 'two sites', (s) => !!document.querySelector(s), q('pool-site-0'));
    await select(page, 'pool-site-0', 'B');
    await typeInto(page, 'site-wan-0', '10');
    await typeInto(page, 'site-wan-1', '10');
    await select(page, 'across-sites', 'diloco');
    await page.check(q('diloco-streaming'));
    await until(page, 'the job over both sites', (s) => document.querySelectorAll(s).length === 2, q('site-row'));
    const sites = await text(page, 'sites-job');
    // H800 beside Ascend 910B: even an unlimited link leaves the slower site setting the pace,
    // so the sentence says no link reaches 95 % of one site, and why.
    assert.match(sites, zh ? /跨全部站点.*任何链路都达不到.*最慢/ : /One job over every site.*no link reaches 95%.*slowest/, sites);
    // What DiLoCo is assumed to keep is said, and the drawing shows each site's link.
    assert.match(await text(page, 'sites-assumption'), /arXiv:2311\.08105/);
    await until(page, 'the sites drawn', (s) => (document.querySelector(s)?.innerHTML.match(/10 Gb\/s · 5 ms/g) || []).length === 2,
      `${q('fleet-drawing')} svg`);
    // Pipeline across the pools, then the link reopens the fleet as it was.
    await select(page, 'across-pools', 'pipeline');
    await until(page, 'the pipeline split', (s) => document.querySelector(s)?.value === 'pipeline', q('across-pools'));
    const url = page.url();
    const again = await newPage(await newContext(t, { locale: lang }), log);
    await open(again, url);
    await until(again, 'the fleet reopened', (s) => document.querySelectorAll(s).length === 2, q('pool-card'));
    assert.equal(await again.inputValue(q('pool-chip-0')), 'ascend-910b');
    assert.equal(await again.inputValue(q('pool-system-0')), 'atlas-800t-a2');
    assert.equal(await again.inputValue(q('across-pools')), 'pipeline');
    assert.equal(await again.inputValue(q('across-sites')), 'diloco');
    assert.equal(await again.locator(q('site-row')).count(), 2, 'the sites reopen');
    // Removing the pool leaves the one cluster.
    await again.click(q('pool-remove-0'));
    await until(again, 'one cluster again', (s) => !document.querySelector(s), q('pool-cards'));
    assertClean(log, served());
  });
}
