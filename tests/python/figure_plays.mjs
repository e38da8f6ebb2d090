// Opens a page in Debian's Chromium (playwright-core) and reports whether its attnsvm figures play:
//   node tests/python/figure_plays.mjs URL [--screenshot FILE] [--pdf FILE] [--timeout-ms 60000]
// Every <attnsvm-figure>, in the page or in any frame (the Python package's figures live in
// <iframe srcdoc>), is scrolled into view in turn and watched until its step counter advances
// twice (started, then playing); prints one JSON line:
//   {figures: [{frame, scenario, first, last, advanced}], problems: [console errors/warnings,
//    uncaught errors], title, printed}
// With --pdf the page is then printed to that file (Chromium fires beforeprint in every frame: each
// figure puts pictures of its panels in its place); printed: per figure, what its frame's print
// path reports ({prints, pictures}: web/src/access/figure-access.js).
// Used by tests/python/test_figure.py and test_notebook.py (they assert on the JSON).
import { chromium } from 'playwright-core';

const args = process.argv.slice(2);
const url = args[0];
const opt = (name, dflt) => { const k = args.indexOf(name); return k >= 0 ? args[k + 1] : dflt; };
const screenshot = opt('--screenshot', null);
const pdf = opt('--pdf', null);
const timeoutMs = Number(opt('--timeout-ms', '60000'));
if (!url) { console.error('usage: node tests/python/figure_plays.mjs URL [--screenshot FILE]'); process.exit(2); }

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const problems = [];
const out = { figures: [], problems, title: null };
try {
  const context = await browser.newContext({ viewport: { width: 1100, height: 800 } });
  const page = await context.newPage();
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('requestfailed', (r) => problems.push(`requestfailed: ${r.url()} ${r.failure()?.errorText ?? ''}`));
  await page.goto(url, { waitUntil: 'load' });
  out.title = await page.title();
  // the figures' frames (srcdoc iframes load with the page) and their elements
  const deadline = Date.now() + timeoutMs;
  const read = (el) => el.evaluate((e) => ({ scenario: e.getAttribute('scenario'), iteration: e.iteration, ready: e.ready, playing: e.playing, defined: !!customElements.get('attnsvm-figure') }));
  const found = [];
  for (const frame of page.frames()) {
    for (const el of await frame.$$('attnsvm-figure')) found.push({ frame, el });
  }
  for (const { frame, el } of found) {
    const owner = await frame.frameElement().catch(() => null);  // the iframe in the page
    await (owner ?? el).scrollIntoViewIfNeeded();
    const seen = [];
    let s = await read(el);
    while (Date.now() < deadline) {
      s = await read(el);
      if (!seen.length || seen[seen.length - 1] !== s.iteration) seen.push(s.iteration);
      if (seen.filter((i) => i > 0).length >= 3) break;  // three different steps: it plays
      await page.waitForTimeout(200);
    }
    const steps = seen.filter((i) => i > 0);
    out.figures.push({ frame: frame === page.mainFrame() ? 'main' : frame.url(), scenario: s.scenario, first: steps[0] ?? 0,
      last: steps[steps.length - 1] ?? 0, advanced: steps.length >= 3, defined: s.defined });
  }
  if (pdf) {
    await page.pdf({ path: pdf, format: 'A4', printBackground: true });
    out.printed = await Promise.all(found.map(({ frame }) => frame.evaluate(() => globalThis.__attnsvmPrint ?? null)));
  }
  if (screenshot) {
    if (found.length) await ((await found[0].frame.frameElement().catch(() => null)) ?? found[0].el).scrollIntoViewIfNeeded();
    await page.waitForTimeout(500);
    await page.screenshot({ path: screenshot });
  }
} finally {
  await browser.close();
}
console.log(JSON.stringify(out));
