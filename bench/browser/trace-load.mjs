// One traced page load for the bench scripts: a Chromium trace (CDP Tracing) from before the navigation
// until the caller's `until(page)` has resolved, with the page's main thread and its navigation start.
//
// traceLoad(browser, url, { viewport, categories, before(page), until(page) }) ->
//   { events, result (what until returned), pid, tid (the main thread: the one that parsed url's HTML),
//     navTs (trace µs of the navigation start), ms(ts) (ms from it), onMain(e) }
// The browser context is closed before it returns: whatever the caller needs from the page, until()
// reads it.
//
// Why the navigation start comes from a user-timing mark: this Chromium's traces of a navigation from
// about:blank have no `navigationStart` event for the new document, and the parse of the HTML starts
// tens of ms after the navigation (the request). A mark's trace timestamp minus its startTime (ms from
// the page's time origin, which is the navigation start) is the navigation start on the trace clock,
// the origin the page's own marks (lab-first-frame) and Lighthouse use.
import { openPage } from '../../tests/browser/harness.mjs';

const ANCHOR = 'trace-load-anchor';
const BASE = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink.user_timing'];

export async function traceLoad(browser, url, { viewport, categories = [], before, until } = {}) {
  const { page, context } = await openPage(browser, 'about:blank', viewport ? { viewport } : {});
  try {
    await before?.(page);
    const cdp = await context.newCDPSession(page);
    const events = [];
    cdp.on('Tracing.dataCollected', (e) => events.push(...e.value));
    const complete = new Promise((r) => cdp.once('Tracing.tracingComplete', r));
    const includedCategories = [...new Set([...BASE, ...categories])];
    await cdp.send('Tracing.start', { traceConfig: { includedCategories }, transferMode: 'ReportEvents' });
    await page.goto(url);
    const result = await until?.(page);
    const anchorAt = await page.evaluate((name) => performance.mark(name).startTime, ANCHOR);
    await cdp.send('Tracing.end');
    await complete;
    const origin = new URL(url).origin;
    const parse = events.find((e) => e.name === 'ParseHTML' && String(e.args?.beginData?.url ?? '').startsWith(origin));
    if (!parse) throw new Error(`traceLoad: no ParseHTML of ${url} in the trace`);
    const { pid, tid } = parse;
    const anchor = events.find((e) => e.name === ANCHOR && e.pid === pid);
    if (!anchor) throw new Error('traceLoad: the user-timing anchor mark is not in the trace');
    const navTs = anchor.ts - anchorAt * 1000;
    return { events, result, pid, tid, navTs, ms: (ts) => (ts - navTs) / 1000, onMain: (e) => e.pid === pid && e.tid === tid };
  } finally {
    await context.close();
  }
}
