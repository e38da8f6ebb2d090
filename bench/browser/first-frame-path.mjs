#!/usr/bin/env node
// The lab's first frame's critical path (issue 24): a Chromium trace of the built lab at 1280 x 800
// (?autoplay=0, the default link unless --hash), with the milestones from navigation (ms):
//   html      the HTML's first parse ends (the static shell in the DOM)
//   fcp       the first contentful paint
//   idx.req / idx.end / rd.end   the entry module (index-*.js) requested, its and the shared chunk's
//             (readout-*.js) download finished
//   eval      the entry's module graph evaluated (the end of its v8.evaluateModule)
//   comp      the lab's composition (app.js start(), its setTimeout task) begins
//   req1      the page's first request to the engine (postMessage to its worker, or answered on the
//             page: the lab's restart asks for the scenario first)
//   frame0    the page has the run's first frame (the reply to its step k = 0 request)
//   thread / engine / spec   the worker's thread starts, its engine is there, its first run is done
//   draw      the first drawing's first job (render-loop.js: the first posted task after the composition)
//   first     the lab's first plotted frame (mark lab-first-frame)
// and, per load, the main thread's tasks over --min ms (default 8) up to the first frame, with what
// is in them. Medians at the end; several builds are measured interleaved.
// Usage: node bench/browser/first-frame-path.mjs DIST [DIST...] [--runs N] [--hash '#s=rank'] [--min ms] [--quiet] [--priority]
import { launchBrowser, serveSite } from '../../tests/browser/harness.mjs';
import { traceLoad } from '../../tests/browser/trace-load.mjs';
import { boostPriority } from '../../tests/browser/page-audit.mjs';

const args = process.argv.slice(2);
const opt = (name, def) => { const i = args.indexOf(name); return i >= 0 ? args.splice(i, 2)[1] : def; };
const flag = (name) => { const i = args.indexOf(name); if (i >= 0) args.splice(i, 1); return i >= 0; };
const runs = Number(opt('--runs', 5));
const hash = opt('--hash', '');
const minTask = Number(opt('--min', 8));
const quiet = flag('--quiet');
// --priority: the browsers at nice -10 (as pages.mjs --priority: on a machine shared with compiles)
const boost = flag('--priority') ? boostPriority() : null;
const dists = args;
if (!dists.length) { console.error('usage: first-frame-path.mjs DIST [DIST...] [--runs N] [--hash H] [--min ms] [--quiet]'); process.exit(2); }

const COLS = ['html', 'fcp', 'idx.req', 'idx.end', 'rd.end', 'eval', 'comp', 'req1', 'frame0', 'thread', 'engine', 'spec', 'draw', 'first'];

// The page's requests to the engine and its replies, as user-timing marks (in the trace).
const hook = () => {
  const W = window.Worker;
  let first = true, frame = true;
  const post = W.prototype.postMessage;
  W.prototype.postMessage = function (msg, ...rest) {
    if (first && msg?.type && msg.type !== 'init') { first = false; performance.mark('ffp-req1'); }
    return post.call(this, msg, ...rest);
  };
  window.Worker = class extends W {
    constructor(...a) {
      super(...a);
      this.addEventListener('message', (e) => {
        const r = e.data?.result;
        const isFrame = (v) => v && typeof v === 'object' && 'frames' in v && 'runId' in v;
        // (a step's reply, or the init reply with the first run computed ahead by the worker)
        if (frame && (isFrame(r) || r?.firstRun?.answers.some(([, v]) => isFrame(v)))) { frame = false; performance.mark('ffp-frame0'); }
      });
    }
  };
};

async function measure(browser, site) {
  const { events, result: pageMarks, navTs: nav, onMain } = await traceLoad(browser, `${site.url}?autoplay=0${hash}`, {
    viewport: { width: 1280, height: 800 },
    categories: ['v8', 'v8.wasm', 'loading', 'toplevel', 'blink'],
    before: (page) => page.addInitScript(hook),
    until: async (page) => {
      await page.waitForFunction(() => window.__lab?.ready && !window.__lab.busy, null, { timeout: 60000, polling: 50 });
      // (marks made on the page itself: the request answered on the page has no postMessage)
      return page.evaluate(() => Object.fromEntries(performance.getEntriesByType('mark').map((m) => [m.name, m.startTime])));
    },
  });
  const parse = events.find((e) => e.name === 'ParseHTML' && onMain(e));
  const ms = (ts) => (ts == null ? null : Math.round((ts - nav) / 1000));
  const mainEv = events.filter(onMain).sort((a, b) => a.ts - b.ts);
  const threads = new Map();
  for (const e of events) if (e.name === 'thread_name') threads.set(`${e.pid}:${e.tid}`, e.args.name);
  const row = Object.fromEntries(COLS.map((c) => [c, null]));
  row.html = ms(parse.ts + (parse.dur ?? 0));
  row.fcp = ms(mainEv.find((e) => e.name === 'firstContentfulPaint')?.ts);
  const res = (re, name) => events.find((e) => e.name === name && re.test(e.args?.data?.url ?? ''));
  row['idx.req'] = ms(res(/\/index-[\w-]+\.js$/, 'ResourceSendRequest')?.ts);
  const fin = (re) => { const id = res(re, 'ResourceSendRequest')?.args.data.requestId; return ms(events.find((e) => e.name === 'ResourceFinish' && e.args?.data?.requestId === id)?.ts); };
  row['idx.end'] = fin(/\/index-[\w-]+\.js$/);
  row['rd.end'] = fin(/\/readout-[\w-]+\.js$/);
  // (the entry's graph: the first module evaluation)
  const last = mainEv.find((e) => e.name === 'v8.evaluateModule' && e.ph === 'X');
  row.eval = last ? ms(last.ts + last.dur) : null;
  const mark = (name) => (pageMarks[name] == null ? null : Math.round(pageMarks[name]));
  row.first = mark('lab-first-frame');
  row.req1 = mark('ffp-req1') ?? mark('attnsvm-page-req1');
  row.frame0 = mark('ffp-frame0') ?? mark('attnsvm-page-frame0');
  const timers = mainEv.filter((e) => e.name === 'TimerFire' && e.ts >= (last?.ts ?? 0));
  row.comp = ms(timers[0]?.ts);
  // the worker
  const evalOf = events.find((e) => e.name === 'EvaluateScript' && /\/(lab-)?worker-[\w-]+\.js/.test(e.args?.data?.url ?? '')
    && /DedicatedWorker/.test(threads.get(`${e.pid}:${e.tid}`) ?? ''));
  if (evalOf) {
    const mine = events.filter((e) => e.pid === evalOf.pid && e.tid === evalOf.tid).sort((a, b) => a.ts - b.ts);
    row.thread = ms(mine.find((e) => e.ph === 'X')?.ts);
    const wmark = (name) => mine.find((e) => e.name === name && e.cat.includes('user_timing'))?.ts;
    row.engine = ms(wmark('attnsvm-worker-engine'));
    row.spec = ms(wmark('attnsvm-worker-first-run'));
  }
  const tasks = mainEv.filter((e) => e.name === 'RunTask' && e.ph === 'X' && e.ts >= nav);
  // (the first drawing's jobs are posted tasks, render-loop.js: the first one after the composition)
  const compTs = timers[0]?.ts ?? Infinity;
  row.draw = ms(mainEv.find((e) => e.name === 'RunPostTaskCallback' && e.ts >= compTs)?.ts);
  // tasks up to the first frame
  const end = row.first != null ? nav + row.first * 1000 + 1 : Infinity;
  const NAMES = ['ParseHTML', 'v8.evaluateModule', 'v8.compileModule', 'EvaluateScript', 'TimerFire', 'FunctionCall', 'HandlePostMessage', 'FireAnimationFrame', 'UpdateLayoutTree', 'Layout', 'Paint', 'PrePaint', 'MajorGC', 'MinorGC', 'ResourceReceivedData', 'ParseAuthorStyleSheet', 'IntersectionObserverController::computeIntersections', 'ScheduleStyleRecalculation'];
  const list = tasks.filter((t) => t.ts <= end && t.dur >= minTask * 1000).map((t) => {
    const by = new Map();
    for (const e of mainEv) {
      if (e.ph !== 'X' || e === t || e.ts < t.ts || e.ts + (e.dur ?? 0) > t.ts + t.dur || !NAMES.includes(e.name)) continue;
      by.set(e.name, (by.get(e.name) ?? 0) + e.dur / 1000);
    }
    const scripts = mainEv.filter((e) => (e.name === 'EvaluateScript' || e.name === 'v8.compileModule' || e.name === 'v8.evaluateModule') && e.ts >= t.ts && e.ts <= t.ts + t.dur)
      .map((e) => String(e.args?.data?.url ?? e.args?.fileName ?? '').split('/').pop()).filter(Boolean);
    return `${String(ms(t.ts)).padStart(5)} +${(t.dur / 1000).toFixed(1).padStart(5)}  ${[...by].sort((a, b) => b[1] - a[1]).slice(0, 6).map(([k, v]) => `${k} ${v.toFixed(1)}`).join(', ')}${scripts.length ? `  [${[...new Set(scripts)].join(' ')}]` : ''}`;
  });
  const busy = tasks.filter((t) => t.ts <= end).reduce((a, t) => a + t.dur, 0) / 1000;
  return { row, list, busy: Math.round(busy) };
}

const median = (xs) => {
  const v = xs.filter((x) => x != null).sort((a, b) => a - b);
  return v.length ? v[Math.floor((v.length - 1) / 2)] : null;
};

const browser = await launchBrowser();
const sites = [];
for (const d of dists) sites.push(await serveSite({ dist: d }));
const rows = dists.map(() => []);
try {
  for (let r = 0; r < runs; r++) {
    for (let i = 0; i < dists.length; i++) {
      const { row, list, busy } = await measure(browser, sites[i]);
      row.busy = busy;
      rows[i].push(row);
      console.log(`${dists[i]} run ${r + 1}: ${[...COLS, 'busy'].map((c) => `${c} ${row[c] ?? '-'}`).join('  ')}`);
      if (!quiet) console.log(`  main-thread tasks >= ${minTask} ms up to the first frame (start +ms):\n    ${list.join('\n    ')}`);
    }
  }
} finally {
  boost?.stop();
  await browser.close();
  for (const s of sites) await s.close();
}
console.log(`\nmedians of ${runs} (ms from navigation${hash ? `, hash ${hash}` : ''}; busy: main-thread task time up to the first frame):`);
console.log(['build'.padEnd(24), ...[...COLS, 'busy'].map((c) => c.padStart(8))].join(''));
dists.forEach((d, i) => console.log([d.slice(-24).padEnd(24), ...[...COLS, 'busy'].map((c) => String(median(rows[i].map((x) => x[c])) ?? '-').padStart(8))].join('')));
