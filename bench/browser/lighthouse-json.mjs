#!/usr/bin/env node
// Lighthouse's whole report (lhr JSON) for several runs of one page, saved for reading, with a short
// digest per run of what decides the simulated paint metrics: the LCP element, the observed and the
// simulated FCP/LCP, the requests Lantern's graph has before the first paint (render-blocking
// resources, the critical request chains) and the long main-thread tasks. Made to find why the lecture
// notes' simulated FCP/LCP were bimodal (docs/BENCHMARKS.md, 2026-12-03).
//
//   node bench/browser/lighthouse-json.mjs [--dist DIR] [--page notes] [--runs 4] [--out /tmp/lh-notes] [--priority] [--trace] [--path examples/x.html]
//
// Writes OUT/run-N.json (the lhr; with --trace also OUT/run-N.trace.json, the trace Lantern simulated from) and prints the digest. Uses tests/browser/page-audit.mjs's Lighthouse
// settings (mobile preset).
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { serveSite } from '../../tests/browser/harness.mjs';
import { PAGES, boostPriority } from '../../tests/browser/page-audit.mjs';

const { values } = parseArgs({
  options: {
    dist: { type: 'string' }, page: { type: 'string', default: 'notes' }, runs: { type: 'string', default: '4' },
    out: { type: 'string', default: '/tmp/lh-json' }, priority: { type: 'boolean', default: false }, trace: { type: 'boolean', default: false }, path: { type: 'string' },
  },
});
mkdirSync(values.out, { recursive: true });
const boost = values.priority ? boostPriority() : null;
const site = await serveSite({ dist: values.dist });
const { default: lighthouse } = await import('lighthouse');
const chromeLauncher = await import('chrome-launcher');
const short = (u) => String(u).replace(site.url, '/').slice(0, 90);
try {
  for (let r = 0; r < Number(values.runs); r++) {
    const chrome = await chromeLauncher.launch({
      chromePath: process.env.CHROME_PATH || '/usr/bin/chromium',
      chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
    });
    try {
      const res = await lighthouse(site.url + (values.path ?? PAGES[values.page].path), {
        port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'],
      });
      const lhr = res.lhr;
      writeFileSync(`${values.out}/run-${r}.json`, JSON.stringify(lhr));
      if (values.trace && res.artifacts?.Trace) writeFileSync(`${values.out}/run-${r}.trace.json`, JSON.stringify(res.artifacts.Trace));
      const a = lhr.audits;
      const m = a.metrics?.details?.items?.[0] ?? {};
      const lcpEl = a['largest-contentful-paint-element']?.details?.items?.[0]?.items?.[0]?.node;
      const rb = (a['render-blocking-resources']?.details?.items ?? []).map((i) => `${short(i.url)} ${Math.round(i.wastedMs)}ms`);
      const reqs = (a['network-requests']?.details?.items ?? []).map((i) =>
        `${Math.round(i.networkRequestTime)}-${Math.round(i.networkEndTime)} ${i.resourceType} ${i.priority} ${Math.round(i.transferSize / 1024)}KB ${short(i.url)}`);
      const tasks = (a['long-tasks']?.details?.items ?? []).map((i) => `${Math.round(i.startTime)}+${Math.round(i.duration)} ${short(i.url)}`);
      console.log(`run ${r} (load ${loadavg()[0].toFixed(2)}): perf ${Math.round(lhr.categories.performance.score * 100)}`
        + ` FCP ${Math.round(a['first-contentful-paint'].numericValue)} LCP ${Math.round(a['largest-contentful-paint'].numericValue)}`
        + ` TBT ${Math.round(a['total-blocking-time'].numericValue)} | observed FCP ${m.observedFirstContentfulPaint} LCP ${m.observedLargestContentfulPaint}`
        + ` load ${m.observedLoad} DCL ${m.observedDomContentLoaded}`);
      console.log(`  LCP element: ${lcpEl?.selector ?? '?'} ${lcpEl?.nodeLabel?.slice(0, 60) ?? ''}`);
      console.log(`  render-blocking: ${rb.join('; ') || 'none'}`);
      console.log(`  requests:\n    ${reqs.join('\n    ')}`);
      console.log(`  long tasks (simulated): ${tasks.join('; ') || 'none'}`);
    } finally {
      await chrome.kill();
    }
  }
} finally {
  await site.close();
  boost?.stop();
}
