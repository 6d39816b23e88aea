// Not a test of speed: times the page's full plan search of the default plan (Llama 3.1 405B
// on 16,384 H100), click to ranked plans, on one, two and four workers (the page told so
// through `clusterplan.workers` in local storage), and prints each as a BENCH line with its
// ratio to one worker. Each count is timed five times after two warm-ups, the median kept, each
// on a page reloaded and settled (its plots drawn) as a user finds it before searching.
import { chromium } from 'playwright-core';
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { LAUNCH, MIME, ROOT, q } from './harness.mjs';

const RUNS = 5;
// Searches first run and dropped: the browser's compiled code for the workers settles over them.
const WARM_UPS = 2;

// The page as a user finds it before searching: its result and plots drawn, and the workers
// for the next search, started beside the plots', ready (`data-workers-ready`).
async function settled(page) {
  await page.waitForFunction((s) => document.querySelector(s)?.textContent.trim(), q('train-days'), { timeout: 30000 });
  await page.waitForFunction((s) => document.querySelector(`${s} svg rect > title`), q('plot-step-timeline'), { timeout: 30000 });
  await page.waitForFunction(() => document.documentElement.hasAttribute('data-workers-ready'), null, { timeout: 30000 });
}

const server = createServer((req, res) => {
  let path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
  if (path.endsWith('/')) path += 'index.html';
  const file = normalize(join(ROOT, path));
  const type = MIME[extname(file)];
  if (!file.startsWith(ROOT) || !type) return res.writeHead(404).end();
  readFile(file).then((b) => res.writeHead(200, { 'content-type': type }).end(b), () => res.writeHead(404).end());
});
await new Promise((done) => server.listen(0, '127.0.0.1', done));
const origin = `http://127.0.0.1:${server.address().port}`;
const browser = await chromium.launch(LAUNCH);
const cores = await (await browser.newPage()).evaluate(() => navigator.hardwareConcurrency);
const times = {};
const all = {};
for (const workers of [1, 2, 4]) {
  const page = await browser.newPage();
  await page.goto(`${origin}/`);
  await page.evaluate((n) => localStorage.setItem('clusterplan.workers', String(n)), workers);
  await page.reload();
  await settled(page);
  const runs = [];
  for (let i = 0; i < WARM_UPS + RUNS; i++) {
    const ms = await page.evaluate(async ([button, done]) => {
      const start = performance.now();
      document.querySelector(button).click();
      await new Promise((resolve) => {
        const check = () => (document.querySelector(done) ? resolve() : requestAnimationFrame(check));
        requestAnimationFrame(check);
      });
      return performance.now() - start;
    }, [q('search'), q('search-yours')]);
    if (i >= WARM_UPS) runs.push(ms);
    // The next search starts from a page without a result.
    await page.reload();
    await settled(page);
  }
  all[workers] = runs.map((ms) => ms.toFixed(0)).join(', ');
  runs.sort((a, b) => a - b);
  times[workers] = runs[Math.floor(runs.length / 2)];
  await page.close();
}
for (const workers of [1, 2, 4]) {
  const ratio = times[workers] / times[1];
  console.log(`BENCH pool_search_405b_workers_${workers}_ms=${times[workers].toFixed(0)} ratio=${ratio.toFixed(2)} cores=${cores} (${all[workers]})`);
}
await browser.close();
server.close();
