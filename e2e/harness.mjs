// Shared by the end-to-end tests: a static server for dist/ on 127.0.0.1, Debian's Chromium
// headless, pages whose console errors, warnings and requests are logged, and DOM-condition waits (no sleeps).
import { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const DIST = new URL('../dist/', import.meta.url);
export const ROOT = fileURLToPath(DIST);
export const SHOT = new URL('../target/e2e/planner.png', import.meta.url);
export const MIME = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.wasm': 'application/wasm',
  '.css': 'text/css', '.txt': 'text/plain; charset=utf-8', '.json': 'application/json', '.svg': 'image/svg+xml', '.png': 'image/png',
};
export const LAUNCH = {
  executablePath: '/usr/bin/chromium', headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
};
export const OUTPUTS = ['train-days', 'mfu', 'step-time', 'memory-per-chip', 'chip-hours'];
export const WAIT = 10_000;

let server, browser;
export let origin;

// Static files from dist/: known types only, nothing outside dist/, 404 otherwise.
function serve(req, res) {
  let path;
  try {
    path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
  } catch {
    path = '';
  }
  if (path.endsWith('/')) path += 'index.html';
  const file = normalize(join(ROOT, path));
  const type = MIME[extname(file)];
  if (!file.startsWith(ROOT) || !type || req.method !== 'GET') {
    res.writeHead(404).end('not found');
    return;
  }
  readFile(file).then(
    (body) => res.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' }).end(body),
    () => res.writeHead(404).end('not found'),
  );
}

export function harness() {
before(async () => {
  assert.ok(existsSync(new URL('index.html', DIST)), `${ROOT}index.html is missing: run \`trunk build --release\``);
  server = createServer(serve);
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${server.address().port}`;
  browser = await chromium.launch(LAUNCH);
});

after(async () => {
  await browser?.close();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve()));
});
}

export const q = (id) => `[data-testid="${id}"]`;

// A fresh context for the test (closed when it ends) and a page whose errors and requests are logged.
export async function newContext(t, options = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
  t.after(() => context.close());
  return context;
}

export const logs = new WeakMap();

export async function newPage(context, log) {
  const page = await context.newPage();
  logs.set(page, log);
  page.setDefaultTimeout(WAIT);
  // Warnings count as errors: a page put in front of a customer logs nothing.
  page.on('console', (m) => ['error', 'warning'].includes(m.type()) && log.errors.push(`console ${m.type()}: ${m.text()}`));
  page.on('pageerror', (e) => log.errors.push(`pageerror: ${e.message}`));
  page.on('request', (r) => log.requests.push(r.url()));
  return page;
}

// page.waitForFunction, but a time-out also tells what the page logged (a failed load says why there).
export async function until(page, what, predicate, arg, timeout = WAIT) {
  try {
    await page.waitForFunction(predicate, arg, { timeout });
  } catch (e) {
    const errors = logs.get(page)?.errors ?? [];
    throw new Error(`waiting for ${what}: ${e.message.split('\n')[0]}\nerrors on the page: ${JSON.stringify(errors, null, 1)}`);
  }
}

export const hasText = (s) => document.querySelector(s)?.textContent.trim();

// The app is ready once the days-to-train output has text.
export async function open(page, url, timeout = WAIT) {
  await page.goto(url);
  await until(page, `the app at ${url.slice(0, 80)}`, hasText, q('train-days'), timeout);
}

export const text = async (page, id) => (await page.locator(q(id)).textContent()).trim();

// The number in an output like "61.8 days", "1,234 chip-h", "40.6 %".
export function num(s) {
  const m = s.replace(/[,\u00a0\u2009\u202f]/g, '').match(/-?\d+(\.\d+)?(e[-+]?\d+)?/i);
  assert.ok(m, `no number in ${JSON.stringify(s)}`);
  return Number(m[0]);
}

// Real keyboard input: focus, select all, type.
export async function typeInto(page, id, value) {
  await page.click(q(id));
  await page.keyboard.press('Control+A');
  await page.keyboard.type(value);
  // Let the app render the last keystroke before the test reads the page: two frames, so a
  // render scheduled by the last input event has run.
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
}

export async function waitChange(page, id, before) {
  await until(page, `${id} to change from ${before}`, ([s, old]) => {
    const now = document.querySelector(s)?.textContent.trim();
    return now && now !== old;
  }, [q(id), before]);
  return text(page, id);
}

// Waits until the scenario JSON in the fragment (`#s=1.<base64url>`) has `"key": value` and output `id` left `old`.
export async function waitScenario(page, [key, value], id, old) {
  await until(page, `"${key}": ${value} in the fragment and ${id} to change`, ([key, value, s, old]) => {
    const b = (location.hash.match(/^#s=1\.([^&]*)/)?.[1] ?? '').replace(/-/g, '+').replace(/_/g, '/');
    let json = '';
    try {
      json = new TextDecoder().decode(Uint8Array.from(atob(b + '='.repeat((4 - (b.length % 4)) % 4)), (c) => c.charCodeAt(0)));
    } catch {}
    const now = document.querySelector(s)?.textContent.trim();
    return new RegExp(`"${key}"\\s*:\\s*"?${value}"?\\s*[,}]`).test(json) && now && now !== old;
  }, [key, value, q(id), old]);
  return text(page, id);
}

export function assertClean(log, allowed) {
  assert.deepEqual(log.errors, [], 'console errors or page errors');
  const stray = log.requests.filter((u) => !allowed.some((prefix) => u.startsWith(prefix)));
  assert.deepEqual(stray, [], 'requests outside the allowed origins');
}

export const served = () => [`${origin}/`, 'data:', 'blob:'];

// Chooses an option of a <select> by its value.
export async function select(page, id, value) {
  await page.selectOption(q(id), value);
}

// What a plot shows: whether it exists, the width its drawing was made at and is shown at, and
// whether it holds marks (a curve, or the parts of a bar).
export async function plotOf(page, id) {
  // The plots arrive from their worker a moment after the cards: wait for the drawing.
  await until(page, `${id} drawn by its worker`, (s) => {
    const svg = document.querySelector(`${s} svg`);
    return !!svg && svg.querySelectorAll('polyline').length + svg.querySelectorAll('rect').length > 3;
  }, q(id));
  return page.evaluate((s) => {
    const svg = document.querySelector(`${s} svg`);
    if (!svg) return { missing: true };
    const marks = svg.querySelectorAll('polyline').length + svg.querySelectorAll('rect').length - 1;
    return { width: Number(svg.getAttribute('width')), shown: svg.getBoundingClientRect().width, drawn: marks > 2 };
  }, q(id));
}
