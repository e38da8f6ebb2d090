// One traced page load, for the page audit (page-audit.mjs labStartup) and the bench scripts: a
// Chromium trace (CDP Tracing) from before the navigation until the caller's `until(page, cdp)` has
// resolved, with the page's main thread and its navigation start.
//
// traceLoad(browser, url, { viewport, categories, before(page), until(page, cdp) }) ->
//   { events, result (what until returned), pid, tid (the main thread: the one that parsed url's HTML),
//     navTs (trace µs of the navigation start), ms(ts) (ms from it), onMain(e) }
// The browser context is closed before it returns: whatever the caller needs from the page, until()
// reads it (through cdp, Runtime.evaluate, where an injected script must not run in the page: the first
// playwright evaluate or waitForFunction in a page evaluates playwright's script there, a 20-60 ms task).
//
// The navigation start is the renderer's 'navigationStart' mark for url (blink.user_timing: the start of
// the navigation, performance.timeOrigin, the origin of the page's own marks such as lab-first-frame and
// of Lighthouse). Not the first task of the thread nor ParseHTML: the renderer may be the one that showed
// about:blank (with that page's tasks and its own navigationStart before), and the parse starts tens of
// ms after the navigation (the request, the commit).
import { openPage } from './harness.mjs';

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
    const result = await until?.(page, cdp);
    await cdp.send('Tracing.end');
    await complete;
    const origin = new URL(url).origin;
    const parse = events.find((e) => e.name === 'ParseHTML' && String(e.args?.beginData?.url ?? '').startsWith(origin));
    if (!parse) throw new Error(`traceLoad: no ParseHTML of ${url} in the trace`);
    const { pid, tid } = parse;
    const nav = events.filter((e) => e.name === 'navigationStart' && e.pid === pid && e.ts <= parse.ts
      && String(e.args?.data?.documentLoaderURL ?? '').startsWith(origin)).at(-1);
    if (!nav) throw new Error(`traceLoad: no navigationStart mark of ${url} in the trace`);
    const navTs = nav.ts;
    return { events, result, pid, tid, navTs, ms: (ts) => (ts - navTs) / 1000, onMain: (e) => e.pid === pid && e.tid === tid };
  } finally {
    await context.close();
  }
}
