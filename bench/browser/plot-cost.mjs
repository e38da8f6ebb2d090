#!/usr/bin/env node
// The plots' own cost (web/src/plots), A/B: what each panel's first drawing and its redraws while
// playing cost in the browser, for two versions of web/src/plots on the same recorded data.
//   1. Records the data the lab gives its panels: the built lab (DIST, default dist/) at a phone's
//      viewport, every panel made and drawn (__lab.redraw), then ~FRAMES updates while playing.
//   2. Bundles a small page per version (esbuild) that imports that version's plots: A = a git
//      revision's web/src/plots (default 9700eda, main), B = the work tree's.
//   3. Per run (fresh page, so the first drawing runs cold as on the lab's start): each panel made
//      and drawn once with its first data, then its recorded updates replayed one per task; every
//      drawing is timed with a forced style and layout after it (the work the frame pays anyway),
//      A and B interleaved (A, B, A, B, ...).
// Prints per panel the median first drawing and the median / p90 redraw (ms), and the redraws'
// forced layouts inside the plot code (layout reads after writes; 0 is the goal).
//   node bench/browser/plot-cost.mjs [--runs 5] [--rev 9700eda] [--dist dist] [--frames 60]
// curves-svg (the embeds' SVG curves) is replayed with the lab's corr and norms data. The final drawings of
// A and B are compared (canonical DOM, canvas pixels). Env: SWITCH_THEME=1 switches to the dark theme half-way
// through each replay; ONLY=plane,corr-svg; PROFILE=A|B (with INCL=fn,...) prints a CPU profile; DUMP=panel.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { launchBrowser, openPage, serveSite, repoRoot } from '../../tests/browser/harness.mjs';

const arg = (name, dflt) => { const i = process.argv.indexOf(`--${name}`); return i > 0 ? process.argv[i + 1] : dflt; };
const runs = Number(arg('runs', 5)), rev = arg('rev', '9700eda'), dist = arg('dist', 'dist'), frames = Number(arg('frames', 60));
const PLOTS = ['curves-svg.js', 'curves.js', 'export.js', 'heatmaps.js', 'linechart.js', 'number-format.js', 'readout.js', 'spectrum.js', 'svg.js', 'theme.js', 'tokenplane.js'];
const tmp = `/tmp/plot-cost-${process.pid}`;

// ---- 1. record the lab's panel data ----
const site = await serveSite({ dist: resolve(repoRoot, dist) });
const browser = await launchBrowser();
const rec = await (async () => {
  const { page, context } = await openPage(browser, `${site.url}?autoplay=0`, { viewport: { width: 412, height: 8000 } });
  await page.waitForFunction(() => window.__lab?.ready && !window.__lab.busy, null, { timeout: 60000 });
  const out = await page.evaluate(async (nFrames) => {
    const ids = ['plane', 'softmax', 'current', 'corr', 'norms', 'spectrum', 'weights', 'readout'];
    // a data's `source` (the softmax heatmap's run: it redraws the raster when it changes) is kept
    // by identity, as a number
    const sources = new Map();
    // (read before JSON.stringify: the run's store has a toJSON, a new object each time)
    const srcId = (x) => sources.get(x) ?? sources.set(x, sources.size).get(x);
    const enc = (v) => JSON.parse(JSON.stringify(v?.source && typeof v.source === 'object' ? { ...v, source: { __src: srcId(v.source) } } : v,
      (k, x) => (ArrayBuffer.isView(x) ? { __ta: x.constructor.name, v: Array.from(x) } : x)));
    const log = Object.fromEntries(ids.map((id) => [id, []]));
    const widths = {};
    for (const id of ids) {
      const p = window.__lab._panels[id];
      p.__key = null;   // the curves' series are set again (render.js sets them when this key changes)
      widths[id] = document.getElementById(`body-${id}`).clientWidth;
      for (const m of ['update', 'setSeries']) {
        const f = p[m];
        if (f) p[m] = (...a) => { log[id].push([m, a.map(enc)]); return f.apply(p, a); };
      }
    }
    window.__lab.redraw();
    window.__lab.play();
    await new Promise((r) => {
      const t0 = performance.now();
      const tick = () => (log.plane.length > nFrames || performance.now() - t0 > 20000 ? r() : setTimeout(tick, 50));
      tick();
    });
    window.__lab.pause();
    return { log, widths };
  }, frames);
  await context.close();
  return out;
})();
if (process.env.DEBUG) console.log(JSON.stringify(rec.log[process.env.DEBUG].map(([m, a]) => [m, a[0]?.x?.v?.length ?? a[0]?.x?.length ?? a[0]?.iterations?.v?.length ?? a[0]?.iterations?.length, a[0]?.xmax, JSON.stringify(a[0]?.source)])));
console.log('recorded calls:', Object.entries(rec.log).map(([k, v]) => `${k} ${v.length}`).join(', '), '| widths', JSON.stringify(rec.widths));

// ---- 2. bundle a page per version ----
mkdirSync(tmp, { recursive: true });
const entry = (dir) => `
import { createTokenPlane } from '${dir}/tokenplane.js';
import { createTimeHeatmap, createMatrices } from '${dir}/heatmaps.js';
import { createCurves } from '${dir}/curves.js';
import { createCurves as createCurvesSvg } from '${dir}/curves-svg.js';
import { createSpectrum } from '${dir}/spectrum.js';
import { createReadout } from '${dir}/readout.js';
window.makers = {
  plane: (el) => createTokenPlane(el, { onDrag() {} }), softmax: createTimeHeatmap, current: createMatrices,
  corr: (el) => createCurves(el, { xlabel: 'iteration k', y: { label: '1 − corr · D_p (dotted)', log: true }, series: [], height: 220 }),
  norms: (el, s) => createCurves(el, { xlabel: 'iteration k', y: { label: 'norm' }, height: 170, series: s }),
  'corr-svg': (el) => createCurvesSvg(el, { xlabel: 'iteration k', y: { label: '1 − corr · D_p (dotted)', log: true }, series: [], height: 220 }),
  'norms-svg': (el, s) => createCurvesSvg(el, { xlabel: 'iteration k', y: { label: 'norm' }, height: 170, series: s }),
  spectrum: createSpectrum, weights: createMatrices, readout: createReadout,
};`;
const bundles = {};
for (const [name, dir] of [['A', `${tmp}/a-plots`], ['B', resolve(repoRoot, 'web/src/plots')]]) {
  if (name === 'A') {
    mkdirSync(dir, { recursive: true });
    for (const f of PLOTS) {
      try { writeFileSync(`${dir}/${f}`, execFileSync('git', ['-C', repoRoot, 'show', `${rev}:web/src/plots/${f}`])); } catch { /* not in that revision */ }
    }
  }
  const r = await build({
    stdin: { contents: entry(dir), resolveDir: repoRoot, loader: 'js' }, bundle: true, write: false, format: 'esm',
    nodePaths: [resolve(repoRoot, 'node_modules')], outdir: `${tmp}/out-${name}`, loader: { '.css': 'css' }, minify: !process.env.PROFILE,
  });
  bundles[name] = { js: r.outputFiles.find((f) => f.path.endsWith('.js')).text, css: r.outputFiles.find((f) => f.path.endsWith('.css'))?.text ?? '' };
}

// ---- 3. replay ----
const html = (v) => `<!doctype html><html data-theme="light"><head><meta charset="utf-8"><style>${bundles[v].css}
body { font: 14px system-ui, sans-serif; margin: 8px; } .body { margin: 8px 0; }</style></head><body></body></html>`;
// Counting mode: the DOM writes (attributes, text, nodes made or moved) and layout reads
// (getBBox, getComputedTextLength, getBoundingClientRect, client/offset sizes) made inside the plot
// code: exact numbers, free of the machine's load (the timed runs do not count).
const COUNTER = `(() => {
  const c = window.__dom = { on: false, writes: 0, reads: 0 };
  const wrap = (proto, name, kind) => {
    const f = proto[name]; if (!f) return;
    proto[name] = function (...a) { if (c.on) c[kind]++; return f.apply(this, a); };
  };
  const wrapGet = (proto, name, kind, set) => {
    const d = Object.getOwnPropertyDescriptor(proto, name); if (!d) return;
    Object.defineProperty(proto, name, { ...d,
      get: d.get && function () { if (c.on && !set) c[kind]++; return d.get.call(this); },
      set: d.set && function (v) { if (c.on && set) c[kind]++; return d.set.call(this, v); } });
  };
  for (const n of ['setAttribute', 'removeAttribute', 'setAttributeNS', 'append', 'remove', 'replaceWith', 'before', 'after']) wrap(Element.prototype, n, 'writes');
  for (const n of ['appendChild', 'insertBefore', 'removeChild', 'replaceChild']) wrap(Node.prototype, n, 'writes');
  wrapGet(Node.prototype, 'textContent', 'writes', true);
  wrapGet(Element.prototype, 'innerHTML', 'writes', true);
  wrap(Element.prototype, 'getBoundingClientRect', 'reads');
  wrap(SVGGraphicsElement.prototype, 'getBBox', 'reads');
  wrap(SVGTextContentElement.prototype, 'getComputedTextLength', 'reads');
  for (const n of ['clientWidth', 'clientHeight']) wrapGet(Element.prototype, n, 'reads');
  for (const n of ['offsetWidth', 'offsetHeight']) wrapGet(HTMLElement.prototype, n, 'reads');
})();`;
async function runOnce(v, count = false) {
  const { page, context } = await openPage(browser, 'about:blank', { viewport: { width: 412, height: 823 } });
  if (count) await page.addInitScript(COUNTER);
  await page.route('http://bench.local/**', (route) => {
    const url = route.request().url();
    if (url.endsWith('.js')) return route.fulfill({ contentType: 'text/javascript', body: bundles[v].js });
    return route.fulfill({ contentType: 'text/html', body: html(v) });
  });
  await page.goto('http://bench.local/index.html');
  await page.addScriptTag({ url: 'http://bench.local/plots.js', type: 'module' });
  await page.waitForFunction(() => window.makers);
  const cdp = process.env.PROFILE === v ? await context.newCDPSession(page) : null;
  if (cdp) { await cdp.send('Profiler.enable'); await cdp.send('Profiler.setSamplingInterval', { interval: 100 }); await cdp.send('Profiler.start'); }
  const res = await page.evaluate(async ({ log, widths, only, switchTheme }) => {
    const srcs = new Map();
    const dec = (v) => JSON.parse(JSON.stringify(v), (k, x) => (x && x.__ta ? new globalThis[x.__ta](x.v)
      : x && x.__src !== undefined ? (srcs.get(x.__src) ?? srcs.set(x.__src, { run: x.__src }).get(x.__src)) : x));
    const task = () => new Promise((r) => setTimeout(r, 0));
    // uPlot commits a drawing in a microtask: run the ones queued before timing the layout
    const flush = () => new Promise((r) => queueMicrotask(r));
    // forced layouts inside a call: count Layout via the long-lived PerformanceObserver is not
    // exposed to pages; instead the redraw is timed alone (js) and with the style+layout after it
    const out = {};
    const plan = [...Object.keys(log).map((id) => [id, id]), ['corr-svg', 'corr'], ['norms-svg', 'norms']];
    for (const [name, src] of plan) {
      if (only && !only.includes(name)) continue;
      const calls = dec(log[src]);
      if (!calls.length) continue;
      const el = document.createElement('div');
      el.className = 'body';
      el.style.width = `${widths[src]}px`;
      document.body.append(el);
      await task();
      // the first drawing: make, then the calls up to and including the first update
      const firstUpd = calls.findIndex(([m]) => m === 'update');
      const initSeries = name.startsWith('norms') ? calls.find(([m]) => m === 'setSeries')?.[1][0] ?? [] : [];
      void document.body.offsetHeight;
      const dom = window.__dom ?? {};
      const base = [dom.writes, dom.reads];
      const counts = () => [dom.writes - base[0], dom.reads - base[1]];
      dom.on = true;
      let t0 = performance.now();
      const p = window.makers[name](el, initSeries);
      for (const [m, a] of calls.slice(0, firstUpd + 1)) p[m](...a);
      const js0 = performance.now() - t0;
      await flush();
      dom.on = false;
      const firstCounts = counts();
      void document.body.offsetHeight;
      const first = performance.now() - t0;
      const redraw = [], redrawJs = [], perRedraw = [];
      const rest = calls.slice(firstUpd + 1);
      for (const [k, [m, a]] of rest.entries()) {
        await task();
        // SWITCH_THEME=1: the theme switched half-way (the plots' cached frames must follow it)
        if (switchTheme && k === Math.floor(rest.length / 2)) document.documentElement.dataset.theme = 'dark';
        dom.on = true;
        t0 = performance.now();
        p[m](...a);
        const js = performance.now() - t0;
        await flush();
        dom.on = false;
        void document.body.offsetHeight;
        redraw.push(performance.now() - t0); redrawJs.push(js);
        perRedraw.push(counts()[0]);
      }
      const [w1, r1] = counts();
      // the final drawing, canonical (elements with their attributes sorted, text, canvases' pixels):
      // the same data must give the same picture, whatever the version and its redraw path
      const canon = (n) => (n.nodeType === 3 ? n.data : n.nodeType !== 1 ? '' : n.tagName === 'CANVAS' ? `<canvas ${n.width}x${n.height} ${n.width && n.height ? n.toDataURL() : ''}>`
        : `<${n.tagName} ${[...n.attributes].map((a) => `${a.name}=${a.value}`).sort().join(' ')} style=${n.style.cssText}>${[...n.childNodes].map(canon).join('')}</>`);
      const picture = canon(el);
      document.documentElement.dataset.theme = 'light';
      out[name] = { first, firstJs: js0, redraw, redrawJs, firstWrites: firstCounts[0], firstReads: firstCounts[1], redrawWrites: (w1 - firstCounts[0]) / Math.max(1, redraw.length), redrawReads: r1 - firstCounts[1], picture, perRedraw };
      await task();
    }
    return out;
  }, { ...rec, only: process.env.ONLY?.split(',') ?? null, switchTheme: !!process.env.SWITCH_THEME });
  if (cdp) {
    const { profile } = await cdp.send('Profiler.stop');
    const self = new Map(); const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    profile.samples.forEach((id, i) => {
      const n = byId.get(id); const cf = n.callFrame;
      const k = `${cf.functionName || '(anon)'}:${cf.lineNumber}`;
      self.set(k, (self.get(k) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
    });
    // inclusive time of the named functions (INCL=a,b,c)
    if (process.env.INCL) {
      const names = process.env.INCL.split(','); const parent = new Map();
      for (const n of profile.nodes) for (const ch of n.children ?? []) parent.set(ch, n.id);
      const incl = new Map();
      profile.samples.forEach((id, i) => {
        const seen = new Set();
        for (let n = id; n !== undefined; n = parent.get(n)) {
          const fn = byId.get(n).callFrame.functionName;
          if (names.includes(fn) && !seen.has(fn)) { seen.add(fn); incl.set(fn, (incl.get(fn) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000); }
        }
      });
      console.log('inclusive:', names.map((k) => `${k} ${(incl.get(k) ?? 0).toFixed(1)}`).join(' | '));
    }
    console.log([...self].filter(([k]) => !/^\((idle|program)/.test(k)).sort((a, b) => b[1] - a[1]).slice(0, 40).map(([k, t]) => `${t.toFixed(1).padStart(6)} ${k}`).join('\n'));
  }
  await context.close();
  return res;
}
const counted = { A: await runOnce('A', true), B: await runOnce('B', true) };
const results = { A: [], B: [] };
for (let r = 0; r < runs; r++) for (const v of ['A', 'B']) results[v].push(await runOnce(v));
await browser.close(); await site.close();
rmSync(tmp, { recursive: true, force: true });

const med = (xs) => { const s = [...xs].sort((a, b) => a - b); return s.length ? s[Math.floor((s.length - 1) / 2)] : NaN; };
const p90 = (xs) => { const s = [...xs].sort((a, b) => a - b); return s.length ? s[Math.floor(0.9 * (s.length - 1))] : NaN; };
const f = (x) => x.toFixed(2).padStart(7);
console.log(`uptime: ${execFileSync('uptime').toString().trim()}`);
console.log(`A = ${rev}'s web/src/plots, B = work tree; ${runs} runs each, interleaved; ms (first: make + first data + style/layout; redraw: one update + style/layout, median and p90 over all runs' redraws; js: the plot code alone)`);
const counts = [];
console.log('panel        n  | first A   first B | firstJs A  B     | redraw A  p90 A   redraw B  p90 B  | js A    js B');
for (const name of Object.keys(results.A[0])) {
  if (!results.B[0][name]) continue;
  const g = (v, k) => results[v].flatMap((r) => r[name]?.[k] ?? []);
  const n = results.A[0][name].redraw.length;
  const k = (v, key) => { const x = counted[v][name]?.[key]; return String(Math.round(x * 10) / 10).padStart(6); };
  counts.push(`${name.padEnd(10)} | ${k('A', 'firstWrites')} ${k('B', 'firstWrites')} | ${k('A', 'firstReads')} ${k('B', 'firstReads')} | ${k('A', 'redrawWrites')} ${k('B', 'redrawWrites')} | ${k('A', 'redrawReads')} ${k('B', 'redrawReads')}`);
  console.log(`${name.padEnd(10)} ${String(n).padStart(3)} | ${f(med(g('A', 'first')))} ${f(med(g('B', 'first')))} | ${f(med(g('A', 'firstJs')))} ${f(med(g('B', 'firstJs')))} | ${f(med(g('A', 'redraw')))} ${f(p90(g('A', 'redraw')))} ${f(med(g('B', 'redraw')))} ${f(p90(g('B', 'redraw')))} | ${f(med(g('A', 'redrawJs')))} ${f(med(g('B', 'redrawJs')))}`);
}
console.log('\nfinal drawing after the replay, A vs B (canonical DOM and canvas pixels):',
  Object.keys(counted.A).map((n) => `${n} ${counted.A[n].picture === counted.B[n]?.picture ? 'same' : 'DIFFERENT'}`).join(', '));
if (process.env.DUMP) console.log('cumulative writes per redraw', process.env.DUMP, JSON.stringify(counted.B[process.env.DUMP].perRedraw));
if (process.env.DUMP) for (const v of ['A', 'B']) writeFileSync(`/tmp/plot-cost-${v}-${process.env.DUMP}.txt`, counted[v][process.env.DUMP].picture.replaceAll('<', '\n<'));
console.log('\nDOM work inside the plot code (counted run): writes = attribute/text writes and nodes added/moved/removed; reads = layout reads');
console.log('panel      | 1st writes A  B | 1st reads A B | writes/redraw A  B | reads in all redraws A  B');
for (const l of counts) console.log(l);
