// End-to-end tests of the page as it is put in front of a customer, in English and Chinese: a
// comparison that names its sides at 1440 and 390 px, the phone's headline bar, the printed
// report's table of inputs, a chip of one's own picked from the Accelerator list and sized, a
// system change and a drawing edit with Undo and Redo, the checkpoint wording, and 15.6万亿.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  assertClean, harness, newContext, newPage, num, open, origin, q, select, served, text, typeInto, until, waitChange,
} from './harness.mjs';

harness();

const ZH = /[\u4e00-\u9fff]/;
const plan = (cluster, extra = {}) => ({
  model: { preset: 'llama3-70b' },
  training: { tokens: '15T', global_batch: 1024, recipe: 'megatron-bf16' },
  cluster,
  parallelism: { tp: 8, pp: 4, micro_batch: 1 },
  ...extra,
});
const encode = (s) => `1.${Buffer.from(JSON.stringify(s)).toString('base64url')}`;
const H100 = plan({ chip: 'h100-sxm', chips: 1024 });
const S4000 = plan({ chip: 'mtt-s4000', chips: 1024, system: 'kuae-s4000' });

async function fresh(t, lang, viewport = { width: 1280, height: 900 }) {
  const log = { errors: [], requests: [] };
  const page = await newPage(await newContext(t, { locale: lang, viewport }), log);
  return { page, log };
}

// Nothing on the page is wider than the window: no sideways scrolling.
const fitsWidth = (page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

for (const lang of ['en', 'zh-CN']) {
  const zh = lang === 'zh-CN';

  test(`${lang}: a comparison names each side, at 1440 and 390 px, and the phone bar says it compares`, async (t) => {
    for (const width of [1440, 390]) {
      const { page, log } = await fresh(t, lang, { width, height: width > 500 ? 900 : 844 });
      await open(page, `${origin}/#s=${encode(H100)}&b=${encode(S4000)}`);
      await until(page, 'the comparison', (s) => !!document.querySelector(s), q('compare-name-b'));
      const [a, b] = [await text(page, 'compare-name-a'), await text(page, 'compare-name-b')];
      assert.match(a, /NVIDIA H100 SXM5 80GB × 1,024/, a);
      assert.match(a, /Llama 3\.1 70B/, a);
      assert.match(b, /Moore Threads MTT S4000 × 1,024/, b);
      assert.match(b, /KUAE/, b);
      // The overlaid plots name the sides too, and fit their card.
      await until(page, 'the overlaid plots', (s) => document.querySelector(s)?.naturalWidth > 0, q('compare-scaling'));
      const svg = decodeURIComponent((await page.getAttribute(q('compare-scaling'), 'src')).replace(/^data:image\/svg\+xml,/, ''));
      assert.ok(svg.includes('MTT S4000 × 1,024') && svg.includes('H100 SXM5 80GB × 1,024'), 'the legend names the sides');
      const fit = await page.evaluate((s) => {
        const img = document.querySelector(s);
        return img.getBoundingClientRect().right <= img.closest('section').getBoundingClientRect().right + 0.5;
      }, q('compare-scaling'));
      assert.ok(fit, `the plot runs past its card at ${width} px`);
      assert.ok(await fitsWidth(page), `the A/B link scrolls sideways at ${width} px`);
      if (width === 390) {
        const bar = await text(page, 'summary');
        assert.match(bar, /A .* → B /, `the bar says it compares: ${bar}`);
        assert.match(bar, /MTT S4000 × 1,024/, bar);
        await page.screenshot({ path: new URL(`../target/e2e/compare-390-${lang}.png`, import.meta.url).pathname });
      }
      assertClean(log, served());
    }
  });

  test(`${lang}: on a phone the headline comes first and says what a manager asks`, async (t) => {
    const { page, log } = await fresh(t, lang, { width: 390, height: 844 });
    await open(page, `${origin}/#s=${encode(plan({ chip: 'ascend-910b', chips: 10240, system: 'atlas-800t-a2' }))}`);
    const bar = await text(page, 'summary');
    assert.match(bar, /Huawei Ascend 910B × 10,240/, bar);
    assert.match(await text(page, 'summary-days'), zh ? /计入故障/ : /with failures/);
    assert.match(await text(page, 'summary-cost'), /\$/);
    assert.match(await text(page, 'summary-mw'), /MW/);
    // The cards come before the form.
    const [cards, form] = await Promise.all([page.locator(q('train-days')).boundingBox(), page.locator(q('chips')).boundingBox()]);
    assert.ok(cards.y < form.y, `cards at ${cards.y}, the form at ${form.y}`);
    assert.ok(await fitsWidth(page), 'nothing scrolls sideways');
    // The drawing's phone form: its parts as lines and its knobs as large buttons that edit.
    assert.ok(!(await page.locator(q('sketch')).isVisible()), 'the small drawing gives way to lists');
    const plus = page.locator(`${q('sketch-list')} button.knob[aria-label$="+"]`).first();
    const box = await plus.boundingBox();
    assert.ok(box.width >= 44 && box.height >= 44, `a 44 px target: ${JSON.stringify(box)}`);
    const perNode = await page.inputValue(q('chips-per-node'));
    await plus.click();
    await until(page, 'chips per node to double', (w) => document.querySelector('[data-testid="chips-per-node"]').value === String(2 * w), Number(perNode) || 8);
    assertClean(log, served());
  });

  test(`${lang}: the printed report starts with every input by name`, async (t) => {
    const { page, log } = await fresh(t, lang);
    await open(page, `${origin}/#s=${encode(plan({ chip: 'ascend-910b', chips: 10240, system: 'atlas-800t-a2' }))}`);
    await page.emulateMedia({ media: 'print' });
    const inputs = page.locator(q('report-inputs'));
    await until(page, 'the table of inputs', (s) => document.querySelector(s)?.getBoundingClientRect().height > 0, q('report-inputs'));
    const words = await inputs.textContent();
    for (const want of ['Llama 3.1 70B', 'Huawei Ascend 910B', '10,240', 'Atlas 800T A2', 'TP 8', 'PP 4', 'PUE']) {
      assert.ok(words.includes(want), `${want} is not in the report's inputs: ${words}`);
    }
    assert.doesNotMatch(words, /ascend-910b|atlas-800t|llama3-70b/, 'ids in the report');
    if (zh) assert.match(words, ZH);
    // On page 1: the table ends within the first A4 page (1,123 px at 96 dpi, less margins).
    const box = await inputs.boundingBox();
    assert.ok(box.y + box.height < 1050, `the table ends at ${box.y + box.height} px`);
    assert.match(await text(page, 'report-head'), /Huawei Ascend 910B × 10,240/);
    // No control is printed: no visible button in print.
    const buttons = await page.evaluate(() => [...document.querySelectorAll('button')].filter((b) => b.getBoundingClientRect().height > 0).length);
    assert.equal(buttons, 0, 'buttons on the printed page');
    const pdf = await page.pdf({ format: 'A4', printBackground: true });
    assert.equal(pdf.subarray(0, 5).toString(), '%PDF-');
    assertClean(log, served());
  });

  test(`${lang}: a chip of one's own is picked from the Accelerator list and sized`, async (t) => {
    const { page, log } = await fresh(t, lang);
    await open(page, `${origin}/#s=${encode(H100)}`);
    await select(page, 'chip', 'custom');
    await until(page, 'the custom chip fields', (s) => !!document.querySelector(s), q('chip-tdp'));
    for (const id of ['chip-fp32', 'chip-tdp', 'chip-price', 'chip-matmul-efficiency', 'chip-memory-efficiency']) {
      assert.ok(await page.locator(q(id)).isVisible(), `${id} is offered`);
    }
    assert.doesNotMatch(await page.inputValue(q('chip-hbm')), /\d\.\d{7,}/, 'memory reads to a few digits');
    assert.match(await text(page, 'custom-chip-system'), zh ? /系统|通用服务器/ : /system|generic server/);
    const days = await text(page, 'train-days');
    await typeInto(page, 'chip-bf16', '1500');
    await waitChange(page, 'train-days', days);
    // Save it, leave it, and pick it again from the Accelerator list.
    await page.locator(`${q('my-catalog')} > summary`).click();
    await typeInto(page, 'catalog-name', 'X1');
    await page.click(q('catalog-save-chip'));
    await select(page, 'chip', 'h100-sxm');
    await until(page, 'the H100 back', (s) => document.querySelector(s)?.value === 'h100-sxm', q('chip'));
    const options = await page.locator(`${q('chip')} optgroup option`).allTextContents();
    assert.deepEqual(options, ['X1'], 'My chips in a group of their own');
    await select(page, 'chip', 'my:X1');
    await until(page, 'X1 in use', (s) => document.querySelector(s)?.value === 'my:X1', q('chip'));
    assert.equal(await page.inputValue(q('chip-bf16')), '1500');
    // Sized: its own row, named as saved.
    await typeInto(page, 'size-deadline', '90');
    await page.click(q('size'));
    await until(page, 'the sizing', (s) => document.querySelector(s)?.querySelectorAll('tbody tr').length > 0, q('size-results'));
    const row = (await page.locator(`${q('size-results')} tbody tr`).first().locator('td').allTextContents()).map((s) => s.trim());
    assert.equal(row[0], 'X1');
    assert.ok(num(row[1]) > 0 && num(row[5]) <= 90, `${row}`);
    assertClean(log, served());
  });

  test(`${lang}: a system change and a drawing edit say what they change, with Undo and Redo`, async (t) => {
    const { page, log } = await fresh(t, lang);
    await open(page, `${origin}/#s=${encode(H100)}`);
    await select(page, 'system', 'kuae-s4000');
    await until(page, 'the system notice', (s) => /MTT S4000/.test(document.querySelector(s)?.textContent ?? ''), q('notice'));
    assert.equal(await page.inputValue(q('chip')), 'mtt-s4000', 'the chip came with the system');
    await page.click(q('notice-undo'));
    await until(page, 'the H100 back', (s) => document.querySelector(s)?.value === 'h100-sxm', q('chip'));
    await page.click(q('redo'));
    await until(page, 'the S4000 again', (s) => document.querySelector(s)?.value === 'mtt-s4000', q('chip'));
    await page.click(q('notice-undo'));
    await until(page, 'the H100 back again', (s) => document.querySelector(s)?.value === 'h100-sxm', q('chip'));

    // A drawn edit of nodes per rack keeps the chip's own system and moves capex a little.
    const capex = await text(page, 'capex');
    await page.click(`${q('sketch')} [data-edit="cluster.system.nodes_per_rack"][aria-label$="+"]`);
    await waitChange(page, 'capex', capex);
    assert.equal(await page.inputValue(q('system')), 'dgx-h100', 'the system is kept');
    const [before, after] = [num(capex), num(await text(page, 'capex'))];
    assert.ok(after < before && after > 0.95 * before, `capex ${capex} to ${await text(page, 'capex')}`);
    // The domain + stops at what the fabric links.
    await select(page, 'chip', 'ascend-910b');
    await until(page, 'the 910B drawn', (s) => !!document.querySelector(s), `${q('sketch')} [aria-label$="+"][disabled]`);
    const off = await page.locator(`${q('sketch')} [data-edit="cluster.scale_up_domain"][aria-label$="+"]`).isDisabled();
    assert.ok(off, 'no step beyond the 8 chips HCCS links');
    assertClean(log, served());
  });

  test(`${lang}: checkpoints are said in steps, with what is copied and what is written, and 15.6万亿 reads`, async (t) => {
    const { page, log } = await fresh(t, lang);
    await open(page, `${origin}/`);
    const detail = () => page.evaluate((s) => document.querySelector(s).closest('.card').querySelector('.card-detail').textContent, q('effective-days'));
    assert.match(await detail(), zh ? /(每 \d+ 步|每一步之后).*复制到主机内存.*写入存储/ : /copied to host memory (every \d+ steps|after every step).*written to storage/, await detail());
    await select(page, 'checkpoint', 'sync');
    await until(page, 'the synchronous wording', (s) => /(training stops|训练暂停)/.test(document.querySelector(s).closest('.card').textContent), q('effective-days'));
    const reading = () => page.evaluate((s) => document.querySelector(s).closest('.field').querySelector('.reading')?.textContent ?? '', q('tokens'));
    if (zh) {
      assert.match(await reading(), /15\.6万亿/, await reading());
      const days = await text(page, 'train-days');
      await typeInto(page, 'tokens', '1.5万亿');
      await waitChange(page, 'train-days', days);
      assert.equal(await page.locator(q('error-tokens')).count(), 0, '1.5万亿 is a number');
      assert.match(await reading(), /1\.50?万亿/, await reading());
    } else {
      assert.match(await reading(), /15\.6 T/, await reading());
    }
    assertClean(log, served());
  });
}
