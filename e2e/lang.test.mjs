// End-to-end tests of the two languages: the switch changes every word without losing the plan,
// is remembered, follows the browser's language on a first visit, and a page walked in Chinese
// shows no text from the English catalogue; screenshots of the drawing and the report in both.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import {
  DIST, SHOT, assertClean, harness, newContext, newPage, num, open, origin, q, served, text, typeInto, until, waitChange,
} from './harness.mjs';

harness();

// The catalogue's texts, each split at its placeholders into the literal pieces shown.
async function catalogue(lang) {
  const source = (await readFile(new URL(`text/${lang}.txt`, DIST), 'utf8'))
    + (await readFile(new URL(`text/${lang}.help.txt`, DIST), 'utf8'))
    + (await readFile(new URL(`text/${lang}.worker.txt`, DIST), 'utf8'));
  return source.split('\n').filter((l) => l.includes(' = ') && !l.startsWith('#'))
    .map((l) => l.slice(l.indexOf(' = ') + 3).trim().replace(/^"(.*)"$/, '$1'));
}

// Pieces of English that would give away an untranslated string: two words or more, not also
// in the Chinese catalogue (product and chip names are written the same in both).
async function englishPieces() {
  const zh = (await catalogue('zh-CN')).join('\n');
  const pieces = new Set();
  for (const text of await catalogue('en')) {
    for (const piece of text.split(/\{[a-z]+\}/)) {
      const p = piece.trim().replace(/^[;:,.()·]+|[;:,.()·]+$/g, '').trim();
      if (p.length >= 10 && /[a-z]{3,} [a-z]{2,}/i.test(p) && !zh.includes(p)) pieces.add(p);
    }
  }
  return [...pieces];
}

// Every word the page shows: visible text and the text of titles, labels and alternatives.
const pageWords = (page) => page.evaluate(() => {
  const attrs = [...document.querySelectorAll('[title],[aria-label],[alt],[placeholder]')]
    .flatMap((e) => ['title', 'aria-label', 'alt', 'placeholder'].map((a) => e.getAttribute(a) ?? ''));
  return [document.body.innerText, ...attrs].join('\n');
});

const speaks = (page, lang) => until(page, `the page in ${lang}`, (l) => document.documentElement.lang === l, lang);

test('switching to Chinese keeps the plan, words everything in Chinese, and is remembered', async (t) => {
  const log = { errors: [], requests: [] };
  const context = await newContext(t);
  const page = await newPage(context, log);
  await open(page, `${origin}/`);
  await speaks(page, 'en');
  const days = await text(page, 'train-days');
  await typeInto(page, 'chips', '8192');
  const later = await waitChange(page, 'train-days', days);

  // The same walk finds the English catalogue on the English page, so it would find a leftover.
  const pieces = await englishPieces();
  await until(page, 'the explanations', () => document.querySelectorAll('.help').length > 10);
  const english = await pageWords(page);
  assert.ok(pieces.filter((p) => english.includes(p)).length >= 20, 'the walk sees English where there is English');

  await page.selectOption(q('lang'), 'zh-CN');
  await speaks(page, 'zh-CN');
  await until(page, 'the cards in Chinese', (s) => /天/.test(document.querySelector(s)?.textContent ?? ''), q('train-days'));
  await until(page, 'the explanations in Chinese', () => [...document.querySelectorAll('.help')].some((h) => /[\u4e00-\u9fff]/.test(h.title)));
  assert.equal(num(await text(page, 'train-days')), num(later), 'the same plan, in other words');
  assert.equal(await page.inputValue(q('chips')), '8192', 'the form kept its value');
  assert.match(await text(page, 'chip-hours'), /万|亿/, 'large counts in 万 or 亿');

  // Run a search so the worker's wording is on the page too, and unfold every folded section
  // but the accuracy table, whose rows quote the published papers.
  await page.click(q('search'));
  await until(page, 'the search results', (s) => document.querySelectorAll(s).length > 0, q('search-row'));
  await page.evaluate(() => document.querySelectorAll('details:not([data-testid="accuracy"])').forEach((d) => { d.open = true; }));
  const words = await pageWords(page);
  const left = pieces.filter((p) => words.includes(p));
  assert.deepEqual(left, [], 'English catalogue text on the Chinese page');
  assert.ok(/[\u4e00-\u9fff]/.test(words) && words.length > 2000, 'the page says a lot, in Chinese');
  // The comparison, a sizing, the catalog and the printed report speak Chinese too.
  await page.click(q('compare'));
  await typeInto(page, 'chips', '4096');
  await until(page, 'the comparison', (s) => !!document.querySelector(s), q('compare-name-b'));
  await typeInto(page, 'size-deadline', '120');
  await page.click(q('size'));
  await until(page, 'the sizing', (s) => document.querySelector(s)?.querySelectorAll('tbody tr').length > 0, q('size-results'));
  await page.evaluate(() => document.querySelectorAll('details:not([data-testid="accuracy"])').forEach((d) => { d.open = true; }));
  await page.emulateMedia({ media: 'print' });
  const printed = await pageWords(page);
  await page.emulateMedia({ media: 'screen' });
  assert.ok(printed.includes('NVIDIA H100 SXM5 80GB × 4,096'), 'the walk reads the comparison');
  assert.deepEqual(pieces.filter((p) => printed.includes(p)), [], 'English on the Chinese comparison, sizing, catalog or report');
  await page.locator(q('sketch')).scrollIntoViewIfNeeded();
  await page.locator(q('sketch')).screenshot({ path: fileURLToPath(new URL('sketch-zh-CN.png', SHOT)) });

  // Remembered across visits, and its words fetched beside the code from the first request on
  // (index.html reads the same remembered choice as the page).
  const before = log.requests.length;
  await page.reload();
  await open(page, page.url());
  await speaks(page, 'zh-CN');
  const again = log.requests.slice(before).map((u) => u.split('/').pop());
  assert.ok(again.includes('zh-CN.txt') && !again.includes('en.txt'), again.join(' '));
  assert.ok(again.indexOf('zh-CN.txt') < again.findIndex((u) => u.endsWith('.wasm')), again.join(' '));
  await page.selectOption(q('lang'), 'en');
  await speaks(page, 'en');
  await until(page, 'the cards in English', (s) => /days/.test(document.querySelector(s)?.textContent ?? ''), q('train-days'));
  assertClean(log, served());
});

test('a first visit follows the browser\'s language', async (t) => {
  const log = { errors: [], requests: [] };
  const page = await newPage(await newContext(t, { locale: 'zh-CN' }), log);
  await open(page, `${origin}/`);
  await speaks(page, 'zh-CN');
  assert.equal(await page.inputValue(q('lang')), 'zh-CN');
  assert.match(await text(page, 'train-days'), /天/);
  // The words were fetched once, beside the code (index.html preloads the language the page
  // opens in), and the other language's not at all.
  const words = (name) => log.requests.filter((u) => u.endsWith(`/text/${name}.txt`)).length;
  assert.equal(words('zh-CN'), 1, log.requests.join('\n'));
  assert.equal(words('en'), 0, log.requests.join('\n'));
  const order = log.requests.map((u) => u.split('/').pop());
  assert.ok(order.indexOf('zh-CN.txt') < order.findIndex((u) => u.endsWith('.wasm')), order.join(' '));
  assertClean(log, served());
});

test('the report prints in either language', async (t) => {
  const log = { errors: [], requests: [] };
  const page = await newPage(await newContext(t, { viewport: { width: 900, height: 1200 } }), log);
  await open(page, `${origin}/`);
  await page.evaluate(() => { window.print = () => {}; });
  for (const lang of ['en', 'zh-CN']) {
    await page.selectOption(q('lang'), lang);
    await speaks(page, lang);
    await page.click(q('report'));
    await page.emulateMedia({ media: 'print' });
    await page.screenshot({ path: fileURLToPath(new URL(`report-${lang}.png`, SHOT)), fullPage: true });
    const pdf = await page.pdf({ format: 'A4', printBackground: true });
    assert.equal(pdf.subarray(0, 5).toString(), '%PDF-');
    await page.emulateMedia({ media: 'screen' });
  }
  assertClean(log, served());
});

test('standalone.html speaks Chinese offline, from the catalogues it carries', async (t) => {
  const log = { errors: [], requests: [] };
  const page = await newPage(await newContext(t, { locale: 'zh-CN' }), log);
  await open(page, new URL('standalone.html', DIST).href, 20_000);
  await speaks(page, 'zh-CN');
  await page.selectOption(q('lang'), 'en');
  await speaks(page, 'en');
  assert.match(await text(page, 'train-days'), /days/);
  assertClean(log, ['file:', 'data:', 'blob:']);
});
