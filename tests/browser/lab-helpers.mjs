// Helpers shared by the lab's browser tests: open the lab at a state, run it to the end, read
// numbers through the window.__lab test hook (never pixels).
import { openPage, serveSite } from './harness.mjs';
import { SCENARIO_INFO, SCENARIO_ORDER } from '../../web/src/lab/scenarios.js';

// The built site (dist/) served by the harness; LAB_SITE_URL points the tests at a running server.
export async function serveLab() {
  if (process.env.LAB_SITE_URL) return { url: process.env.LAB_SITE_URL.replace(/\/?$/, '/'), close: async () => {} };
  return serveSite();
}

// The lab's engine-run scenarios (web/src/lab/scenarios.js; real-images has a view of its own).
export const SCENARIOS = SCENARIO_ORDER.filter((s) => !SCENARIO_INFO[s].own);

// Opens the lab (no autoplay unless asked) and waits for the first plotted frame.
export async function openLab(browser, siteUrl, hash = '', { autoplay = false, viewport, timeout = 30000, context } = {}) {
  const url = `${siteUrl}${autoplay ? '' : '?autoplay=0'}${hash ? `#${hash.replace(/^#/, '')}` : ''}`;
  const opened = await openPage(browser, url, { ...(viewport ? { viewport } : {}), ...(context ? { context } : {}) });
  await waitReady(opened.page, timeout);
  return opened;
}

export async function waitReady(page, timeout = 30000) {
  await page.waitForFunction(() => (window.__lab?.ready && !window.__lab.busy) || window.__error, null, { timeout });
  const err = await page.evaluate(() => window.__error ?? null);
  if (err) throw new Error(`lab failed: ${err}`);
}

// Two animation frames: an IntersectionObserver's callbacks for a scroll, a resize's layout, have run.
export const frames = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

// Plays to the end of the run and waits until the references have settled.
export async function runToEnd(page, timeout = 60000) {
  await page.evaluate(() => window.__lab.play());
  await page.waitForFunction(() => window.__lab.done && !window.__lab.busy && !window.__lab.drawing, null, { timeout, polling: 100 });
  // one more frame for the last render
  await frames(page);
}

// Brings the curve panels (convergence, norms) into view, as a reader scrolls to them, and waits
// until both are drawn: a panel that was below the observer's margin when the run's first drawing
// read the layout is drawn only when it comes near (render-loop.js), so its legend is not in the
// page before that.
export async function showCurves(page, timeout = 20000) {
  await page.evaluate(() => document.getElementById('panel-corr').scrollIntoView({ block: 'start' }));
  await page.waitForFunction(() => ['corr', 'norms'].every((id) => document.querySelector(`#body-${id} .u-legend .u-series .u-label`))
    && !window.__lab.busy && !window.__lab.drawing, null, { timeout });
  await frames(page);
}

export async function idle(page, timeout = 20000) {
  await page.waitForFunction(() => !window.__lab.busy && !window.__lab.drawing, null, { timeout });
  await frames(page);
}

// The "Real images" scenario's state (window.__lab.real()) once it is loaded, or done with every run
// analysed ('done'), or failed.
export async function waitReal(page, what = 'loaded', timeout = 60000) {
  await page.waitForFunction((w) => {
    const r = window.__lab?.real();
    return r && (r.error || r.message || (w === 'loaded' ? r.loaded : r.done && r.runs.every((x) => x.analysis)));
  }, what, { timeout, polling: 100 });
  return page.evaluate(() => window.__lab.real());
}
