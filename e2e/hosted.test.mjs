// The hosted page behind a real server: scripts/serve.sh runs nginx with deploy/clusterplan.nginx
// on dist/. Every file comes precompressed with its type, the hashed ones cached for a year and
// the rest revalidated, the page's Content-Security-Policy as a header with its inline scripts
// pinned by hash, the server's version unsaid; the page and its worker load compressed in
// Chromium and log nothing; the single file served beside it runs with its own policy; nginx's
// workers never run as root.
import { createHash } from 'node:crypto';
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { LAUNCH, WAIT, assertClean, hasText, q, until } from './harness.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
let server, origin, browser;

// A port nothing listens on.
const freePort = () => new Promise((resolve) => {
  const probe = createServer().listen(0, '127.0.0.1', () => {
    const { port } = probe.address();
    probe.close(() => resolve(port));
  });
});

// The server's answer to `path`, asking for the encodings given.
const get = (path, encodings = 'br, gzip') => fetch(`${origin}${path}`, { headers: { 'accept-encoding': encodings } });

before(async () => {
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  server = spawn('bash', ['scripts/serve.sh'], { cwd: ROOT, env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'inherit', 'pipe'] });
  let said = '';
  server.stderr.on('data', (d) => { said += d; });
  const exited = new Promise((resolve) => server.on('exit', (code) => resolve(code)));
  // Ready once it answers: nginx listens before it serves, so the first answer is the real one.
  const deadline = Date.now() + WAIT;
  for (;;) {
    const code = await Promise.race([exited, get('/').then(() => 'up', () => null)]);
    if (code === 'up') break;
    assert.ok(typeof code !== 'number', `scripts/serve.sh exited (${code}): ${said}`);
    assert.ok(Date.now() < deadline, `nginx did not answer at ${origin}: ${said}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
  browser = await chromium.launch(LAUNCH);
});

after(async () => {
  await browser?.close();
  server?.kill('SIGTERM');
});

// A page in a context of its own (closed when the test ends) whose console, errors and requests
// are logged.
async function loggedPage(t) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  t.after(() => context.close());
  const page = await context.newPage();
  const log = { errors: [], requests: [] };
  page.on('console', (m) => ['error', 'warning'].includes(m.type()) && log.errors.push(`console ${m.type()}: ${m.text()}`));
  page.on('pageerror', (e) => log.errors.push(`pageerror: ${e.message}`));
  page.on('request', (r) => log.requests.push(r.url()));
  return { context, page, log };
}

test('every file is served precompressed, typed and cached as it should be', async () => {
  const page = await get('/');
  assert.equal(page.status, 200);
  assert.equal(page.headers.get('content-type'), 'text/html; charset=utf-8');
  assert.equal(page.headers.get('content-encoding'), 'br');
  assert.equal(page.headers.get('cache-control'), 'no-cache', 'the page is revalidated on every load');
  assert.equal(page.headers.get('x-content-type-options'), 'nosniff');
  const html = await page.text();
  // The policy the page states in its <meta>, and more, as a header.
  const meta = html.match(/content="([^"]*)"\s+http-equiv=Content-Security-Policy/)?.[1]
    ?? html.match(/http-equiv=Content-Security-Policy[^>]*content="([^"]*)"/)?.[1];
  assert.ok(meta, 'the page states its policy');
  const header = page.headers.get('content-security-policy') ?? '';
  for (const directive of meta.split(';').map((d) => d.trim())) {
    assert.ok(header.includes(directive), `the header lacks "${directive}": ${header}`);
  }
  assert.match(header, /frame-ancestors 'none'/);
  // No inline script runs unless the policy names its hash: the page's two are pinned.
  const scriptSrc = header.split(';').map((d) => d.trim()).find((d) => d.startsWith('script-src ')) ?? '';
  assert.ok(!scriptSrc.includes("'unsafe-inline'"), `script-src allows any inline script: ${scriptSrc}`);
  const inline = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)].filter((m) => !/\bsrc=/.test(m[1]));
  assert.equal(inline.length, 2, 'the words fetcher and the loader');
  for (const [, , body] of inline) {
    const hash = `'sha256-${createHash('sha256').update(body, 'utf8').digest('base64')}'`;
    assert.ok(scriptSrc.includes(hash), `an inline script is not pinned: ${body.slice(0, 60)}`);
  }
  // The server says what it is, not which version; the header's source is not served.
  assert.equal(page.headers.get('server'), 'nginx');
  assert.equal((await get('/csp.nginx')).status, 404);

  // The hashed files the page names: a year, immutable.
  const hashed = [...html.matchAll(/(?:href|from|module_or_path:)\s*=?\s*['"]?\/([\w.-]+-[0-9a-f]{12,}(?:_bg)?\.(?:js|wasm|css))/g)].map((m) => m[1]);
  const kinds = new Set(hashed.map((f) => f.split('.').pop()));
  assert.deepEqual([...kinds].sort(), ['css', 'js', 'wasm'], `hashed files: ${hashed}`);
  const types = { js: 'application/javascript', wasm: 'application/wasm', css: 'text/css' };
  for (const file of new Set(hashed)) {
    const r = await get(`/${file}`);
    assert.equal(r.status, 200, file);
    assert.match(r.headers.get('content-type'), new RegExp(`^${types[file.split('.').pop()]}`), file);
    assert.equal(r.headers.get('content-encoding'), 'br', file);
    assert.equal(r.headers.get('cache-control'), 'public, max-age=31536000, immutable', file);
    const raw = await readFile(new URL(`../dist/${file}`, import.meta.url));
    assert.deepEqual(Buffer.from(await r.arrayBuffer()), raw, `${file} arrives as built`);
  }
  // The worker and the words keep their names, so they are revalidated.
  for (const [file, type] of [['/clusterplan-worker_bg.wasm', 'application/wasm'], ['/clusterplan-worker.js', 'application/javascript; charset=utf-8'],
    ['/search-worker.js', 'application/javascript; charset=utf-8'], ['/text/zh-CN.txt', 'text/plain; charset=utf-8']]) {
    const r = await get(file);
    assert.equal(r.status, 200, file);
    assert.equal(r.headers.get('content-type'), type, file);
    assert.equal(r.headers.get('content-encoding'), 'br', file);
    assert.equal(r.headers.get('cache-control'), 'no-cache', file);
  }
  // A client without brotli gets gzip; one without either gets the file as it is.
  assert.equal((await get('/text/en.txt', 'gzip')).headers.get('content-encoding'), 'gzip');
  assert.equal((await get('/text/en.txt', 'identity')).headers.get('content-encoding'), null);
  assert.equal((await get('/no-such-file.js')).status, 404);
});

test('the hosted page and its worker load compressed and log nothing', async (t) => {
  const { context, page, log } = await loggedPage(t);
  const encodings = new Map();
  context.on('response', (r) => encodings.set(new URL(r.url()).pathname, r.headers()['content-encoding']));
  await page.goto(`${origin}/`);
  await until(page, 'the first result', hasText, q('train-days'));
  // The plots come from the worker, so a drawn plot means the worker loaded.
  await until(page, 'a plot from the worker', (s) => document.querySelector(s)?.querySelector('svg'), q('plot-step'));
  for (const path of ['/', '/clusterplan-worker_bg.wasm', '/clusterplan-worker.js', '/search-worker.js']) {
    assert.ok(['br', 'gzip'].includes(encodings.get(path)), `${path} came ${encodings.get(path) ?? 'uncompressed'}`);
  }
  const wasm = [...encodings.keys()].find((p) => /clusterplan-app-[0-9a-f]+_bg\.wasm$/.test(p));
  assert.ok(wasm && ['br', 'gzip'].includes(encodings.get(wasm)), `the page's wasm came ${encodings.get(wasm)}`);
  assertClean(log, [`${origin}/`, 'data:', 'blob:']);
});

test('the single file served beside the page runs with its own policy', async (t) => {
  const r = await get('/standalone.html');
  assert.equal(r.status, 200);
  const header = r.headers.get('content-security-policy') ?? '';
  assert.match(header, /worker-src[^;]*blob:/, `its worker may start: ${header}`);
  assert.match(header, /frame-ancestors 'none'/);
  assert.equal(r.headers.get('cache-control'), 'no-cache');
  assert.equal(r.headers.get('x-content-type-options'), 'nosniff');
  assert.equal((await get('/csp-standalone.nginx')).status, 404);
  const { page, log } = await loggedPage(t);
  await page.goto(`${origin}/standalone.html`);
  await until(page, 'the single file\'s first result', hasText, q('train-days'));
  await until(page, 'a plot from its worker', (s) => document.querySelector(s)?.querySelector('svg'), q('plot-step'));
  assertClean(log, [`${origin}/standalone.html`, 'data:', 'blob:']);
});

test("nginx's workers never run as root", () => {
  const master = execFileSync('cat', [fileURLToPath(new URL('../target/nginx/nginx.pid', import.meta.url))]).toString().trim();
  const users = execFileSync('ps', ['-o', 'uid=', '--ppid', master]).toString().trim().split(/\s+/).map(Number);
  assert.ok(users.length > 0, 'a worker runs');
  assert.ok(users.every((uid) => uid !== 0), `workers' uids: ${users}`);
});
