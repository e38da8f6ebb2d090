// The lab's worker starts by itself and computes the page's first run ahead from the URL hash
// (web/src/lab/lab-worker.js, first-run.js): in the built lab, the page's first-run requests are
// answered from it (counted by worker-engine.js), and the lab shows the same numbers as a lab whose worker
// was started without the hash (the worker then waits for the page's requests, as before): the first
// frame's data, 30 steps later, and the references. Links: the default, other settings, a bad link,
// autoplay; the real-images view starts no lab engine at all. For the default link the page's
// first run comes with its code (computed at build time, scripts/vite-first-run.mjs): the worker's
// offer must then be the same, value for value (handedOver, worker-engine.js); a worker without it
// makes the page start its run again on a new worker.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, openPage } from './harness.mjs';
import { serveLab, waitReady, idle } from './lab-helpers.mjs';

let browser, site;
before(async () => { browser = await launchBrowser(); site = await serveLab(); });
after(async () => { await browser?.close(); await site?.close(); });

// (the control: the lab's worker made without its name, so it computes nothing ahead, and not by the
// HTML, so the page takes no first run from its code either: engine-early.js makes it, once the
// HTML's worker is dropped)
const nameless = () => {
  const W = window.Worker;
  window.Worker = class extends W { constructor(url, options) { super(url, { ...options, name: '' }); } };
  Object.defineProperty(window, '__attnsvmEarlyWorker', { configurable: true, get: () => undefined, set: (w) => { w.terminate(); } });
};

// (a worker that computes nothing ahead, made by the HTML: for the default link, the page has the
// first run from its code, which that worker then does not have)
const namelessEarly = () => {
  const W = window.Worker;
  window.Worker = class extends W { constructor(url, options) { super(url, { ...options, name: '' }); } };
};

async function lab(hash, { ahead, autoplay = false, init = nameless }) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  if (!ahead) await context.addInitScript(init);
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(m.text()); });
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(`${site.url}${autoplay ? '' : '?autoplay=0'}${hash}`);
  await waitReady(page);
  // The curve charts made on both pages before they are compared: which panels a first drawing draws
  // depends on when the panels' observer first spoke (a panel just outside its margin, e.g. below a
  // bad link's messages, is drawn only when it comes near), not on the numbers.
  for (const id of ['corr', 'norms']) {
    await page.evaluate((pid) => document.getElementById(`panel-${pid}`).scrollIntoView({ block: 'center' }), id);
    await page.waitForFunction((pid) => document.querySelector(`#body-${pid} .u-legend .u-series`), id, { timeout: 20000 });
  }
  await idle(page);
  // (worker-engine.js's count of the first-run requests answered from an offer, the offer's source:
  // 'given' with the page's code for the default link, else 'worker', and for a given one whether
  // the worker's own offer was the same)
  // (the given offer's check ends when the worker's init answers, which the page does not wait for: the
  // default link's worker starts at the first frame, so on a slow load it can answer after the page is idle)
  // That wait is for every page whose worker was given the default link's first run (source 'given'),
  // also one whose worker computed nothing ahead (namelessEarly): it read `handedOver: undefined`
  // once, on a run where the page went idle before the worker's init answered.
  if (!hash) {
    await page.waitForFunction(() => {
      const w = window.__attnsvmEarlyWorker;
      return !w || w.firstRunSource !== 'given' || w.firstRunHandedOver !== undefined;
    }, null, { timeout: 20000 });
  }
  const stats = await page.evaluate(() => {
    const w = window.__attnsvmEarlyWorker;
    return w ? (w.firstRun ? { ...w.firstRun, source: w.firstRunSource, handedOver: w.firstRunHandedOver } : null) : null;
  });
  const read = () => page.evaluate(() => ({
    state: window.__lab.state, iteration: window.__lab.iteration, lastFrame: window.__lab.lastFrame,
    plotted: window.__lab.plotted(), dataset: window.__lab.dataset(), fro: window.__lab.solution('fro'),
    verdict: window.__lab.verdict(), messages: window.__lab.messages(),
  }));
  return { page, context, stats, problems, read };
}

// (field by field: a failure names the field)
function same(a, b) {
  for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) assert.deepEqual(a[k], b[k], `${k} differs`);
}

const CASES = [
  ['the default link', ''],
  ['another scenario and settings', '#s=rank&seed=3&lr=0.3'],
  ['a bad link', '#s=nope&lr=abc&what=1'],
];

for (const [name, hash] of CASES) {
  test(`lab, ${name}: the first run answered from the worker, the same numbers as without`, { timeout: 90000 }, async () => {
    const a = await lab(hash, { ahead: true });
    const b = await lab(hash, { ahead: false });
    try {
      // (scenario, validate, scores, start, step 0, and the reference SVMs' two solves and the analysis)
      assert.deepEqual(a.stats, { offered: 8, hits: 8, ...(hash ? { source: 'worker', handedOver: undefined } : { source: 'given', handedOver: true }) });
      assert.equal(b.stats, null, 'the control computed ahead');
      same(await a.read(), await b.read());
      for (const x of [a, b]) {
        await x.page.evaluate(() => window.__lab.step(30));
        await idle(x.page);
      }
      const [ra, rb] = [await a.read(), await b.read()];
      assert.ok(ra.iteration >= 30, `iteration ${ra.iteration}`);
      same(ra, rb);
      assert.deepEqual(a.problems, []);
      assert.deepEqual(b.problems, []);
    } finally {
      await a.context.close();
      await b.context.close();
    }
  });
}

test('lab, the default link, an HTML worker that did not compute the first run given with the page: a new worker, the run again, the same numbers', { timeout: 90000 }, async () => {
  const a = await lab('', { ahead: false, init: namelessEarly });
  const b = await lab('', { ahead: false });
  try {
    assert.deepEqual(a.stats, { offered: 8, hits: 8, source: 'given', handedOver: false });
    same(await a.read(), await b.read());
    for (const x of [a, b]) {
      await x.page.evaluate(() => window.__lab.step(30));
      await idle(x.page);
    }
    same(await a.read(), await b.read());
    assert.deepEqual(a.problems, []);
  } finally {
    await a.context.close();
    await b.context.close();
  }
});

test('lab, autoplay: the run played from the worker\'s first run ends where the control\'s does', { timeout: 120000 }, async () => {
  const hash = '#s=paths2d&it=300';
  const runs = [];
  for (const ahead of [true, false]) {
    const x = await lab(hash, { ahead, autoplay: true });
    try {
      await x.page.waitForFunction(() => window.__lab.done && !window.__lab.busy, null, { timeout: 60000, polling: 100 });
      runs.push({ stats: x.stats, data: await x.read() });
    } finally { await x.context.close(); }
  }
  assert.equal(runs[0].data.iteration, 300);
  assert.equal(runs[0].stats.hits, 8);
  same(runs[0].data, runs[1].data);
});

test('real-images view: no lab engine started (no lab worker, no attnsvm.wasm)', { timeout: 60000 }, async () => {
  const { page, context } = await openPage(browser, `${site.url}?autoplay=0#s=real-images`);
  try {
    await page.waitForFunction(() => window.__lab?.real()?.loaded || window.__lab?.real()?.error, null, { timeout: 45000 });
    const r = await page.evaluate(() => ({
      early: window.__attnsvmEarlyWorker !== undefined,
      loaded: performance.getEntriesByType('resource').map((e) => e.name.split('/').pop()),
    }));
    assert.equal(r.early, false);
    assert.deepEqual(r.loaded.filter((n) => /^lab-worker-|^attnsvm\.wasm$/.test(n)), []);
  } finally { await context.close(); }
});

// The HTML's worker waits for the first frame when the page has its first run with its code (the
// default link), so that its download, compile and run do not compete with the first frame for the
// cores; for any other link it starts at once (the first frame waits for its answer).
test('the HTML\'s worker: its thread starts at the first frame for the default link, from the HTML for another link', { timeout: 60000 }, async () => {
  const at = async (hash) => {
    const { page, context } = await openPage(browser, `${site.url}?autoplay=0${hash}`);
    try {
      await waitReady(page);
      // (the page is ready before the worker has answered: the default link's first run, references
      // included, comes with the page; the check of the worker's own run comes with its init reply)
      await page.waitForFunction(() => window.__attnsvmEarlyWorker?.firstRunHandedOver !== undefined || window.__attnsvmEarlyWorker?.firstRunSource === 'worker', null, { timeout: 20000 });
      return await page.evaluate(() => ({
        startedAt: window.__attnsvmEarlyWorker?.startedAt ?? null,
        startedBy: window.__attnsvmEarlyWorker?.startedBy ?? null,
        firstFrame: performance.getEntriesByName('lab-first-frame')[0]?.startTime ?? null,
        firstPaint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null,
        handedOver: window.__attnsvmEarlyWorker?.firstRunHandedOver ?? null,
        source: window.__attnsvmEarlyWorker?.firstRunSource ?? null,
      }));
    } finally { await context.close(); }
  };
  const def = await at('');
  assert.ok(def.firstFrame !== null && def.startedAt !== null, JSON.stringify(def));
  // (on a machine so busy that the first frame comes 2 s after the lab's module, the guard starts it)
  assert.ok(def.startedBy === 'guard' || (def.startedBy === 'first-frame' && def.startedAt >= def.firstFrame),
    `default link: the worker started at ${def.startedAt} ms by ${def.startedBy}, the first frame at ${def.firstFrame} ms`);
  assert.deepEqual([def.source, def.handedOver], ['given', true], 'the worker computed the same first run, once started');
  const other = await at('#s=rank&seed=3');
  // (another link: by the HTML's head script, which runs before the first paint, not by the lab's module)
  assert.ok(other.startedBy === 'html' && other.startedAt < other.firstPaint, `another link: the worker started at ${other.startedAt} ms by ${other.startedBy}, the first paint at ${other.firstPaint} ms`);
  assert.equal(other.source, 'worker');
});
