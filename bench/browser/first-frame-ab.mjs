#!/usr/bin/env node
// The lab's first plotted frame, two builds compared in alternating runs (A, B, A, B, ...: both see
// the same load on a shared machine), at 1280 x 800 with ?autoplay=0 (issue 24). Per run, from a
// Chromium trace:
//   first   the performance mark 'lab-first-frame' (ms from navigation);
//   answer  the engine's first answer: the first message from the engine's worker (its init reply,
//           which brings the page's first run: the lab draws in the task that receives it), recorded
//           by a listener added to every Worker before the page's own (an init script);
//   a->f    first - answer: the lab's drawing (and what runs in between), the part this measures;
//   paint   the end of the first main-thread task after the mark with a Paint in it (the first
//           frame's pixels), minus the mark;
//   long    the longest main-thread task from navigation to ready + 500 ms, and the count over 50 ms.
// Prints each run and the medians.
//   node bench/browser/first-frame-ab.mjs A_DIST B_DIST [PAIRS=5]   (env: VW, VH, HASH; PRIORITY=1: the
//   browsers at nice -10 as pages.mjs --priority does, on a machine shared with other work)
import { loadavg } from 'node:os';
import { launchBrowser, serveSite } from '../../tests/browser/harness.mjs';
import { traceLoad } from '../../tests/browser/trace-load.mjs';
import { median, boostPriority } from '../../tests/browser/page-audit.mjs';

const [distA, distB] = process.argv.slice(2, 4);
const pairs = Number(process.argv[4] || 5);
if (!distA || !distB) { console.error('usage: first-frame-ab.mjs A_DIST B_DIST [PAIRS]'); process.exit(2); }
const vw = Number(process.env.VW || 1280), vh = Number(process.env.VH || 800);
const sites = { A: await serveSite({ dist: distA }), B: await serveSite({ dist: distB }) };
const boost = process.env.PRIORITY === '1' ? boostPriority() : null;
const browser = await launchBrowser();

// (before the page's scripts: the head's early worker is made by an inline script)
const RECORD_ANSWER = () => {
  const W = window.Worker;
  window.Worker = class extends W {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', () => { window.__firstAnswerAt ??= performance.now(); });
    }
  };
};

async function measure(site) {
  const { events, result: { first, answer }, navTs: nav, onMain } = await traceLoad(browser, `${site.url}?autoplay=0${process.env.HASH ? `#${process.env.HASH}` : ''}`, {
    viewport: { width: vw, height: vh },
    before: (page) => page.addInitScript(RECORD_ANSWER),
    until: async (page) => {
      await page.waitForFunction(() => window.__lab?.ready && !window.__lab.busy, null, { timeout: 30000, polling: 50 });
      await page.waitForTimeout(500);
      return page.evaluate(() => ({
        first: performance.getEntriesByName('lab-first-frame')[0]?.startTime ?? null, answer: window.__firstAnswerAt ?? null,
      }));
    },
  });
  const tasks = events.filter((e) => onMain(e) && e.name === 'RunTask' && e.ph === 'X' && e.dur).sort((a, b) => a.ts - b.ts);
  const load = tasks.filter((e) => e.ts >= nav);
  const longest = load.reduce((m, e) => Math.max(m, e.dur), 0) / 1000;
  const paints = events.filter((e) => onMain(e) && e.name === 'Paint' && e.ts >= nav + first * 1000);
  const paintTask = paints.length ? tasks.find((t) => t.ts <= paints[0].ts && t.ts + t.dur >= paints[0].ts) : null;
  return {
    first: Math.round(first), answer: Math.round(answer), af: Math.round(first - answer),
    paint: paintTask ? Math.round((paintTask.ts + paintTask.dur - nav) / 1000 - first) : null,
    long: Number(longest.toFixed(1)), over50: load.filter((e) => e.dur > 50000).length,
  };
}

const runs = { A: [], B: [] };
for (let p = 0; p < pairs; p++) {
  for (const k of ['A', 'B']) {
    const r = await measure(sites[k]);
    runs[k].push(r);
    console.log(`${k} ${p + 1}: first ${r.first}  answer ${r.answer}  a->f ${r.af}  paint +${r.paint}  longest ${r.long} (${r.over50} > 50 ms)  load ${loadavg()[0].toFixed(2)}`);
  }
}
for (const k of ['A', 'B']) {
  const m = (f) => median(runs[k].map((r) => r[f]));
  console.log(`${k} median (${pairs} runs, ${k === 'A' ? distA : distB}): first ${m('first')}  answer ${m('answer')}  a->f ${m('af')}  paint +${m('paint')}  longest ${m('long')}  over50 ${m('over50')}`);
}
boost?.stop();
await browser.close();
await sites.A.close(); await sites.B.close();
process.exit(0);
