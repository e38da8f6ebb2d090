#!/usr/bin/env node
// Where the time between the engine's answer and the lab's first plotted frame goes (issue 24): a
// Chromium trace of the lab's load (1280 x 800, ?autoplay=0), then every main-thread task from the
// worker's first answer that the drawing waits for (the last message before the first drawing's first
// job) to the performance mark 'lab-first-frame' + 50 ms, each with its start (ms from navigation),
// duration, what ran in it (timers, posted tasks, animation frames, messages, script evaluation with
// its file) and the rendering work (style, layout, paint, commit) by kind; also the user-timing marks
// and measures in that window (e.g. measures added while investigating), and the idle gaps.
//   node bench/browser/first-frame-timeline.mjs [DIST] [RUNS=1]   (env: VW, VH, HASH, PROFILE=1: top
//   self-time JS functions per task, V8 sampling; read with an unminified build: --minify false;
//   INIT: a script to run in the page before its own)
// Per run: answer -> first frame (ms), the main thread's busy time in that window by kind.
import { launchBrowser, serveSite } from '../../tests/browser/harness.mjs';
import { traceLoad } from '../../tests/browser/trace-load.mjs';

const dist = process.argv[2] || undefined;
const runs = Number(process.argv[3] || 1);
const vw = Number(process.env.VW || 1280), vh = Number(process.env.VH || 800);
const profile = process.env.PROFILE === '1';
const site = await serveSite(dist ? { dist } : {});
const browser = await launchBrowser();
const RENDER = new Set(['UpdateLayoutTree', 'Layout', 'PrePaint', 'Paint', 'Layerize', 'Commit', 'UpdateLayer', 'CompositeLayers', 'HitTest', 'ParseAuthorStyleSheet', 'ScrollLayer', 'IntersectionObserverController::computeIntersections', 'ResizeObserverController::BroadcastObservations']);
const SCRIPT = new Set(['TimerFire', 'FireAnimationFrame', 'HandlePostMessage', 'FunctionCall', 'EvaluateScript', 'v8.evaluateModule', 'v8.compileModule', 'EventDispatch', 'FireIdleCallback', 'v8.compile', 'MinorGC', 'MajorGC', 'V8.GC_SCAVENGER', 'XHRReadyStateChange', 'ResourceReceivedData']);
const fmt = (us) => (us / 1000).toFixed(1);

for (let r = 0; r < runs; r++) {
  const cats = ['v8', 'toplevel'];
  if (profile) cats.push('disabled-by-default-v8.cpu_profiler');
  const { events, result: first, navTs: nav, onMain } = await traceLoad(browser, `${site.url}?autoplay=0${process.env.HASH ? `#${process.env.HASH}` : ''}`, {
    viewport: { width: vw, height: vh }, categories: cats,
    // INIT: a script run in the page before its own (e.g. to switch an experiment on)
    before: (page) => (process.env.INIT ? page.addInitScript(process.env.INIT) : undefined),
    until: async (page) => {
      await page.waitForFunction(() => window.__lab?.ready && !window.__lab.busy, null, { timeout: 30000, polling: 50 });
      await page.waitForTimeout(300);
      return page.evaluate(() => performance.getEntriesByName('lab-first-frame')[0]?.startTime ?? null);
    },
  });
  const firstTs = nav + first * 1000;
  const tasks = events.filter((e) => onMain(e) && e.name === 'RunTask' && e.ph === 'X' && e.dur).sort((a, b) => a.ts - b.ts);
  // the answer: the last main-thread message from the worker (HandlePostMessage) before the first
  // drawing starts; the first drawing: the first task after it that runs render-loop's jobs is hard to
  // name in a minified build, so take the last worker message whose task starts before the first frame
  // minus the drawing's shortest time, i.e. the last HandlePostMessage before the first frame that is
  // followed by no other one before it.
  const msgs = events.filter((e) => onMain(e) && e.name === 'HandlePostMessage' && e.ts < firstTs).sort((a, b) => a.ts - b.ts);
  const answer = msgs.at(-1);
  // (a build with the mark 'ff:draw-start' at the first drawing's start: from the task it is in)
  const drawStart = events.find((e) => onMain(e) && e.name === 'ff:draw-start');
  const drawTask = drawStart && tasks.find((t) => t.ts <= drawStart.ts && t.ts + t.dur >= drawStart.ts);
  const from = process.env.FROM ? nav + Number(process.env.FROM) * 1000 : drawTask ? drawTask.ts : answer ? answer.ts : firstTs - 400e3;
  if (drawStart) console.log(`(instrumented build: the first drawing starts at ${fmt(drawStart.ts - nav)})`);
  const to = firstTs + 50e3;
  const kidsOf = (t) => events.filter((e) => onMain(e) && e.ph === 'X' && e !== t && e.ts >= t.ts && e.ts + (e.dur ?? 0) <= t.ts + t.dur);
  console.log(`\n== run ${r + 1}: first frame ${first?.toFixed(0)} ms from navigation; answer (${drawTask ? 'the task that starts the first drawing' : 'last worker message before it'}) at ${fmt(from - nav)}; answer -> first frame ${fmt(firstTs - from)} ms`);
  const marks = events.filter((e) => onMain(e) && (e.cat ?? '').includes('blink.user_timing') && e.ts >= from - 5e3 && e.ts <= to);
  const total = new Map();
  let prevEnd = from;
  let samples = null;
  if (profile) {
    const prof = [...events].find((e) => e.name === 'Profile' && onMain(e));
    if (prof) {
      const nodes = new Map(); const ids = []; const deltas = [];
      for (const e of events) if (e.name === 'ProfileChunk' && e.pid === prof.pid && e.id === prof.id) {
        for (const n of e.args.data.cpuProfile?.nodes ?? []) nodes.set(n.id, n);
        ids.push(...(e.args.data.cpuProfile?.samples ?? [])); deltas.push(...(e.args.data.timeDeltas ?? []));
      }
      samples = []; let t = prof.args.data.startTime;
      for (let i = 0; i < ids.length; i++) { t += deltas[i]; samples.push([t, nodes.get(ids[i]), (deltas[i + 1] ?? 0)]); }
    }
  }
  for (const t of tasks) {
    if (t.ts + t.dur < from || t.ts > to) continue;
    const gap = t.ts - prevEnd;
    if (gap > 2000) console.log(`   ... idle ${fmt(gap)} ms`);
    prevEnd = Math.max(prevEnd, t.ts + t.dur);
    if (t.dur < 1000) continue;
    const kids = kidsOf(t);
    const by = new Map();
    // rendering events nest (Paint inside a frame): count each name's outermost occurrences only
    const outer = (e) => !kids.some((o) => o !== e && o.name === e.name && o.ts <= e.ts && o.ts + o.dur >= e.ts + e.dur && o.dur > e.dur);
    for (const k of kids) if ((RENDER.has(k.name) || SCRIPT.has(k.name)) && outer(k)) by.set(k.name, (by.get(k.name) ?? 0) + k.dur);
    for (const [k, v] of by) total.set(k, (total.get(k) ?? 0) + v);
    const scripts = kids.filter((k) => k.name === 'FunctionCall' || k.name === 'EvaluateScript' || k.name === 'v8.evaluateModule')
      .map((k) => { const d = k.args?.data ?? {}; const url = String(d.url ?? d.fileName ?? k.args?.fileName ?? '').split('/').pop().slice(0, 40); return `${k.name === 'FunctionCall' ? '' : k.name + ' '}${d.functionName || ''}@${url}:${d.lineNumber ?? ''} ${fmt(k.dur)}`; });
    let top = '';
    if (samples) {
      const m = new Map();
      for (const [ts, n, dt] of samples) if (n && ts >= t.ts && ts <= t.ts + t.dur) { const cf = n.callFrame; if (cf.functionName === '(idle)' || cf.functionName === '(program)') continue; const k = `${cf.functionName || '(anon)'}@${String(cf.url).split('/').pop()}:${cf.lineNumber}`; m.set(k, (m.get(k) ?? 0) + dt); }
      top = [...m].sort((a, b) => b[1] - a[1]).slice(0, 6).map(([k, v]) => `${k} ${fmt(v)}`).join(' | ');
    }
    console.log(`@${fmt(t.ts - nav).padStart(6)} ${fmt(t.dur).padStart(5)}ms  ${[...by].sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${fmt(v)}`).join(', ')}`);
    if (scripts.length) console.log(`          js: ${scripts.slice(0, 6).join(' ; ')}`);
    if (top) console.log(`          self: ${top}`);
  }
  for (const m of marks) {
    if (m.ph === 'e') continue;
    const end = m.ph === 'b' ? marks.find((e) => e.ph === 'e' && e.name === m.name && e.id2?.local === m.id2?.local && e.id === m.id && e.ts >= m.ts) : null;
    console.log(`   ${m.ph === 'b' ? 'measure' : 'mark'} ${m.name} @${fmt(m.ts - nav)}${end ? ` ${fmt(end.ts - m.ts)} ms` : ''}`);
  }
  console.log(`busy in window by kind (ms): ${[...total].sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${fmt(v)}`).join(' | ')}`);
}
await browser.close(); await site.close();
process.exit(0);
