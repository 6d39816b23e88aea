// Load time as users feel it: from navigation to the first result (the days-to-train card
// filled) in headless Chromium, under the network and CPU throttling Chromium's DevTools
// offer, with dist/ served gzip-compressed as a static host serves it and nothing cached.
// Prints one BENCH line per profile (the median of its runs) and what the first load
// transferred. A benchmark, not a test: its targets are read from the figures, not asserted.
//
//   node e2e/load.bench.mjs            (after `trunk build --release`)
import { createServer } from 'node:http';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { DIST, ROOT, LAUNCH, MIME, q } from './harness.mjs';

// DevTools' presets: Fast 4G is 9 Mb/s down, 1.5 Mb/s up, 60 ms; Slow 4G 1.6 Mb/s down,
// 750 kb/s up, 150 ms (Chromium, front_end/core/sdk/NetworkManager.ts). CPU slowdowns as a
// mid-range and a low-end phone are usually emulated.
const PROFILES = [
  { name: 'unthrottled', width: 1280, cpu: 1 },
  { name: 'fast_4g_cpu2', width: 1280, cpu: 2, net: { latency: 60, down: 9e6, up: 1.5e6 }, target: 800 },
  { name: 'slow_4g_cpu4_390px', width: 390, cpu: 4, net: { latency: 150, down: 1.6e6, up: 0.75e6 }, target: 2500 },
];
const RUNS = Number(process.env.LOAD_RUNS ?? 5);

const cache = new Map();
async function body(file) {
  if (!cache.has(file)) {
    const raw = await readFile(file);
    cache.set(file, gzipSync(raw, { level: 9 }));
  }
  return cache.get(file);
}

// dist/ as a static host serves it: known types only, gzip, no caching.
function serve(req, res) {
  let path = '';
  try {
    path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
  } catch {}
  if (path.endsWith('/')) path += 'index.html';
  const file = normalize(join(ROOT, path));
  const type = MIME[extname(file)];
  if (!file.startsWith(ROOT) || !type) return res.writeHead(404).end();
  body(file).then(
    (gz) => res.writeHead(200, { 'content-type': type, 'content-encoding': 'gzip', 'cache-control': 'no-store' }).end(gz),
    () => res.writeHead(404).end(),
  );
}

// One load: milliseconds from navigation to the first result, and bytes over the wire until then.
async function load(browser, origin, profile) {
  const context = await browser.newContext({ viewport: { width: profile.width, height: 900 } });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  let bytes = 0;
  cdp.on('Network.loadingFinished', (e) => (bytes += e.encodedDataLength));
  if (profile.net) {
    const { latency, down, up } = profile.net;
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false, latency, downloadThroughput: down / 8, uploadThroughput: up / 8,
    });
  }
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: profile.cpu });
  await page.goto(`${origin}/`, { waitUntil: 'commit' });
  // performance.now() counts from the navigation's start; polled every frame.
  const handle = await page.waitForFunction(
    (s) => (document.querySelector(s)?.textContent.trim() ? performance.now() : false),
    q('train-days'), { polling: 'raf', timeout: 60_000 },
  );
  const ms = await handle.jsonValue();
  const first = bytes;
  await context.close();
  return { ms, bytes: first };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

if (!existsSync(new URL('index.html', DIST))) {
  console.error(`${ROOT}index.html is missing: run \`trunk build --release\``);
  process.exit(1);
}
const server = createServer(serve);
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${server.address().port}`;
const browser = await chromium.launch(LAUNCH);
try {
  await load(browser, origin, PROFILES[0]); // warm the server's gzip cache and the browser
  for (const profile of PROFILES) {
    const runs = [];
    for (let i = 0; i < RUNS; i++) runs.push(await load(browser, origin, profile));
    const ms = runs.map((r) => r.ms);
    const kb = median(runs.map((r) => r.bytes)) / 1000;
    const target = profile.target ? ` target_ms=${profile.target}` : '';
    console.log(`BENCH load_${profile.name}_ms=${median(ms).toFixed(0)} (${ms.map((x) => x.toFixed(0)).join(', ')}) transferred_kb=${kb.toFixed(1)}${target}`);
  }
} finally {
  await browser.close();
  server.close();
}
