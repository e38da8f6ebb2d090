// Shared browser-test harness: serves the built site (dist/) with vite preview on a free port and
// drives Debian's Chromium through playwright-core. Collects console errors and warnings so tests
// can assert that a page ran clean.
import { chromium } from 'playwright-core';
import { preview } from 'vite';
import { existsSync, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { builtCli } from '../wasm/helpers.mjs';

export const repoRoot = resolve(import.meta.dirname, '../..');
export const artifactsDir = resolve(repoRoot, 'artifacts/screenshots');

// The native CLI a test compares with (builtCli). Under scripts/test.sh the native build runs
// beside the browser tests: ATTNSVM_NATIVE_BUILD_MARKS (its "built" and "failed" marks, ':'-separated)
// makes this wait for that build to end, so whether a comparison runs does not depend on which
// pipeline is ahead (a cold run's ASan build can end after a file that needs the CLI has started).
export async function findNativeCli() {
  const marks = (process.env.ATTNSVM_NATIVE_BUILD_MARKS ?? '').split(':').filter(Boolean);
  while (marks.length && !marks.some((m) => existsSync(m))) await new Promise((r) => setTimeout(r, 1000));
  return builtCli();
}

// dist: another built site to serve (e.g. main's build, for a before/after measurement).
// ATTNSVM_SITE_URL (set by scripts/test.sh, served by scripts/browser-host.mjs for the whole run):
// that server of dist/ instead of a new one, unless another site or port is asked for (own: always
// a new one: the host's own).
export async function serveSite({ port = 0, dist, own = false } = {}) {
  if (process.env.ATTNSVM_SITE_URL && !dist && !port && !own) {
    return { url: process.env.ATTNSVM_SITE_URL.replace(/\/?$/, '/'), close: async () => {} };
  }
  const server = await preview({
    configFile: resolve(repoRoot, 'vite.config.js'),
    logLevel: 'silent',
    ...(dist ? { build: { outDir: resolve(dist) } } : {}),
    preview: { host: '127.0.0.1', port, strictPort: false, open: false },
  });
  const url = server.resolvedUrls.local[0];
  return { url, close: () => new Promise((r) => server.httpServer.close(r)) };
}

export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

// ATTNSVM_BROWSER_WS (set by scripts/test.sh): connect to the run's one Chromium
// (scripts/browser-host.mjs, the same flags) instead of starting one; close() then closes this file's
// contexts and disconnects. Each page still gets a context of its own (openPage).
export async function launchBrowser() {
  const browser = process.env.ATTNSVM_BROWSER_WS ? await chromium.connect(process.env.ATTNSVM_BROWSER_WS)
    : await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (...args) => {
    const context = await newContext(...args);
    const newPage = context.newPage.bind(context);
    context.newPage = async (...a) => pollByTimer(await newPage(...a));
    return context;
  };
  return browser;
}

// Playwright's waitForFunction polls on every animation frame by default ('raf'): a page with nothing
// to draw then still makes 60 frames a second for as long as the test waits (0.11 CPU-s per second of
// waiting on an idle lab, against 0.02 with a 100 ms timer; measured). The browser tests wait for the
// engine, workers and runs, so they poll by a timer unless a call asks otherwise (polling: 'raf'). Set
// on the classes' prototypes (page and frame, iframes included) by the first page a context makes.
// harness.test.mjs checks that it still applies (a Playwright upgrade could move the method).
export const POLL_MS = 50;
function pollByTimer(page) {
  for (const proto of [Object.getPrototypeOf(page), Object.getPrototypeOf(page.mainFrame())]) {
    if (Object.hasOwn(proto, 'attnsvmPollByTimer')) continue;
    const waitForFunction = proto.waitForFunction;
    proto.waitForFunction = function (fn, arg, options = {}) { return waitForFunction.call(this, fn, arg, { polling: POLL_MS, ...options }); };
    proto.attnsvmPollByTimer = true;
  }
  return page;
}

// Waits until every figure `figures()` returns (run in the page: embed.html's window.__embed, an
// <attnsvm-figure> element, or both) is paused with no step in flight: worker-engine.js delivers the step
// in flight at a pause by design, so a figure read right after pause() can still move by one step.
export async function waitFiguresSettled(page, figures, { timeout = 10000 } = {}) {
  await page.waitForFunction(`(${figures})().every((f) => !f.info().playing && !f.info().busy)`, null, { timeout });
}

// Opens a page and records console errors/warnings and uncaught page errors in `problems`.
// context: a context of the caller's to open the page in (its pages share the HTTP cache; the page gets
// the viewport); the `context` returned then closes only this page.
export async function openPage(browser, url, { viewport = { width: 1280, height: 800 }, context: shared, ...options } = {}) {
  const context = shared ? null : await browser.newContext({ viewport, ...options });
  const page = await (shared ?? context).newPage();
  if (shared) await page.setViewportSize(viewport);
  const problems = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  await page.goto(url);
  return { page, context: context ?? { close: () => page.close() }, problems };
}

// A screenshot for a reader to look at (artifacts/screenshots/NAME.png; no assertion reads one), of a
// page, locator or element handle. ATTNSVM_SCREENSHOTS=0 (scripts/test.sh's functional browser stage)
// skips them: 0.3-0.5 CPU-s each (capture and PNG encoding; a full-page one more), about 30 a run.
export const screenshotsWanted = () => process.env.ATTNSVM_SCREENSHOTS !== '0';
export async function shot(target, name, options = {}) {
  if (screenshotsWanted()) await target.screenshot({ path: screenshotPath(name), ...options });
}

export function screenshotPath(name) {
  mkdirSync(artifactsDir, { recursive: true });
  return resolve(artifactsDir, `${name}.png`);
}
