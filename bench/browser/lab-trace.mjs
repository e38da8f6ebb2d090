// Where the main thread's time goes while the lab plays (a tool, not a test): records a Chrome
// trace (devtools.timeline) over 4 s of playing and prints, per event name, the total time and
// count on the renderer's main thread, and the breakdown of every task over 40 ms.
//   npx vite build && node bench/browser/lab-trace.mjs 's=local-convergence&speed=2' [panel-corr]
import { launchBrowser, openPage, serveSite } from '../../tests/browser/harness.mjs';
import { loadavg } from 'node:os';

const [hash = 's=local-convergence&speed=2', scrollTo] = process.argv.slice(2);
const site = await serveSite();
const browser = await launchBrowser();
const { page, context } = await openPage(browser, 'about:blank');
await page.goto(`${site.url}?autoplay=0#${hash}`);
await page.waitForFunction(() => window.__lab?.ready && !window.__lab.busy, null, { timeout: 30000 });
if (scrollTo) await page.evaluate((id) => document.getElementById(id).scrollIntoView(), scrollTo);
const cdp = await context.newCDPSession(page);
const events = [];
cdp.on('Tracing.dataCollected', (e) => events.push(...e.value));
const complete = new Promise((r) => cdp.once('Tracing.tracingComplete', r));
await cdp.send('Tracing.start', { traceConfig: { includedCategories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink', 'cc', 'v8'] }, transferMode: 'ReportEvents' });
const fps = await page.evaluate(async () => {
  const lab = window.__lab;
  let raf = 0, on = true;
  const count = () => { raf++; if (on) requestAnimationFrame(count); };
  requestAnimationFrame(count);
  const t = performance.now();
  lab.play();
  await new Promise((r) => setTimeout(r, 4000));
  on = false;
  lab.pause();
  return raf / ((performance.now() - t) / 1000);
});
await cdp.send('Tracing.end');
await complete;
const main = new Set(events.filter((e) => e.name === 'thread_name' && e.args.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
const mev = events.filter((e) => main.has(`${e.pid}:${e.tid}`) && e.ph === 'X' && e.dur);
const total = new Map();
for (const e of mev) { const t = total.get(e.name) ?? [0, 0]; t[0] += e.dur; t[1]++; total.set(e.name, t); }
console.log(`${hash}${scrollTo ? ` (${scrollTo} in view)` : ''}: ${fps.toFixed(1)} frames/s, load average ${loadavg()[0].toFixed(2)}`);
for (const name of ['RunTask', 'ProxyMain::BeginMainFrame', 'FireAnimationFrame', 'UpdateLayoutTree', 'Layout', 'PrePaint', 'Paint', 'Layerize', 'Commit', 'Canvas2DResourceProvider::WritePixels', 'InlineNode::FindSvgTextChunks']) {
  const [us, n] = total.get(name) ?? [0, 0];
  console.log(`${(us / 1000).toFixed(1).padStart(9)} ms ${String(n).padStart(6)}x  ${name}`);
}
for (const t of mev.filter((e) => e.name === 'RunTask' && e.dur > 40000)) {
  const inner = mev.filter((e) => e !== t && e.ts >= t.ts && e.ts + e.dur <= t.ts + t.dur && e.dur > 3000);
  console.log(`task ${(t.dur / 1000).toFixed(1)} ms: ${inner.map((e) => `${e.name}${e.args?.data?.functionName ? `(${e.args.data.functionName})` : ''} ${(e.dur / 1000).toFixed(1)}`).join(' | ')}`);
}
await browser.close();
await site.close();
