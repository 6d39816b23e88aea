// Not a test of speed: times the page's full plan search of the default plan (Llama 3.1 405B
// on 16,384 H100) and of DeepSeek-V3 on 2,048 H800, click to ranked plans, on one, two and four workers (the page told so
// through `clusterplan.workers` in local storage), and prints each as a BENCH line with its
// ratio to one worker. The counts take turns for four rounds of warm-up and five timed, the
// median kept, each on a page reloaded and settled as a user finds it before searching.
import { chromium } from 'playwright-core';
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { LAUNCH, MIME, ROOT, q } from './harness.mjs';

const RUNS = 5;
// Searches first run and dropped: the browser's compiled code for the workers settles over them.
const WARM_UPS = 4;

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
const COUNTS = [1, 2, 4];
// The default plan, and a heavier search: DeepSeek-V3 on 2,048 H800.
const WORKLOADS = {
  '405b': '',
  'deepseek_v3': '#s=1.' + Buffer.from(JSON.stringify({
    model: { preset: 'deepseek-v3' }, training: { tokens: '14.8T', global_batch: 15360, recipe: 'fp8' },
    cluster: { chip: 'h800', chips: 2048 }, parallelism: { tp: 1, pp: 16, ep: 64 },
  })).toString('base64url'),
};
const page = await browser.newPage();
for (const [name, fragment] of Object.entries(WORKLOADS)) {
  const runs = Object.fromEntries(COUNTS.map((n) => [n, []]));
  await page.goto(`${origin}/${fragment}`);
  // Round by round, each count in turn, so the browser's compiled code settling over a
  // session favours none of them.
  for (let round = 0; round < WARM_UPS + RUNS; round++) {
    for (const workers of COUNTS) {
      await page.evaluate((n) => localStorage.setItem('clusterplan.workers', String(n)), workers);
      await page.reload();
      await settled(page);
      const ms = await page.evaluate(async ([button, done]) => {
        const start = performance.now();
        document.querySelector(button).click();
        await new Promise((resolve) => {
          const check = () => (document.querySelector(done) ? resolve() : requestAnimationFrame(check));
          requestAnimationFrame(check);
        });
        return performance.now() - start;
      }, [q('search'), q('search-yours')]);
      if (round >= WARM_UPS) runs[workers].push(ms);
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const one = median(runs[1]);
  for (const workers of COUNTS) {
    const ms = median(runs[workers]);
    const all = runs[workers].map((x) => x.toFixed(0)).join(', ');
    console.log(`BENCH pool_search_${name}_workers_${workers}_ms=${ms.toFixed(0)} ratio=${(ms / one).toFixed(2)} cores=${cores} (${all})`);
  }
}
await browser.close();
server.close();
