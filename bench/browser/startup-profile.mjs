#!/usr/bin/env node
// Where a page's start-up CPU goes (issue 24): a Chromium trace with the V8 CPU profiler of the first N
// seconds after navigation, at a phone's viewport (412 x 823, Lighthouse's; VW/VH to change), printing per
// thread (the page's main thread, the engine's worker) the sampled JS time by file and the top functions
// by self time, then every main-thread task over 12.5 ms (one that counts toward Lighthouse's total
// blocking time under its 4x CPU slowdown) with its trace events and top self-time functions, and
// with INCL=ms the inclusive time by function inside each task longer than that.
// Function names are readable with an unminified build:
//   npx vite build --minify false --outDir /tmp/prof && node bench/browser/startup-profile.mjs /tmp/prof '' 2
//   node bench/browser/startup-profile.mjs DIST [HASH] [SECONDS]   (env: VW, VH, TOP=40, INCL, PAGEPATH)
// PAGEPATH: another page of the site than index.html, e.g. PAGEPATH=examples/lecture-notes.html (its
// same-origin iframes run on the same main thread, so their tasks are in the list too).
import { launchBrowser, serveSite } from '../../tests/browser/harness.mjs';
import { traceLoad } from '../../tests/browser/trace-load.mjs';
const dist = process.argv[2]; const hash = process.argv[3] || ''; const secs = Number(process.argv[4] || 2);
const pagePath = process.env.PAGEPATH || '';
const vw = Number(process.env.VW || 412), vh = Number(process.env.VH || 823);
const site = await serveSite(dist ? { dist } : {});
const browser = await launchBrowser();
const { events, result: first, navTs: nav, pid, tid } = await traceLoad(browser, `${site.url}${pagePath}${hash ? '#' + hash : ''}`, {
  viewport: { width: vw, height: vh },
  categories: ['disabled-by-default-v8.cpu_profiler', 'v8.execute', 'v8'],
  until: async (page) => {
    await page.waitForTimeout(secs * 1000 + 500);
    return page.evaluate(() => performance.getEntriesByName('lab-first-frame')[0]?.startTime ?? null).catch(() => null);
  },
});
const parse = { pid, tid };
console.log('first frame', first);
// profiles: Profile (id, pid, tid) and ProfileChunk (cpuProfile {nodes, samples}, timeDeltas)
const profiles = new Map();
for (const e of events) {
  if (e.name === 'Profile') profiles.set(`${e.pid}:${e.id}`, { pid: e.pid, tid: e.tid, start: e.args.data.startTime, nodes: new Map(), samples: [], deltas: [] });
}
for (const e of events) {
  if (e.name !== 'ProfileChunk') continue;
  const p = profiles.get(`${e.pid}:${e.id}`); if (!p) continue;
  const d = e.args.data;
  for (const n of d.cpuProfile?.nodes ?? []) p.nodes.set(n.id, n);
  p.samples.push(...(d.cpuProfile?.samples ?? [])); p.deltas.push(...(d.timeDeltas ?? []));
}
const threadName = new Map(events.filter((e) => e.name === 'thread_name').map((e) => [`${e.pid}:${e.tid}`, e.args.name]));
for (const p of profiles.values()) {
  if (p.pid !== parse?.pid) continue;
  const self = new Map(); const byUrl = new Map(); let t = p.start, total = 0;
  for (let i = 0; i < p.samples.length; i++) {
    const dt = (p.deltas[i + 1] ?? 0); t += p.deltas[i];
    if (t < nav || t > nav + secs * 1e6) continue;
    const n = p.nodes.get(p.samples[i]); if (!n) continue;
    const cf = n.callFrame; const name = cf.functionName || '(anon)';
    if (name === '(idle)' || name === '(program)') continue;
    const key = `${name} ${String(cf.url).split('/').pop()}:${cf.lineNumber}`;
    const ms = Math.max(0, dt) / 1000; total += ms;
    self.set(key, (self.get(key) ?? 0) + ms);
    const u = String(cf.url).split('/').pop() || name; byUrl.set(u, (byUrl.get(u) ?? 0) + ms);
  }
  if (total < 5) continue;
  console.log(`\n== thread ${threadName.get(`${p.pid}:${p.tid}`)} (tid ${p.tid}): ${total.toFixed(0)} ms sampled in first ${secs}s`);
  console.log(' by file:', [...byUrl].sort((a, b) => b[1] - a[1]).slice(0, 10).map(([k, v]) => `${k} ${v.toFixed(0)}`).join(' | '));
  for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.TOP || 40))) console.log(`  ${v.toFixed(1).padStart(7)}  ${k}`);
}
// long tasks (> 12.5 ms) on the main thread with their top self functions
const mainProf = [...profiles.values()].find((p) => p.pid === parse?.pid && p.tid === parse?.tid);
const sampleList = [];
if (mainProf) { let t = mainProf.start; for (let i = 0; i < mainProf.samples.length; i++) { t += mainProf.deltas[i]; sampleList.push([t, mainProf.nodes.get(mainProf.samples[i]), (mainProf.deltas[i + 1] ?? 0) / 1000]); } }
const longTasks = events.filter((e) => e.pid === parse?.pid && e.tid === parse?.tid && e.name === 'RunTask' && e.ph === 'X' && e.dur > 12500 && e.ts >= nav && e.ts <= nav + secs * 1e6);
for (const lt of longTasks) {
  const m = new Map();
  for (const [t, n, dt] of sampleList) if (t >= lt.ts && t <= lt.ts + lt.dur && n) { const cf = n.callFrame; const k = `${cf.functionName || '(anon)'}@${String(cf.url).split('/').pop()}:${cf.lineNumber}`; m.set(k, (m.get(k) ?? 0) + dt); }
  if (process.env.INCL && lt.dur > Number(process.env.INCL) * 1000) {
    const inc = new Map();
    const parent = new Map(); for (const n of mainProf.nodes.values()) for (const c of n.children ?? []) parent.set(c, n.id);
    for (const [t, n, dt] of sampleList) {
      if (!(t >= lt.ts && t <= lt.ts + lt.dur && n)) continue;
      const seen = new Set(); let id = n.id;
      while (id !== undefined) { const nn = mainProf.nodes.get(id); const cf = nn.callFrame; const k = `${cf.functionName || '(anon)'}@${String(cf.url).split('/').pop()}:${cf.lineNumber}`; if (!seen.has(k)) { seen.add(k); inc.set(k, (inc.get(k) ?? 0) + dt); } id = parent.get(id); }
    }
    console.log(`  INCLUSIVE in task @${((lt.ts - nav) / 1000).toFixed(0)}: ${[...inc].sort((a, b) => b[1] - a[1]).slice(0, 45).map(([k, v]) => `${k} ${v.toFixed(1)}`).join('\n    ')}`);
  }
  const kids = events.filter((e) => e.pid === lt.pid && e.tid === lt.tid && e.ph === 'X' && e.ts >= lt.ts && e.ts + (e.dur ?? 0) <= lt.ts + lt.dur && e !== lt && ['Layout', 'UpdateLayoutTree', 'Paint', 'EvaluateScript', 'v8.compileModule', 'FunctionCall', 'TimerFire', 'FireAnimationFrame', 'HandlePostMessage', 'ParseHTML', 'v8.evaluateModule', 'MajorGC', 'MinorGC', 'PrePaint', 'Commit'].includes(e.name));
  const byK = new Map(); for (const k of kids) byK.set(k.name, (byK.get(k.name) ?? 0) + k.dur / 1000);
  console.log(`TASK @${((lt.ts - nav) / 1000).toFixed(0)} ${(lt.dur / 1000).toFixed(1)}ms  [${[...byK].map(([k, v]) => `${k} ${v.toFixed(1)}`).join(', ')}]\n    ${[...m].sort((a, b) => b[1] - a[1]).slice(0, 8).map(([k, v]) => `${k} ${v.toFixed(1)}`).join(' | ')}`);
}
// trace event totals on the main thread: by event name (Layout, UpdateLayoutTree, Paint, FunctionCall, EvaluateScript, GC)
const main = events.filter((e) => e.pid === parse?.pid && e.tid === parse?.tid && e.ph === 'X' && e.ts >= nav && e.ts <= nav + secs * 1e6);
const byName = new Map();
for (const e of main) byName.set(e.name, (byName.get(e.name) ?? 0) + (e.dur ?? 0) / 1000);
console.log('\nmain thread trace events (inclusive ms):', [...byName].sort((a, b) => b[1] - a[1]).slice(0, 25).map(([k, v]) => `${k} ${v.toFixed(0)}`).join(' | '));
await browser.close(); await site.close?.();
process.exit(0);
