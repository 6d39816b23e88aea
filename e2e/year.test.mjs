// End-to-end tests of the cluster's year in the page: pre-training, RL after it and a growing
// chat service on 8,192 H100 now and 4,608 GB300 from week 21 (docs/examples/year.json). The
// year draws its fleet and its jobs, shows the pre-training missing its date with the chips
// that would meet it and the purchase that makes every target hold, and its link reopens it;
// the panel starts a year from the plan, adds, names, gives a model, dates and removes a job,
// moves the first day, adds a delivery and a power cap in its form, refuses text that is not
// JSON, and removes the year. In English and Chinese.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  assertClean, harness, newContext, newPage, open, origin, q, served, text, until,
} from './harness.mjs';

harness();

const example = JSON.parse(readFileSync(new URL('../docs/examples/year.json', import.meta.url), 'utf8'));
const link = (s) => `${origin}/#s=1.${Buffer.from(JSON.stringify(s)).toString('base64url')}`;

for (const lang of ['en', 'zh-CN']) {
  const zh = lang === 'zh-CN';
  test(`${lang}: a year on H100 now and GB300 later misses a date and says what to buy`, async (t) => {
    const log = { errors: [], requests: [] };
    const page = await newPage(await newContext(t, { locale: lang }), log);
    await open(page, link(example));
    await until(page, 'the year drawn', (s) => !!document.querySelector(s), `${q('year-gantt')} svg`);
    const fleet = await page.locator(`${q('year-fleet')} svg`).innerHTML();
    assert.match(fleet, /GB300/, 'the GB300 delivery is marked');
    for (const job of ['pretrain', 'rl', 'chat']) assert.match(fleet, new RegExp(job));
    const gantt = await page.locator(`${q('year-gantt')} svg`).innerHTML();
    assert.match(gantt, /pretrain/);
    // The pre-training misses its date, in red, with the chips that would meet it.
    const missed = await text(page, 'year-deadlines');
    assert.match(missed, zh ? /误期：pretrain/ : /Misses its date: pretrain/, missed);
    assert.equal(await page.getAttribute(q('year-deadlines'), 'class'), 'bad');
    assert.match(await page.getAttribute(q('year-job-0'), 'class'), /miss/);
    const row = await text(page, 'year-job-0');
    assert.match(row, zh ? /即可按期/ : /would meet it/, row);
    assert.match(row, /2027-05-03/, 'the deadline as a date');
    // The purchase that makes every target hold.
    const buy = await text(page, 'year-buy');
    assert.match(buy, zh ? /采购 [\d,]+ 颗 NVIDIA H100/ : /Buy [\d,]+ NVIDIA H100 SXM5 80GB by 2027-\d\d-\d\d/, buy);
    assert.match(await text(page, 'year-serving'), zh ? /每周都能满足/ : /serves its whole peak every week/);
    assert.match(await text(page, 'year-cost'), /\$/);
    // The link reopens the same year.
    const again = await newPage(await newContext(t, { locale: lang }), log);
    await open(again, page.url());
    await until(again, 'the year reopened', (s) => !!document.querySelector(s), `${q('year-gantt')} svg`);
    assert.equal(await text(again, 'year-buy'), buy);
    assert.equal(await text(again, 'year-deadlines'), missed);
    assertClean(log, served());
  });

  test(`${lang}: the year panel starts a year, edits its jobs and deliveries, refuses bad text`, async (t) => {
    const log = { errors: [], requests: [] };
    const page = await newPage(await newContext(t, { locale: lang }), log);
    const plan = { ...example };
    delete plan.year;
    await open(page, link(plan));
    await until(page, 'the panel', (s) => !!document.querySelector(s), q('year-on'));
    assert.equal(await page.locator(q('year')).count(), 0, 'no year before one is asked for');
    await page.click(q('year-on'));
    await until(page, 'the year drawn', (s) => !!document.querySelector(s), `${q('year-gantt')} svg`);
    // The form: a job added, named and given a date, drawn; removed, gone.
    assert.equal(await page.locator(q('year-job')).count(), 3);
    assert.equal(await page.locator(q('year-delivery')).count(), 2);
    await page.click(q('year-job-add'));
    const drawn = (name) => (s) => (document.querySelector(s)?.innerHTML ?? '').includes(name);
    await until(page, 'the new job drawn', drawn('job 4'), `${q('year-gantt')} svg`);
    await page.fill(q('year-job-name-3'), 'eval');
    await page.dispatchEvent(q('year-job-name-3'), 'change');
    await until(page, 'the job renamed', drawn('eval'), `${q('year-gantt')} svg`);
    // Its own model and tokens: a hundredth of the plan's to start with.
    assert.ok(await page.inputValue(q('year-job-scenario-training-tokens-3')) !== '');
    await page.selectOption(q('year-job-model-3'), 'llama3-8b');
    await until(page, 'its model', (s) => document.querySelector(s)?.value === 'llama3-8b', q('year-job-model-3'));
    await page.fill(q('year-job-deadline-3'), '30');
    await until(page, 'its deadline', (s) => /2027-08-02/.test(document.querySelector(s)?.textContent ?? ''), q('year-job-3'));
    // A later first day moves every date with it.
    await page.fill(q('year-start'), '2027-02-01');
    await page.dispatchEvent(q('year-start'), 'change');
    await until(page, 'the dates moved', (s) => /2027-08-30/.test(document.querySelector(s)?.textContent ?? ''), q('year-job-3'));
    await page.click(q('year-job-remove-3'));
    await until(page, 'the job removed', (s) => !(document.querySelector(s)?.innerHTML ?? '').includes('eval'), `${q('year-gantt')} svg`);
    assert.match(await text(page, 'notice'), zh ? /已移除全年任务 4/ : /Removed job 4 of the year/);
    await page.click(q('year-delivery-add'));
    await until(page, 'a third delivery', (s) => document.querySelectorAll(s).length === 3, q('year-delivery'));
    // A power cap from week 0 at the cluster's own draw, marked on the fleet.
    await page.click(q('year-cap-add'));
    await until(page, 'the cap drawn', drawn(zh ? '限额' : 'cap '), `${q('year-fleet')} svg`);
    assert.equal(await page.locator(q('year-cap')).count(), 1);
    // The rest as text.
    await page.click(q('year-as-text'));
    const written = await page.inputValue(q('year-json'));
    assert.match(written, /"gb300"/);
    // Text that is not JSON is reported and changes nothing.
    const summary = await text(page, 'year-summary');
    await page.fill(q('year-json'), '{ "weeks": 52, ');
    await page.dispatchEvent(q('year-json'), 'change');
    await until(page, 'the notice', (s) => /JSON/.test(document.querySelector(s)?.textContent ?? ''), q('notice'));
    assert.equal(await text(page, 'year-summary'), summary);
    // A field out of range is named by its place.
    await page.fill(q('year-json'), JSON.stringify({ weeks: 0 }));
    await page.dispatchEvent(q('year-json'), 'change');
    await until(page, 'the error', (s) => /year\.weeks/.test(document.querySelector(s)?.textContent ?? ''), q('year-errors'));
    await page.click(q('year-off'));
    await until(page, 'no year', (s) => !document.querySelector(s), q('year'));
    assertClean(log, served());
  });
}
