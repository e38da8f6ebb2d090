// Embeds (issue 7): the lecture-notes page on one origin with its figures (two iframes of
// embed.html, one <attnsvm-figure>) from another; the element alone on a plain page under a strict
// CSP; reduced motion. Numbers are read through the test hooks (window.__embed in the iframes,
// the element's properties), never from pixels. Screenshots go to artifacts/screenshots/embed-*.png.
//
// Needs the site build (npx vite build) and the element build (npx vite build -c
// vite.element.config.js, part of npm run build); the element is built here when dist/ lacks it
// (the site build empties dist/). ATTNSVM_DIST tests another build folder.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { existsSync, statSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { extname, resolve, normalize } from 'node:path';
import { launchBrowser, openPage, repoRoot, shot, screenshotsWanted, waitFiguresSettled } from './harness.mjs';

const dist = resolve(process.env.ATTNSVM_DIST ?? resolve(repoRoot, 'dist'));
const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css',
  '.json': 'application/json', '.svg': 'image/svg+xml', '.png': 'image/png', '.woff2': 'font/woff2' };

// A static server for dist/ with optional extra pages (path -> html), headers and a rewrite of
// HTML files (to point a page at the other origin).
function serve({ pages = {}, headers = {}, rewrite = null, prefix = '/' } = {}) {
  const server = createServer(async (req, res) => {
    let path = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
    if (!path.startsWith(prefix)) { res.writeHead(404, headers); res.end('not found'); return; }
    path = `/${path.slice(prefix.length)}`;
    try {
      let body = pages[path] ?? await readFile(resolve(dist, `.${path}`));
      if (rewrite && path.endsWith('.html')) body = rewrite(String(body));
      res.writeHead(200, { 'Content-Type': TYPES[extname(path)] ?? 'application/octet-stream', ...headers });
      res.end(body);
    } catch {
      res.writeHead(404, headers);
      res.end('not found');
    }
  });
  return new Promise((ok) => server.listen(0, '127.0.0.1', () => ok({
    url: `http://127.0.0.1:${server.address().port}${prefix}`,
    close: () => new Promise((r) => { server.closeAllConnections?.(); server.close(r); }),
  })));
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// The iframe of the lecture-notes page whose hash has id=ID, once its figure is ready.
async function embedFrame(page, id, timeout = 30000) {
  const t0 = Date.now();
  while (Date.now() - t0 < timeout) {
    const f = page.frames().find((fr) => /embed\.html#/.test(fr.url()) && fr.url().includes(`id=${id}`));
    if (f) {
      try { if (await f.evaluate(() => window.__embed?.ready === true || !!window.__embed?.info()?.error)) return f; } catch { /* navigating */ }
    }
    await sleep(100);
  }
  throw new Error(`iframe figure ${id} did not become ready in ${timeout} ms`);
}
// A whole-page screenshot with every iframe painted: Chromium does not paint off-screen
// cross-origin frames, so the viewport is made as tall as the page for the shot.
async function fullShot(page, name, width) {
  if (!screenshotsWanted()) return;  // (it only takes pictures: nothing after it depends on it)
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  const old = page.viewportSize();
  await page.setViewportSize({ width, height });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await sleep(800);
  await shot(page, name);
  for (const [k, sel] of ['#figure-paths', '#figure-local', '#figure-mirror'].entries()) {
    await shot(page.locator(sel), `${name}-figure${k + 1}`);
  }
  await page.setViewportSize(old);
}
const frameInfo = (f) => f.evaluate(() => window.__embed.info());
const elementInfo = (page, sel) => page.evaluate((s) => document.querySelector(s).info(), sel);

let browser, figures, pages, plainPage;
before(async () => {
  assert.ok(existsSync(resolve(dist, 'embed.html')), `${dist}/embed.html is missing: run npx vite build first`);
  const element = resolve(dist, 'attnsvm-figure.js');
  if (!existsSync(element) || statSync(element).mtimeMs < statSync(resolve(dist, 'embed.html')).mtimeMs) {
    execFileSync('npx', ['vite', 'build', '-c', 'vite.element.config.js', '--outDir', dist], { cwd: repoRoot, stdio: 'inherit' });
  }
  browser = await launchBrowser();
  figures = await serve({ prefix: '/static/attnsvm/' }); // origin B: the figures (dist/ on a sub-path)
  plainPage = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>plain page</title>
<link rel="icon" href="data:,"><meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body><p>Two figures, one script tag.</p>
<attnsvm-figure id="f1" scenario="local-convergence" panels="corr,softmax" speed="25"></attnsvm-figure>
<attnsvm-figure id="f2" scenario="paths2d" panels="plane,readout" speed="25" caption="scenario"></attnsvm-figure>
<script src="${figures.url}attnsvm-figure.js"></script></body></html>`;
  pages = await serve({                        // origin A: the course site
    rewrite: (html) => html.replaceAll('src="../embed.html', `src="${figures.url}embed.html`)
      .replaceAll('src="../attnsvm-figure.js"', `src="${figures.url}attnsvm-figure.js"`)
      .replaceAll("'../attnsvm-figure.js'", `'${figures.url}attnsvm-figure.js'`), // the notes' loader
    pages: { '/plain.html': plainPage },
  });
});
after(async () => {
  await browser?.close();
  await figures?.close();
  await pages?.close();
});

test('lecture notes (page and figures on two origins): three figures start in view, pause out of view, converge, resize', { timeout: 75000 }, async (t) => {
  const { page, context, problems } = await openPage(browser, `${pages.url}examples/lecture-notes.html`, { viewport: { width: 1280, height: 800 } });
  try {
    // At load every figure is below the fold (the page opens with prose): none has started.
    const f1 = await embedFrame(page, 'paths');
    assert.ok(f1.url().startsWith(figures.url), `figure 1 comes from ${f1.url()}`);
    await page.waitForFunction(() => document.querySelector('#fig-local')?.ready, null, { timeout: 30000 });
    await sleep(500);
    const i1early = await frameInfo(f1);
    assert.equal(i1early.started, false, 'figure 1 started before it was scrolled into view');
    let i2 = await elementInfo(page, '#fig-local');
    assert.equal(i2.started, false, 'the custom element started before it was scrolled into view');
    assert.equal(i2.iteration, 0);
    const f3early = page.frames().find((fr) => fr.url().includes('id=mirror'));
    if (f3early) {
      const i3 = await f3early.evaluate(() => window.__embed?.info() ?? null).catch(() => null);
      if (i3) assert.equal(i3.started, false, 'figure 3 started before it was scrolled into view');
    }
    // Figure 1 starts when scrolled into view and reaches its converged state.
    await page.locator('#fig-paths').scrollIntoViewIfNeeded();
    await f1.waitForFunction(() => window.__embed.info().started, null, { timeout: 5000 });
    await f1.waitForFunction(() => window.__embed.info().done, null, { timeout: 30000, polling: 200 });
    await f1.waitForFunction(() => !window.__embed.info().busy, null, { timeout: 10000 });
    const i1 = await frameInfo(f1);
    t.diagnostic(`figure 1: k = ${i1.iteration}, corr ${JSON.stringify(i1.correlations)}`);
    assert.equal(i1.iteration, i1.maxIterations);
    assert.ok(i1.correlations.fro >= 0.99, `figure 1 corr with the Frobenius SVM ${i1.correlations.fro}`);

    // Figure 2 (the element) starts when scrolled into view.
    await page.locator('#fig-local').scrollIntoViewIfNeeded();
    await page.waitForFunction(() => document.querySelector('#fig-local').started, null, { timeout: 5000 });
    // ... pauses when scrolled out of view, and resumes when back
    await page.evaluate(() => window.scrollTo(0, 0));
    // (read before the step in flight at the pause was delivered, kOut was one step short on a loaded
    // machine: 30, then 40)
    await waitFiguresSettled(page, () => [document.querySelector('#fig-local')], { timeout: 5000 });
    const kOut = await page.evaluate(() => document.querySelector('#fig-local').iteration);
    await sleep(400);
    assert.equal(await page.evaluate(() => document.querySelector('#fig-local').iteration), kOut, 'the element ran while out of view');
    assert.ok(kOut < 2000, 'the element finished before it could be scrolled away');
    await page.locator('#fig-local').scrollIntoViewIfNeeded();
    await page.waitForFunction((k) => document.querySelector('#fig-local').iteration > k, kOut, { timeout: 5000 });
    await page.waitForFunction(() => { const e = document.querySelector('#fig-local'); return e.done && !e.info().busy; }, null, { timeout: 30000, polling: 200 });
    i2 = await elementInfo(page, '#fig-local');
    t.diagnostic(`figure 2: k = ${i2.iteration}, selection ${i2.selection}, verdict ${i2.verdict}, corr ${JSON.stringify(i2.correlations)}`);
    assert.equal(i2.iteration, i2.maxIterations);
    assert.ok(i2.correlations.fro >= 0.99, `figure 2 corr with the SVM of its selection ${i2.correlations.fro}`);

    // Figure 3 (lazy iframe) loads and starts when scrolled into view.
    await page.locator('#fig-mirror').scrollIntoViewIfNeeded();
    const f3 = await embedFrame(page, 'mirror');
    assert.ok(f3.url().startsWith(figures.url));
    await f3.waitForFunction(() => window.__embed.info().started, null, { timeout: 5000 });
    await f3.waitForFunction(() => window.__embed.info().done && !window.__embed.info().busy, null, { timeout: 30000, polling: 200 });
    const i3 = await frameInfo(f3);
    t.diagnostic(`figure 3: k = ${i3.iteration}, corr ${JSON.stringify(i3.correlations)}`);
    assert.ok(i3.correlations.lp >= 0.99, `figure 3 corr with the l_p SVM ${i3.correlations.lp}`);

    // The resize messages arrived from the figures' origin and the page applied them.
    const resizes = await page.evaluate(() => window.__resizes);
    const origin = new URL(figures.url).origin;
    for (const id of ['paths', 'mirror']) {
      const mine = resizes.filter((r) => r.id === id);
      assert.ok(mine.length >= 1, `no attnsvm:resize message from iframe ${id}`);
      assert.ok(mine.every((r) => r.origin === origin), `resize messages of ${id} from ${mine.map((r) => r.origin)}`);
      const h = mine.at(-1).height;
      t.diagnostic(`iframe ${id}: ${mine.length} resize message(s), height ${h} px at 1280 px`);
      assert.ok(h > 250 && h < 1500, `iframe ${id} height ${h}`);
      const shown = await page.evaluate((s) => document.querySelector(s).getBoundingClientRect().height, `#fig-${id}`);
      assert.ok(Math.abs(shown - h) <= 1, `iframe ${id} is ${shown} px high, its figure ${h} px`);
    }
    await fullShot(page, 'embed-lecture-notes-desktop', 1280);

    // Phone width: the same page narrowed; each iframe reports its new height (Chromium throttles
    // off-screen cross-origin frames, so each is brought into view once).
    const counts = Object.fromEntries(['paths', 'mirror'].map((id) => [id, resizes.filter((r) => r.id === id).length]));
    await page.setViewportSize({ width: 390, height: 844 });
    for (const id of ['paths', 'mirror']) {
      await page.locator(`#fig-${id}`).scrollIntoViewIfNeeded();
      await page.waitForFunction(([i, n]) => {
        const mine = window.__resizes.filter((r) => r.id === i);
        const shown = document.querySelector(`#fig-${i}`).getBoundingClientRect().height;
        return mine.length > n && Math.abs(shown - mine.at(-1).height) <= 1;
      }, [id, counts[id]], { timeout: 10000 });
    }
    await page.evaluate(() => window.scrollTo(0, 0));
    await sleep(300);
    const narrow = await page.evaluate(() => [...document.querySelectorAll('iframe, attnsvm-figure')].map((e) => e.getBoundingClientRect().width));
    assert.ok(narrow.every((w) => w <= 390), `figures wider than the phone: ${narrow}`);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(overflow <= 390, `the page scrolls sideways at 390 px (${overflow} px)`);
    await fullShot(page, 'embed-lecture-notes-phone', 390);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('<attnsvm-figure> with only its script tag on a plain page, strict CSP without unsafe-eval; one shared worker', { timeout: 45000 }, async (t) => {
  const policy = `default-src 'none'; script-src ${new URL(figures.url).origin} blob: 'wasm-unsafe-eval'; worker-src blob:; ` +
    "style-src 'self'; img-src data:; base-uri 'none'; object-src 'none'";
  const strict = await serve({ headers: { 'Content-Security-Policy': policy }, pages: { '/plain.html': plainPage } });
  const context = await browser.newContext({ viewport: { width: 1000, height: 1600 } });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  await page.addInitScript(() => {
    window.__violations = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  try {
    await page.goto(`${strict.url}plain.html`);
    await page.waitForFunction(() => [...document.querySelectorAll('attnsvm-figure')].every((e) => (e.done && !e.info().busy) || e.info()?.error),
      null, { timeout: 35000, polling: 200 });
    const infos = await page.evaluate(() => [...document.querySelectorAll('attnsvm-figure')].map((e) => e.info()));
    t.diagnostic(JSON.stringify(infos.map((i) => ({ scenario: i.scenario, k: i.iteration, corr: i.correlations, verdict: i.verdict }))));
    for (const i of infos) {
      assert.equal(i.error, null);
      assert.equal(i.iteration, i.maxIterations);
      assert.ok(i.correlations.fro >= 0.99, `${i.scenario}: corr ${i.correlations.fro}`);
    }
    assert.equal(page.workers().length, 1, 'the figures of one page share one worker');
    assert.equal(await page.evaluate(() => window.__attnsvmFigure.engines), 1);
    // the styles reached the shadow roots (a constructed sheet: no inline <style>)
    const styled = await page.evaluate(() => getComputedStyle(document.querySelector('#f1').shadowRoot.querySelector('.attnsvm-figure')).borderTopStyle);
    assert.equal(styled, 'solid');
    await shot(page, 'embed-element-csp', { fullPage: true });
    assert.deepEqual(await page.evaluate(() => window.__violations), []);
    assert.deepEqual(problems, []);
    // the policy is in force: a string timer (eval) is refused (page.evaluate itself bypasses the CSP)
    await page.evaluate(() => { window.__evaluated = false; setTimeout('window.__evaluated = true', 0); });
    await sleep(200);
    assert.equal(await page.evaluate(() => window.__evaluated), false, 'eval ran: the CSP is not in force');
    assert.ok((await page.evaluate(() => window.__violations)).some((v) => v.startsWith('script-src')));
  } finally {
    await context.close();
    await strict.close();
  }
});

test('reduced motion: neither the iframe figure nor the element plays by itself; Play still works', { timeout: 30000 }, async () => {
  const { page, context, problems } = await openPage(browser, `${figures.url}embed.html#s=paths2d&panels=plane,corr`, { reducedMotion: 'reduce' });
  try {
    await page.waitForFunction(() => window.__embed?.ready, null, { timeout: 20000 });
    await sleep(1200);
    let info = await page.evaluate(() => window.__embed.info());
    assert.equal(info.started, false, 'the iframe figure autoplayed under prefers-reduced-motion');
    assert.equal(info.iteration, 0);
    assert.ok(await page.evaluate(() => window.__embed.height > 0 && window.__embed.resizeMessages === 0), 'a top-level page posts no resize messages');
    await page.getByRole('button', { name: 'Play' }).click();
    await page.waitForFunction(() => window.__embed.info().iteration > 0, null, { timeout: 5000 });
    await page.getByRole('button', { name: 'Pause' }).click();
    info = await page.evaluate(() => window.__embed.info());
    assert.equal(info.playing, false);

    await page.goto(`${pages.url}plain.html`);
    await page.waitForFunction(() => [...document.querySelectorAll('attnsvm-figure')].every((e) => e.ready), null, { timeout: 20000 });
    await sleep(1200);
    const els = await page.evaluate(() => [...document.querySelectorAll('attnsvm-figure')].map((e) => ({ started: e.started, k: e.iteration })));
    assert.deepEqual(els, [{ started: false, k: 0 }, { started: false, k: 0 }]);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('the lab\'s Embed button: snippets of the current state; the iframe snippet shows that state', { timeout: 30000 }, async () => {
  const { page, context, problems } = await openPage(browser, `${figures.url}index.html?autoplay=0#s=mirror-descent&seed=3`);
  try {
    await page.getByRole('button', { name: 'Embed' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await dialog.getByLabel('Certificates and verdict').check();
    const code = await page.evaluate(() => window.__embedCode.code);
    assert.match(code.iframe, /^<iframe src="http:\/\/127\.0\.0\.1:\d+\/static\/attnsvm\/embed\.html#s=mirror-descent&amp;seed=3&amp;panels=corr,weights,readout" /);
    assert.match(code.element, /<script src="http:\/\/127\.0\.0\.1:\d+\/static\/attnsvm\/attnsvm-figure\.js" defer><\/script>\n<attnsvm-figure scenario="mirror-descent" seed="3" panels="corr,weights,readout"><\/attnsvm-figure>/);
    assert.match(code.resizeScript, /attnsvm:resize/);
    await shot(page, 'embed-lab-dialog');
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, 'embed-lab-dialog-phone');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await page.goto(code.url);
    await page.waitForFunction(() => window.__embed?.ready, null, { timeout: 20000 });
    const info = await page.evaluate(() => window.__embed.info());
    assert.equal(info.scenario, 'mirror-descent');
    assert.deepEqual(info.panels, ['corr', 'weights', 'readout']);
    const lab = await page.getByRole('link', { name: /Open in the lab/ }).getAttribute('href');
    assert.match(lab, /\/static\/attnsvm\/index\.html#s=mirror-descent&seed=3$/);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('<attnsvm-figure> on a page opened from disk (file://)', { timeout: 20000 }, async () => {
  const { writeFileSync, mkdtempSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { pathToFileURL } = await import('node:url');
  const dir = mkdtempSync(resolve(tmpdir(), 'attnsvm-embed-'));
  const html = resolve(dir, 'notes.html');
  writeFileSync(html, `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>notes</title><link rel="icon" href="data:,"></head><body>
<attnsvm-figure scenario="paths2d" panels="corr" speed="50"></attnsvm-figure>
<script src="${pathToFileURL(resolve(dist, 'attnsvm-figure.js')).href}"></script></body></html>`);
  const { page, context, problems } = await openPage(browser, pathToFileURL(html).href);
  try {
    await page.waitForFunction(() => { const e = document.querySelector('attnsvm-figure'); return (e?.done && !e.info().busy) || e?.info()?.error; }, null, { timeout: 15000 });
    const info = await page.evaluate(() => document.querySelector('attnsvm-figure').info());
    assert.equal(info.error, null);
    assert.ok(info.correlations.fro >= 0.99);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('an iframe left at the default 150 px height (no listener on the host) still starts in view', { timeout: 20000 }, async () => {
  const host = await serve({ pages: { '/bare.html': `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>bare</title><link rel="icon" href="data:,"></head>
<body><iframe id="bare" src="${figures.url}embed.html#s=paths2d&panels=corr&speed=50&id=bare" title="figure"></iframe></body></html>` } });
  const { page, context, problems } = await openPage(browser, `${host.url}bare.html`);
  try {
    const f = await embedFrame(page, 'bare', 15000);
    await f.waitForFunction(() => window.__embed.info().started, null, { timeout: 5000 });
    assert.equal(await page.evaluate(() => document.getElementById('bare').clientHeight), 150);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
    await host.close();
  }
});
