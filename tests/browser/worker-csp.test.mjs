// The engine in its classic Web Worker under a strict Content-Security-Policy (no 'unsafe-eval'):
// the built test page dist/tests/csp.html runs a solve and 1000 training steps through the player.
// The site is served here by a tiny static server that sends the policy as a header on every
// response, because a worker's policy comes from its own script's response, not from the page's
// <meta> tag. A control run without 'wasm-unsafe-eval' must fail, which shows the policy does
// reach the worker.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, resolve, normalize } from 'node:path';
import { launchBrowser, openPage, repoRoot, shot } from './harness.mjs';

const STRICT = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; connect-src 'self'; " +
  "img-src 'self' data:; style-src 'self'; object-src 'none'; base-uri 'self'";
const NO_WASM = STRICT.replace(" 'wasm-unsafe-eval'", '');
const WITH_BLOB = STRICT.replace("script-src 'self'", "script-src 'self' blob:").replace("worker-src 'self'", "worker-src 'self' blob:");
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css',
  '.json': 'application/json', '.svg': 'image/svg+xml', '.png': 'image/png', '.woff2': 'font/woff2' };

function serveDist(policy) {
  const root = process.env.ATTNSVM_DIST ?? resolve(repoRoot, 'dist'); // override: test another build
  const server = createServer(async (req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
    try {
      const body = await readFile(resolve(root, `.${path}`));
      res.writeHead(200, { 'Content-Type': TYPES[extname(path)] ?? 'application/octet-stream', 'Content-Security-Policy': policy });
      res.end(body);
    } catch {
      res.writeHead(404, { 'Content-Security-Policy': policy });
      res.end('not found');
    }
  });
  return new Promise((ok) => server.listen(0, '127.0.0.1', () => ok({
    url: `http://127.0.0.1:${server.address().port}/`,
    close: () => new Promise((r) => server.close(r)),
  })));
}

// The page's own probe of eval is expected to be refused and reported; nothing else may be.
const unexpected = (problems) => problems.filter((p) => !/unsafe-eval|Refused to evaluate a string/i.test(p));

let browser;
before(async () => { browser = await launchBrowser(); });
after(async () => { await browser?.close(); });

test('worker engine under a strict CSP: a solve and 1000 player steps', { timeout: 60000 }, async (t) => {
  const diagnostic = (m) => t.diagnostic(m);
  const site = await serveDist(STRICT);
  try {
    const { page, problems, context } = await openPage(browser, `${site.url}tests/csp.html`);
    await page.waitForFunction(() => window.__result || window.__error, null, { timeout: 45000 });
    const err = await page.evaluate(() => window.__error ?? null);
    assert.equal(err, null);
    const r = await page.evaluate(() => window.__result);
    diagnostic(JSON.stringify(r.play));
    diagnostic(`[steps, ms] per frame: ${JSON.stringify(r.computeMs)}`);
    await shot(page, 'worker-csp');
    await context.close();
    assert.equal(r.evalBlocked, true, 'the page allowed eval: the CSP is not in force');
    assert.match(r.version, /^attnsvm /);
    assert.equal(r.solve.status, 'optimal');
    assert.ok(r.solve.gap <= 1e-8);
    assert.equal(r.play.iteration, 1000);
    assert.equal(r.play.recorded, 1001); // iterations 0..1000
    assert.ok(r.play.typed, 'trace arrays arrive as typed arrays');
    assert.ok(Math.abs(r.play.corr) <= 1, `corr with the SVM ${r.play.corr}`); // GD may pick another selection
    // The player's frame budget: 50 ms of wall time per frame is the bar on an idle machine
    // (LAB_PERF_STRICT=1, as the *-perf tests). This functional test runs beside the compiles of
    // npm test, where a frame's wall time measures the load (72 ms seen at load 17 with the same
    // code), so by default it only catches a player that stops adapting its steps per frame.
    const frameBar = process.env.LAB_PERF_STRICT === '1' ? 50 : 500;
    assert.ok(r.play.maxComputeMs < frameBar, `a frame computed for ${r.play.maxComputeMs} ms (bar ${frameBar} ms)`);
    assert.deepEqual(r.afterReset, [0, 1, 2, 3, 4, 5]);
    assert.match(r.workerError, /^AttnsvmError: .*p/);
    assert.match(r.afterCancel, /no run with id/);
    assert.deepEqual(r.violations.filter((v) => !/eval/.test(v)), []);
    assert.deepEqual(unexpected(problems), []);
  } finally {
    await site.close();
  }
});

test('control: without wasm-unsafe-eval the worker cannot compile the module', { timeout: 60000 }, async () => {
  const site = await serveDist(NO_WASM);
  try {
    const { page, context } = await openPage(browser, `${site.url}tests/csp.html`);
    await page.waitForFunction(() => window.__result || window.__error, null, { timeout: 45000 });
    const err = await page.evaluate(() => window.__error ?? null);
    await context.close();
    assert.ok(err, 'the module loaded although the policy forbids compiling WebAssembly');
  } finally {
    await site.close();
  }
});

test('embed path: the single-file module loaded in the worker from a Blob, CSP without unsafe-eval', { timeout: 60000 }, async () => {
  const site = await serveDist(WITH_BLOB);
  try {
    const { page, problems, context } = await openPage(browser, `${site.url}tests/single.html`);
    await page.waitForFunction(() => window.__result || window.__error, null, { timeout: 45000 });
    const err = await page.evaluate(() => window.__error ?? null);
    const r = await page.evaluate(() => window.__result);
    await context.close();
    assert.equal(err, null);
    assert.equal(r.status, 'optimal');
    assert.equal(r.iteration, 100);
    assert.deepEqual(problems, []);
  } finally {
    await site.close();
  }
});
