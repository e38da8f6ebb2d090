// The lab's engine worker's start-up, from navigation, in a trace at 1280 x 800 (headless Chromium,
// the built site served by vite preview):
//   thread   the worker's thread starts (its isolate's initialization)
//   eval     its script is evaluated
//   wasm     the wasm's response arrives in the worker
//   compiled the wasm's streamed compile is done
//   engine   the engine is there (lab-worker.js's mark; before it: the worker's first init message)
//   spec     the page's first run computed in the worker (lab-worker.js's mark, first-run.js)
//   frame    the page's main thread receives the first run's first frame (the reply to step k = 0,
//            or the init reply that carries it: lab-worker.js)
//   answer   the page can answer its first run (mark lab-answer, engine-early.js: the engine's init
//            reply has arrived, or the first run came with the page's code for the default link)
//   first    the lab's first plotted frame (mark lab-first-frame)
// Several builds are measured interleaved (A, B, A, B, ...); the medians at the end.
// Usage: node bench/browser/worker-timeline.mjs DIST [DIST...] [--runs N] [--hash '#s=rank'] [--autoplay]
import { launchBrowser, serveSite } from '../../tests/browser/harness.mjs';
import { traceLoad } from '../../tests/browser/trace-load.mjs';

const args = process.argv.slice(2);
const opt = (name, def) => { const i = args.indexOf(name); return i >= 0 ? args.splice(i, 2)[1] : def; };
const runs = Number(opt('--runs', 3));
const hash = opt('--hash', '');
const autoplay = args.includes('--autoplay') ? (args.splice(args.indexOf('--autoplay'), 1), true) : false;
const dists = args;
if (!dists.length) { console.error('usage: worker-timeline.mjs DIST [DIST...] [--runs N] [--hash H]'); process.exit(2); }

const COLS = ['thread', 'eval', 'wasm', 'compiled', 'engine', 'spec', 'frame', 'answer', 'first'];

// Counts the page's receipt of the first training frame (a reply carrying frames and a runId).
const hook = () => {
  const W = window.Worker;
  window.__firstFrameAt = null;
  window.Worker = class extends W {
    constructor(...a) {
      super(...a);
      this.addEventListener('message', (e) => {
        const r = e.data?.result;
        const isFrame = (v) => v && typeof v === 'object' && 'frames' in v && 'runId' in v;
        // (a step's reply, or the init reply with the first run computed ahead: lab-worker.js)
        if (window.__firstFrameAt === null && (isFrame(r) || r?.firstRun?.answers.some(([, v]) => isFrame(v)))) window.__firstFrameAt = performance.now();
      });
    }
  };
};

async function measure(browser, site) {
  const { events, result: { first, frame, answer }, navTs: nav } = await traceLoad(browser, `${site.url}${autoplay ? '' : '?autoplay=0'}${hash}`, {
    viewport: { width: 1280, height: 800 },
    categories: ['v8', 'v8.wasm', 'loading', 'toplevel'],
    before: (page) => page.addInitScript(hook),
    until: async (page) => {
      await page.waitForFunction(() => window.__lab?.ready && !window.__lab.busy, null, { timeout: 60000, polling: 50 });
      return page.evaluate(() => ({ first: performance.getEntriesByName('lab-first-frame')[0]?.startTime,
        answer: performance.getEntriesByName('lab-answer')[0]?.startTime, frame: window.__firstFrameAt }));
    },
  });
  const ms = (ts) => (ts == null ? null : Math.round((ts - nav) / 1000));
  const threads = new Map();
  for (const e of events) if (e.name === 'thread_name') threads.set(`${e.pid}:${e.tid}`, e.args.name);
  // the lab's worker: the dedicated worker whose script is worker-*.js or lab-worker-*.js
  const evalOf = events.find((e) => e.name === 'EvaluateScript' && /\/(lab-)?worker-[\w-]+\.js/.test(e.args?.data?.url ?? '')
    && /DedicatedWorker/.test(threads.get(`${e.pid}:${e.tid}`) ?? ''));
  const row = { thread: null, eval: null, wasm: null, compiled: null, engine: null, spec: null, frame: frame == null ? null : Math.round(frame), answer: answer == null ? null : Math.round(answer), first: first == null ? null : Math.round(first) };
  if (evalOf) {
    const mine = events.filter((e) => e.pid === evalOf.pid && e.tid === evalOf.tid).sort((a, b) => a.ts - b.ts);
    row.thread = ms(mine.find((e) => e.ph === 'X')?.ts);
    row.eval = ms(evalOf.ts);
    row.wasm = ms(mine.find((e) => /OnReceiveResponse/.test(e.name) && /attnsvm\.wasm/.test(e.args?.data?.url ?? e.args?.url ?? ''))?.ts
      ?? mine.find((e) => e.name === 'v8.wasm.streamFromResponseCallback')?.ts);
    const fin = mine.find((e) => e.name === 'wasm.FinishStreaming');
    row.compiled = fin ? ms(fin.ts + fin.dur) : null;
    const mark = (name) => mine.find((e) => e.name === name && e.cat.includes('user_timing'))?.ts;
    // (before the worker's own marks: the end of its first init message's handling)
    const initDone = mine.find((e) => e.name === 'HandlePostMessage' && fin && e.ts + e.dur >= fin.ts);
    row.engine = ms(mark('attnsvm-worker-engine') ?? (initDone ? initDone.ts + initDone.dur : undefined));
    row.spec = ms(mark('attnsvm-worker-first-run'));
  }
  return row;
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
      const row = await measure(browser, sites[i]);
      rows[i].push(row);
      console.log(`${dists[i]} run ${r + 1}: ${COLS.map((c) => `${c} ${row[c] ?? '-'}`).join('  ')}`);
    }
  }
} finally {
  await browser.close();
  for (const s of sites) await s.close();
}
console.log(`\nmedians of ${runs} (ms from navigation${hash ? `, hash ${hash}` : ''}):`);
console.log(['build'.padEnd(28), ...COLS.map((c) => c.padStart(8))].join(''));
dists.forEach((d, i) => console.log([d.slice(-28).padEnd(28), ...COLS.map((c) => String(median(rows[i].map((x) => x[c])) ?? '-').padStart(8))].join('')));
