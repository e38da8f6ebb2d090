#!/usr/bin/env node
// The lab's playing frames (issue 24: the lab autoplays on load, and its playing frames are most of
// Lighthouse's total blocking time under its 4x CPU slowdown: an observed task over ~12.5 ms counts).
// A Chromium trace of the lab's load with autoplay; from the moment the run starts playing (the test
// hook's __lab.playing, polled each animation frame by an init script) for SECS seconds (or until it
// stops), every main-thread task: the animation-frame tasks (those with a FireAnimationFrame: the
// frames), their wall-time median, p90 and max, and all tasks' count over 12 ms and the longest, with
// each long task's main trace events (VERBOSE=1). Builds alternate run by run (A, B, A, B, ...).
//   node bench/browser/play-frames.mjs DIST [DIST_B ...] [--runs 5] [--secs 5]   (env VW, VH: viewport,
//   default 412 x 823, Lighthouse's mobile; e.g. VW=1280 VH=800)
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { launchBrowser, serveSite } from '../../tests/browser/harness.mjs';
import { traceLoad } from '../../tests/browser/trace-load.mjs';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { runs: { type: 'string', default: '5' }, secs: { type: 'string', default: '5' } } });
const dists = positionals.length ? positionals : ['dist'];
const runs = Number(values.runs), secs = Number(values.secs);
const vw = Number(process.env.VW || 412), vh = Number(process.env.VH || 823);
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s.length ? (s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : NaN; };
const quantile = (xs, q) => { const s = [...xs].sort((a, b) => a - b); return s.length ? s[Math.min(s.length - 1, Math.floor(q * s.length))] : NaN; };
const KINDS = { script: ['FunctionCall', 'EvaluateScript', 'v8.evaluateModule', 'TimerFire', 'FireAnimationFrame', 'HandlePostMessage'], style: ['UpdateLayoutTree'], layout: ['Layout'], paint: ['PrePaint', 'Paint', 'Commit', 'Layerize'] };

async function measure(browser, siteUrl) {
  // (the play log's times are the page's, from its time origin: traceLoad's navigation start)
  const { events, result: playLog, ms: fromNav, onMain } = await traceLoad(browser, siteUrl, {
    viewport: { width: vw, height: vh },
    before: (page) => page.addInitScript(() => {
      const log = window.__playLog = [];
      let was = false;
      const poll = () => {
        const p = !!window.__lab?.playing;
        if (p !== was) { log.push([performance.now(), p]); was = p; }
        requestAnimationFrame(poll);
      };
      requestAnimationFrame(poll);
    }),
    until: async (page) => {
      await page.waitForFunction(() => window.__playLog?.length > 0, null, { timeout: 60000, polling: 50 });
      await page.waitForTimeout(secs * 1000 + 300);
      return page.evaluate(() => window.__playLog);
    },
  });
  const main = events.filter((e) => onMain(e) && e.ph === 'X');
  const start = playLog[0][0], stop = playLog.find(([, p]) => !p)?.[0] ?? Infinity;
  const end = Math.min(stop, start + secs * 1000);
  const ms = (e) => fromNav(e.ts);
  const tasks = main.filter((e) => e.name === 'RunTask' && ms(e) >= start && ms(e) < end).map((t) => {
    const inside = main.filter((e) => e !== t && e.ts >= t.ts && e.ts + e.dur <= t.ts + t.dur);
    const by = {};
    for (const [kind, names] of Object.entries(KINDS)) by[kind] = inside.filter((e) => names.includes(e.name)).reduce((a, e) => a + e.dur / 1000, 0);
    // (script: the outermost events only, FireAnimationFrame holds FunctionCall)
    by.script = inside.filter((e) => KINDS.script.includes(e.name) && !inside.some((o) => o !== e && KINDS.script.includes(o.name) && o.ts <= e.ts && o.ts + o.dur >= e.ts + e.dur)).reduce((a, e) => a + e.dur / 1000, 0);
    return { t: ms(t), dur: t.dur / 1000, cpu: (t.tdur ?? t.dur) / 1000, raf: inside.some((e) => e.name === 'FireAnimationFrame'), by };
  });
  return { start, end, tasks };
}

const site = await Promise.all(dists.map((dist) => serveSite({ dist })));
const browser = await launchBrowser();
const results = dists.map(() => []);
for (let r = 0; r < runs; r++) {
  for (let d = 0; d < dists.length; d++) {
    const m = await measure(browser, site[d].url);
    results[d].push(m);
    const frames = m.tasks.filter((t) => t.raf), long = m.tasks.filter((t) => t.dur > 12);
    console.log(`${dists[d]} run ${r + 1}: playing ${m.start.toFixed(0)}-${m.end.toFixed(0)} ms, ${frames.length} frame tasks median ${median(frames.map((t) => t.dur)).toFixed(1)} p90 ${quantile(frames.map((t) => t.dur), 0.9).toFixed(1)} max ${Math.max(0, ...frames.map((t) => t.dur)).toFixed(1)} ms; tasks > 12 ms: ${long.length} (longest ${Math.max(0, ...m.tasks.map((t) => t.dur)).toFixed(1)}); cpu: frame median ${median(frames.map((t) => t.cpu)).toFixed(1)}, tasks > 12 ms ${m.tasks.filter((t) => t.cpu > 12).length}`);
    if (process.env.VERBOSE) {
      for (const t of long) console.log(`   @${t.t.toFixed(0)} ${t.dur.toFixed(1)} ms (cpu ${t.cpu.toFixed(1)})${t.raf ? ' (frame)' : ''}: ${Object.entries(t.by).map(([k, v]) => `${k} ${v.toFixed(1)}`).join(', ')}`);
    }
  }
}
console.log(`\nviewport ${vw}x${vh}, ${runs} runs, first ${secs} s of playing; load ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
// (medians over the runs of each run's figure; wall: the task's duration, what Lighthouse sees;
// cpu: the thread's CPU time in it, which a loaded machine's descheduling does not inflate)
console.log('build | time | frame tasks/run | frame median | frame p90 | frame max | tasks > 12 ms/run | longest task | sum over 12 ms | frame script/style/layout/paint (median ms, wall)');
for (let d = 0; d < dists.length; d++) {
  const ms = results[d];
  const perRun = (f) => median(ms.map(f));
  const frames = (m) => m.tasks.filter((t) => t.raf);
  const col = (k) => perRun((m) => median(frames(m).map((t) => t.by[k]))).toFixed(1);
  for (const v of ['dur', 'cpu']) {
    console.log(`${dists[d]} | ${v === 'dur' ? 'wall' : 'cpu'} | ${perRun((m) => frames(m).length)} | ${perRun((m) => median(frames(m).map((t) => t[v]))).toFixed(1)} | ${perRun((m) => quantile(frames(m).map((t) => t[v]), 0.9)).toFixed(1)} | ${perRun((m) => Math.max(0, ...frames(m).map((t) => t[v]))).toFixed(1)} | ${perRun((m) => m.tasks.filter((t) => t[v] > 12).length)} | ${perRun((m) => Math.max(0, ...m.tasks.map((t) => t[v]))).toFixed(1)} | ${perRun((m) => m.tasks.reduce((a, t) => a + Math.max(0, t[v] - 12), 0)).toFixed(0)} | ${v === 'dur' ? ['script', 'style', 'layout', 'paint'].map(col).join(' / ') : ''}`);
  }
}
await browser.close();
for (const s of site) await s.close?.();
process.exit(0);
