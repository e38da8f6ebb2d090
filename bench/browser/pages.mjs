#!/usr/bin/env node
// The first minutes of the four public pages, measured on the built site (dist/, served statically by
// vite preview, gzip on text as most static hosts do): issue 24's numbers.
//   - Lighthouse 12 (npm lighthouse@12.2.3, its default mobile preset: simulated slow 4G and a 4x CPU
//     slowdown, computed from the trace, so it is far less sensitive to a busy machine than devtools
//     throttling): performance, accessibility and best-practices scores, CLS, FCP, LCP, TBT;
//   - axe-core (npm) injected with playwright into every frame of the page, light and dark theme
//     (prefers-color-scheme emulated, plus the pages' own theme switch);
//   - the lab's first plotted frame (performance mark 'lab-first-frame', from navigation) and its
//     longest main-thread task until it is ready (a Chromium trace: every RunTask on the page's main
//     thread, not only the > 50 ms ones a PerformanceObserver sees).
// Each number is the median of --runs runs (default 5); the machine's load average is printed beside.
// Needs the site build (npx vite build && npx vite build -c vite.element.config.js).
//
//   node bench/browser/pages.mjs [--only lighthouse,axe,lab] [--runs 5] [--pages lab,embed,real,notes] [--json out.json]
//                                [--dist DIR]   (another build: e.g. main's, for the "before" column)
//                                [--compare DIR] (Lighthouse only: each run of this build is paired with a run
//                                                of DIR's, alternately, so both see the same load: an A/B)
//                                [--priority]   (the browsers at nice -10, as root: on a machine shared with
//                                                compiles, an approximation of an idle machine's CPU share;
//                                                say so beside the numbers)
//                                [--viewport 412x823] (the lab's measurement at another viewport than 1280x800)
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { writeFileSync } from 'node:fs';
import { launchBrowser, serveSite } from '../../tests/browser/harness.mjs';
import { PAGES, lighthouseRuns, axeScan, labStartup, median, boostPriority } from '../../tests/browser/page-audit.mjs';

const { values } = parseArgs({
  options: {
    only: { type: 'string', default: 'lighthouse,axe,lab' },
    runs: { type: 'string', default: '5' },
    pages: { type: 'string', default: Object.keys(PAGES).join(',') },
    json: { type: 'string' },
    dist: { type: 'string' },
    priority: { type: 'boolean', default: false },
    compare: { type: 'string' },
    viewport: { type: 'string', default: '1280x800' },
  },
});
const runs = Number(values.runs);
const [vw, vh] = values.viewport.split('x').map(Number);
const labOptions = { viewport: { width: vw, height: vh } };
// one line per run: the first frame, the longest task, and what each task over 50 ms did
const runLine = (r) => `${r.firstPlottedFrameMs} ms / task ${r.longestLoadTaskMs} ms @${r.longestAtMs} (longest by CPU ${r.longestLoadTaskCpuMs} ms)${r.over50.length ? `; over 50: ${r.over50.join('; ')}` : ''}`;
const only = new Set(values.only.split(','));
const pages = values.pages.split(',');
const load = () => loadavg().map((x) => x.toFixed(2)).join(' ');
const out = { date: new Date().toISOString(), runs, priority: values.priority, loadBefore: load(), lighthouse: {}, axe: {}, lab: null };
const boost = values.priority ? boostPriority() : null;

const site = await serveSite({ dist: values.dist });
try {
  if (values.compare) {
    // A/B: runs of the two builds alternate (before, after, before, ...), page by page
    const other = await serveSite({ dist: values.compare });
    try {
      for (const id of only.has('lighthouse') ? pages : []) {
        const runsOf = { before: [], after: [] };
        for (let r = 0; r < runs; r++) {
          runsOf.before.push(...await lighthouseRuns(other.url + PAGES[id].path, 1));
          runsOf.after.push(...await lighthouseRuns(site.url + PAGES[id].path, 1));
        }
        const med = (list) => Object.fromEntries(['performance', 'accessibility', 'bestPractices', 'cls', 'fcp', 'lcp', 'tbt', 'si'].map((k) => [k, median(list.map((x) => x[k]))]));
        out.lighthouse[id] = { before: { median: med(runsOf.before), runs: runsOf.before }, after: { median: med(runsOf.after), runs: runsOf.after } };
        console.log(`LIGHTHOUSE A/B ${id} (median of ${runs} alternating pairs; load ${load()}):\n  before ${JSON.stringify(med(runsOf.before))}\n  after  ${JSON.stringify(med(runsOf.after))}`);
      }
      if (only.has('lab')) {
        const browser = await launchBrowser();
        try {
          const ab = { before: [], after: [] };
          for (let r = 0; r < runs; r++) {
            ab.before.push(await labStartup(browser, other.url, labOptions));
            ab.after.push(await labStartup(browser, site.url, labOptions));
          }
          const med = (list) => ({ firstPlottedFrameMs: median(list.map((x) => x.firstPlottedFrameMs)), longestLoadTaskMs: median(list.map((x) => x.longestLoadTaskMs)), tasksOver50ms: median(list.map((x) => x.tasksOver50ms)), longestLoadTaskCpuMs: median(list.map((x) => x.longestLoadTaskCpuMs)) });
          out.lab = { before: { median: med(ab.before), runs: ab.before }, after: { median: med(ab.after), runs: ab.after } };
          console.log(`LAB A/B at ${values.viewport} (median of ${runs} alternating pairs; load ${load()}): before ${JSON.stringify(med(ab.before))}, after ${JSON.stringify(med(ab.after))}`);
          for (const k of ['before', 'after']) console.log(`  ${k}:\n    ${ab[k].map(runLine).join('\n    ')}`);
        } finally {
          await browser.close();
        }
      }
    } finally {
      await other.close();
    }
    only.delete('lighthouse');
    only.delete('lab');
  }
  if (only.has('lighthouse')) {
    for (const id of pages) {
      const url = site.url + PAGES[id].path;
      const all = await lighthouseRuns(url, runs);
      const med = Object.fromEntries(Object.keys(all[0]).filter((k) => k !== 'failing').map((k) => [k, median(all.map((r) => r[k]))]));
      med.failing = [...all].sort((a, b) => a.performance - b.performance)[Math.floor(all.length / 2)].failing;
      out.lighthouse[id] = { median: med, runs: all };
      console.log(`LIGHTHOUSE ${id} (median of ${runs}; load ${load()}): ${JSON.stringify(med)}`);
      console.log(`  runs: ${all.map((r) => `${r.performance}/${r.accessibility}/${r.bestPractices} cls ${r.cls} fcp ${r.fcp} lcp ${r.lcp} tbt ${r.tbt}`).join(' | ')}`);
    }
  }
  if (only.has('axe') || only.has('lab')) {
    const browser = await launchBrowser();
    try {
      if (only.has('axe')) {
        for (const id of pages) {
          for (const theme of ['light', 'dark']) {
            const v = await axeScan(browser, site.url, id, theme);
            out.axe[`${id}/${theme}`] = v;
            console.log(`AXE ${id} ${theme}: ${v.length} violation(s)${v.length ? `: ${v.map((x) => `${x.id} (${x.nodes}) in ${x.frame}`).join(', ')}` : ''}`);
          }
        }
      }
      if (only.has('lab')) {
        const all = [];
        for (let r = 0; r < runs; r++) all.push(await labStartup(browser, site.url, labOptions));
        out.lab = {
          firstPlottedFrameMs: median(all.map((r) => r.firstPlottedFrameMs)),
          longestLoadTaskMs: median(all.map((r) => r.longestLoadTaskMs)),
          longestLoadTaskCpuMs: median(all.map((r) => r.longestLoadTaskCpuMs)),
          runs: all,
        };
        console.log(`LAB at ${values.viewport}: first plotted frame (median of ${runs}; load ${load()}): ${out.lab.firstPlottedFrameMs} ms; longest load task ${out.lab.longestLoadTaskMs} ms (by CPU ${out.lab.longestLoadTaskCpuMs} ms)`);
        console.log(`  runs:\n    ${all.map(runLine).join('\n    ')}`);
      }
    } finally {
      await browser.close();
    }
  }
} finally {
  await site.close();
  boost?.stop();
}
out.loadAfter = load();
console.log(`load average (1, 5, 15 min): before ${out.loadBefore}, after ${out.loadAfter}${values.priority ? '; browsers at nice -10' : ''}`);
if (values.json) writeFileSync(values.json, JSON.stringify(out, null, 1));
