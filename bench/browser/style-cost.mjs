#!/usr/bin/env node
// Where the lab's load tasks spend their style, layout and font time (issue 24, round 8): a Chromium
// trace of the first N seconds of a load with the font categories, at a phone's viewport (412 x 823,
// Lighthouse's) and a desktop's (1280 x 800). Prints, per viewport and run:
//   - every main-thread task over 12 ms with its style recalcs (UpdateLayoutTree), layouts, parse and
//     script time, and its synchronous font requests to the browser process (on Linux each is an IPC
//     round trip: family matches, render styles per font+size ("strike"), fallback-per-character
//     lookups) and FontCache platform-data lookups;
//   - totals of those font requests in the window, the families matched, and which of them
//     happened before first contentful paint;
//   - from the page after load: how many distinct (family, weight, style, size) the text in the
//     first screen and in the whole rendered page uses, and the rendered characters the default font
//     (fc-match of the page's first family, DejaVu Sans here) lacks, with the elements they are in
//     (each such character is a fallback lookup, once per font+size).
// Usage: node bench/browser/style-cost.mjs [DIST ...] [--runs N] [--secs S] [--sizes 412x823,1280x800]
//          [--hash H] [--blink] [--quiet]
//   Several DISTs: their runs alternate (A, B, A, B, ...) and the medians are printed per build.
//   --blink adds the `blink` trace category (LocalFrameView/Document::UpdateStyleAndLayout events;
//   slows the page ~10%); --quiet prints only the per-run summary lines (for A/B pairs).
import { execFileSync } from 'node:child_process';
import { launchBrowser, serveSite } from '../../tests/browser/harness.mjs';
import { traceLoad } from '../../tests/browser/trace-load.mjs';

const argv = process.argv.slice(2);
const flag = (name, def) => { const i = argv.indexOf(name); return i >= 0 ? argv[i + 1] : def; };
// positional arguments: builds to compare (runs alternate between them, so each sees the same load)
const dists = [];
for (let i = 0; i < argv.length && !argv[i].startsWith('--'); i++) dists.push(argv[i]);
if (!dists.length) dists.push(undefined);
const runs = Number(flag('--runs', 1));
const secs = Number(flag('--secs', 2));
const hash = flag('--hash', '');
const quiet = argv.includes('--quiet');
const sizes = flag('--sizes', '412x823,1280x800').split(',').map((s) => s.split('x').map(Number));
const categories = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'fonts', 'loading',
  'blink.user_timing', 'mojom', ...(argv.includes('--blink') ? ['blink'] : [])];

// The characters a font file covers (fontconfig's charset of the family the page's text resolves to).
function coverage(family) {
  try {
    const file = execFileSync('fc-match', ['-f', '%{file}', family], { encoding: 'utf8' });
    const ranges = execFileSync('fc-query', ['-f', '%{charset}', file], { encoding: 'utf8' }).trim().split(/\s+/);
    return { file, ranges: ranges.map((r) => r.split('-').map((h) => parseInt(h, 16))).map(([a, b]) => [a, b ?? a]) };
  } catch { return null; }
}
const covers = (cov, cp) => cov.ranges.some(([a, b]) => cp >= a && cp <= b);

const FONT_EVENTS = {
  platform: 'FontCache::GetFontPlatformData',
  family: 'FontDataManager::onMatchFamilyStyle',
  strike: 'WebSandboxSupportLinux::GetWebFontRenderStyleForStrike',
  fallback: 'WebSandboxSupportLinux::GetFallbackFontForCharacter',
  fallbackCache: 'FontCache::FallbackFontForCharacter',
};
const IPC = ['family', 'strike', 'fallback'];
const KIDS = ['UpdateLayoutTree', 'Layout', 'ParseHTML', 'EvaluateScript', 'v8.evaluateModule', 'FunctionCall',
  'TimerFire', 'EventDispatch', 'ParseAuthorStyleSheet', 'Paint', 'PrePaint', 'MajorGC', 'MinorGC'];

async function traceOnce(browser, url, [vw, vh]) {
  const { events, result: fonts, pid, tid, navTs } = await traceLoad(browser, url, {
    viewport: { width: vw, height: vh }, categories,
    until: async (page) => { await page.waitForTimeout(secs * 1000 + 300); return page.evaluate(fontCensus); },
  });
  return { events, fonts, pid, tid, nav: navTs };
}

// In the page: the distinct fonts and the characters of the rendered text, in the first screen and in all.
function fontCensus() {
  const vh = innerHeight;
  const all = new Map(); const first = new Map(); const chars = new Map();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement; const text = n.data.trim();
    if (!el || !text || !el.checkVisibility?.({ contentVisibilityAuto: false })) continue;
    const cs = getComputedStyle(el);
    const key = `${cs.fontFamily.split(',')[0].trim()}|${cs.fontWeight}|${cs.fontStyle}|${cs.fontSize}`;
    all.set(key, (all.get(key) ?? 0) + 1);
    const r = document.createRange(); r.selectNodeContents(n); const b = r.getBoundingClientRect();
    const inFirst = b.height > 0 && b.top < vh && b.bottom > 0;
    if (inFirst) first.set(key, (first.get(key) ?? 0) + 1);
    for (const ch of text) {
      const cp = ch.codePointAt(0); if (cp < 0x80) continue;
      const where = el.id ? `#${el.id}` : `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}${el.closest('[id]') ? ` in #${el.closest('[id]').id}` : ''}`;
      const c = chars.get(cp) ?? { ch, n: 0, where: new Set(), fonts: new Set(), inFirst: false };
      c.n++; c.where.add(where); c.fonts.add(key); c.inFirst ||= inFirst; chars.set(cp, c);
    }
  }
  return {
    family: getComputedStyle(document.body).fontFamily,
    all: [...all], first: [...first],
    chars: [...chars].map(([cp, c]) => ({ cp, ch: c.ch, n: c.n, inFirst: c.inFirst, where: [...c.where].slice(0, 4), fonts: [...c.fonts] })),
  };
}

function analyse({ events, pid, tid, nav }) {
  const end = nav + secs * 1e6;
  const onMain = events.filter((e) => e.pid === pid && e.tid === tid && e.ts >= nav && e.ts <= end);
  const fcp = onMain.find((e) => e.name === 'firstContentfulPaint')?.ts;
  const dcl = onMain.find((e) => e.name === 'MarkDOMContent')?.ts;
  const ms = (t) => ((t - nav) / 1000).toFixed(0);
  const tasks = onMain.filter((e) => e.name === 'RunTask' && e.ph === 'X').sort((a, b) => a.ts - b.ts);
  const x = onMain.filter((e) => e.ph === 'X');
  const inTask = (t) => x.filter((e) => e.ts >= t.ts && e.ts + (e.dur ?? 0) <= t.ts + t.dur && e !== t);
  const fontStats = (list) => {
    const s = {};
    for (const [k, name] of Object.entries(FONT_EVENTS)) {
      // (a lookup can nest another of its kind, FontCache::GetFontPlatformData twice: count the outer one)
      const all = list.filter((e) => e.name === name);
      const ev = all.filter((e) => !all.some((o) => o !== e && o.ts <= e.ts && o.ts + o.dur >= e.ts + e.dur));
      s[k] = { n: ev.length, ms: ev.reduce((a, e) => a + (e.dur ?? 0), 0) / 1000 };
    }
    s.ipcMs = IPC.reduce((a, k) => a + s[k].ms, 0);
    return s;
  };
  const cpu = (t) => (t.tdur ?? t.dur) / 1000;
  const long = tasks.filter((t) => t.dur > 12000).map((t) => {
    const kids = inTask(t);
    const by = new Map();
    for (const k of kids) if (KIDS.includes(k.name)) {
      const key = k.name === 'EventDispatch' ? `Event:${k.args?.data?.type}` : k.name;
      by.set(key, (by.get(key) ?? 0) + k.dur / 1000);
    }
    const families = kids.filter((e) => e.name === FONT_EVENTS.family).map((e) => e.args?.family_name);
    return { at: (t.ts - nav) / 1000, dur: t.dur / 1000, cpu: cpu(t), by, font: fontStats(kids), families };
  });
  const total = fontStats(x);
  const beforeFcp = fcp ? fontStats(x.filter((e) => e.ts < fcp)) : null;
  const families = x.filter((e) => e.name === FONT_EVENTS.family).map((e) => `${e.args?.family_name || '""'}@${ms(e.ts)}`);
  const over50 = tasks.filter((t) => t.dur > 50000);
  // the task that dispatched DOMContentLoaded (module evaluation, then the browser's form-control scan)
  const dclTask = dcl && tasks.find((t) => t.ts <= dcl && t.ts + t.dur >= dcl);
  // Lighthouse's view, roughly: tasks after FCP, each observed ms counting 4x, the excess over 50 ms
  const tbt4x = fcp ? tasks.filter((t) => t.ts + t.dur > fcp).reduce((a, t) => a + Math.max(0, (4 * t.dur) / 1000 - 50), 0) : NaN;
  // the same from the tasks' thread CPU time (tdur): on a loaded machine a task's wall time is mostly
  // waiting for a core; its CPU time is what a quiet machine would see, less the font IPC's waits
  const cpu4x = fcp ? tasks.filter((t) => t.ts + t.dur > fcp).reduce((a, t) => a + Math.max(0, 4 * cpu(t) - 50), 0) : NaN;
  const cpuLongest = Math.max(0, ...tasks.map(cpu));
  const cpuTotal = tasks.reduce((a, t) => a + cpu(t), 0);
  const afterFcp = fcp ? Math.max(0, ...tasks.filter((t) => t.ts + t.dur > fcp).map((t) => t.dur / 1000)) : NaN;
  const longest = Math.max(0, ...tasks.map((t) => t.dur / 1000));
  return { nav, fcp: fcp && (fcp - nav) / 1000, dcl: dcl && (dcl - nav) / 1000, long, total, beforeFcp, families, over50: over50.length, longest,
    dclTask: dclTask ? dclTask.dur / 1000 : NaN, dclCpu: dclTask ? cpu(dclTask) : NaN, tbt4x, afterFcp, cpu4x, cpuLongest, cpuTotal,
    styleMs: x.filter((e) => e.name === 'UpdateLayoutTree').reduce((a, e) => a + e.dur / 1000, 0),
    styleCpu: x.filter((e) => e.name === 'UpdateLayoutTree').reduce((a, e) => a + cpu(e), 0),
    layoutCpu: x.filter((e) => e.name === 'Layout').reduce((a, e) => a + cpu(e), 0),
    // (with --blink) the forced style/layout updates in the DOMContentLoaded task: the browser's scan of the form controls
    dclForced: dclTask ? x.filter((e) => e.name === 'Document::UpdateStyleAndLayout' && e.ts >= dclTask.ts && e.ts <= dclTask.ts + dclTask.dur).length : NaN,
    layoutMs: x.filter((e) => e.name === 'Layout').reduce((a, e) => a + e.dur / 1000, 0) };
}

const f1 = (v) => v.toFixed(1);
const fstat = (s) => `platform ${s.platform.n} (${f1(s.platform.ms)}ms) family ${s.family.n} (${f1(s.family.ms)}) strike ${s.strike.n} (${f1(s.strike.ms)}) fallback ${s.fallback.n} (${f1(s.fallback.ms)}) [ipc ${f1(s.ipcMs)}ms]`;

const sites = [];
for (const dist of dists) sites.push(await serveSite(dist ? { dist } : {}));
const label = (i) => dists[i] ?? 'dist';
const summary = [];
for (const size of sizes) {
  for (let run = 0; run < runs; run++) {
    for (let di = 0; di < sites.length; di++) {
      const site = sites[di];
      const url = `${site.url}${hash ? `#${hash}` : ''}`;
      // a fresh browser each run: the renderer's and the browser's font caches start cold, as on a first visit
      const browser = await launchBrowser();
      const traced = await traceOnce(browser, url, size);
      const { fonts } = traced;
      await browser.close();
      const a = analyse(traced);
      const row = { build: di, size: size.join('x'), run, fcp: a.fcp, dcl: a.dcl, longest: a.longest, over50: a.over50, afterFcp: a.afterFcp, tbt4x: a.tbt4x, dclTask: a.dclTask, dclCpu: a.dclCpu, cpu4x: a.cpu4x, cpuLongest: a.cpuLongest, cpuTotal: a.cpuTotal, styleCpu: a.styleCpu, layoutCpu: a.layoutCpu, dclForced: a.dclForced,
        style: a.styleMs, layout: a.layoutMs, platform: a.total.platform.n, family: a.total.family.n, strike: a.total.strike.n, fallback: a.total.fallback.n, ipc: a.total.ipcMs,
        firstFonts: fonts.first.length, allFonts: fonts.all.length };
      summary.push(row);
      console.log(`\n== ${label(di)} ${row.size} run ${run}: FCP ${f1(a.fcp ?? NaN)} DCL ${f1(a.dcl ?? NaN)} ms; longest task ${f1(a.longest)} ms (after FCP ${f1(a.afterFcp)}), ${a.over50} over 50 ms; DCL task ${f1(a.dclTask)} ms (cpu ${f1(a.dclCpu)}); 4x excess after FCP ${f1(a.tbt4x)} ms (from cpu ${f1(a.cpu4x)}); main-thread cpu ${f1(a.cpuTotal)} ms, longest task's ${f1(a.cpuLongest)}; UpdateLayoutTree ${f1(a.styleMs)} ms (cpu ${f1(a.styleCpu)}), Layout ${f1(a.layoutMs)} ms (cpu ${f1(a.layoutCpu)}) in ${secs}s${argv.includes('--blink') ? `; ${a.dclForced} forced style/layout updates in the DCL task` : ''}`);
      console.log(`   fonts in ${secs}s: ${fstat(a.total)}`);
      if (a.beforeFcp) console.log(`   before FCP: ${fstat(a.beforeFcp)}`);
      if (quiet) continue;
      console.log(`   families matched: ${a.families.join(' ')}`);
      for (const t of a.long) {
        console.log(`   TASK @${t.at.toFixed(0)} ${f1(t.dur)}ms (cpu ${f1(t.cpu)})  ${[...t.by].map(([k, v]) => `${k} ${f1(v)}`).join(', ')}`);
        if (t.font.platform.n) console.log(`        ${fstat(t.font)}${t.families.length ? ` families: ${t.families.map((f) => f || '""').join(',')}` : ''}`);
      }
      if (run === 0) {
        console.log(`   distinct fonts (family|weight|style|size): first screen ${fonts.first.length}, whole rendered page ${fonts.all.length}`);
        console.log(`     first screen: ${fonts.first.map(([k, n]) => `${k} x${n}`).join('; ')}`);
        console.log(`     elsewhere: ${fonts.all.filter(([k]) => !fonts.first.some(([f]) => f === k)).map(([k, n]) => `${k} x${n}`).join('; ')}`);
        // each family's system font (fontconfig); Chromium's generic `math` has no font here (Latin
        // Modern Math is not installed) and resolves to the serif one; KaTeX_* are web fonts (left out)
        const system = (fam) => (/^katex/i.test(fam) ? null : fam === 'math' ? 'serif' : fam === 'system-ui' ? 'sans-serif' : fam);
        const covs = new Map();
        const missing = [];
        for (const c of fonts.chars) {
          const lacking = c.fonts.map((k) => system(k.split('|')[0].replace(/["']/g, ''))).filter((f) => {
            if (!f) return false;
            if (!covs.has(f)) covs.set(f, coverage(f));
            const cov = covs.get(f);
            return cov && !covers(cov, c.cp);
          });
          if (lacking.length) missing.push({ ...c, lacking: [...new Set(lacking)] });
        }
        const show = (c) => `${c.ch} U+${c.cp.toString(16).toUpperCase()} x${c.n}${c.inFirst ? ' (first screen)' : ''} in ${c.where.join(', ')} [${c.fonts.join('; ')}; not in ${c.lacking.map((f) => covs.get(f).file.split('/').pop()).join(', ')}]`;
        console.log(`     characters their system font lacks (a fallback lookup each, per font+size): ${missing.length ? missing.map(show).join('\n       ') : 'none'}`);
      }
    }
  }
}
const median = (v) => { const s = [...v].filter((x) => Number.isFinite(x)).sort((a, b) => a - b); return !s.length ? NaN : s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2; };
const keys = ['fcp', 'dcl', 'longest', 'afterFcp', 'over50', 'dclTask', 'dclCpu', 'tbt4x', 'cpu4x', 'cpuLongest', 'cpuTotal', 'styleCpu', 'layoutCpu', 'dclForced', 'style', 'layout', 'platform', 'family', 'strike', 'fallback', 'ipc', 'firstFonts', 'allFonts'];
console.log('\nmedians per build and size:');
for (const size of sizes) {
  for (let di = 0; di < sites.length; di++) {
    const rows = summary.filter((r) => r.size === size.join('x') && r.build === di);
    console.log(`  ${label(di)} ${size.join('x')} (${rows.length} runs): ${keys.map((k) => `${k} ${f1(median(rows.map((r) => r[k] ?? NaN)))}`).join(' | ')}`);
  }
}
for (const site of sites) await site.close();
process.exit(0);
