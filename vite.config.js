// vite bundles web/ (ES modules) into dist/ with relative asset paths, so the static output works
// from any host and sub-path. Every .html page under web/ (outside public/) is an entry.
import { defineConfig } from 'vite';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { realImagesAsset } from './scripts/make-real-images-asset.mjs';
import { staticShell, inlineCss } from './scripts/vite-static-shell.mjs';
import { texToSvg } from './scripts/tex-svg.mjs';
import { SCENARIO_INFO } from './web/src/lab/scenarios.js';
import { startEarlyWorker } from './web/src/lab/early-worker.js';
import { firstRunAtBuild } from './scripts/vite-first-run.mjs';

const root = resolve(import.meta.dirname, 'web');

function htmlPages(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'public' || name === 'node_modules') return [];
    if (statSync(path).isDirectory()) return htmlPages(path);
    return name.endsWith('.html') ? [path] : [];
  });
}

// d3-scale-chromatic ships as one module whose ~70 colour schemes are top-level calls
// (`var BrBG = ramp(new Array(3).concat(...).map(colors))`), which a bundler must keep as
// possible side effects even though the page imports two of them: ~17 KB of hex strings in
// every page and embed. Marking those initializers pure lets rollup drop the unused ones.
export const D3_SCHEME_HELPERS = ['colors', 'ramp', 'ramp$1', 'interpolateRgbBasis', 'interpolateCubehelixLong', 'cubehelix$1', 'rgb'];
export function pureD3Schemes() {
  return {
    name: 'attnsvm-pure-d3-schemes',
    transform(code, id) {
      if (!/[\\/]d3-scale-chromatic[\\/]/.test(id)) return null;
      return { code: code.replace(/^var ([\w$]+) = (?=ramp|new Array|colors|interpolate|cubehelix|rgb)/gm, 'var $1 = /*#__PURE__*/ '), map: null };
    },
  };
}

// uPlot makes two Intl objects when its module is evaluated (a NumberFormat for the locale, a
// DateTimeFormat for the time zone): the page's first Intl use, which loads ICU's locale data, cost
// 25-35 ms of the lab's module-evaluation task on this machine (issue 24), although a page without a
// curve in view never formats a number with them. Made when first used instead: the same objects,
// the same formatting, made when a chart first draws its axes or legend.
const UPLOT_LAZY_INTL = [
  ["const numFormatter = new Intl.NumberFormat(domEnv ? nav.language : 'en-US');\nconst fmtNum = val => numFormatter.format(val);",
    "let numFormatter = null;\nconst fmtNum = val => (numFormatter ??= new Intl.NumberFormat(domEnv ? nav.language : 'en-US')).format(val);"],
  ['const localTz = new Intl.DateTimeFormat().resolvedOptions().timeZone;',
    'let localTz_ = null;\nconst localTz = () => (localTz_ ??= new Intl.DateTimeFormat().resolvedOptions().timeZone);'],
  ['else if (tz == localTz)', 'else if (tz == localTz())'],
];
export function lazyUplotIntl() {
  return {
    name: 'attnsvm-lazy-uplot-intl',
    transform(code, id) {
      if (!/[\\/]uplot[\\/]dist[\\/]uPlot\.esm\.js$/.test(id)) return null;
      let out = code;
      for (const [from, to] of UPLOT_LAZY_INTL) {
        if (!out.includes(from)) { this.warn(`lazyUplotIntl: uPlot no longer has "${from.split('\n')[0]}" (left as is)`); return null; }
        out = out.replace(from, () => to);
      }
      return { code: out, map: null };
    },
  };
}

// The lab's formulas typeset at build time as self-contained SVG (scripts/tex-svg.mjs: MathJax's
// glyphs as paths, the spoken formula as its aria-label): no font, stylesheet or TeX code on the page,
// so putting them in their slots restyles nothing and lays out only the slots. 'virtual:lab-formulas'
// maps each scenario with formulas to a loader of its own small chunk, 'virtual:lab-formulas-ID',
// whose default export is the scenario's formulas as SVG markup, in order.
export function labFormulas() {
  const id = 'virtual:lab-formulas';
  const withFormulas = Object.keys(SCENARIO_INFO).filter((s) => SCENARIO_INFO[s].formulas.length);
  return {
    name: 'attnsvm-lab-formulas',
    resolveId: (source) => (source === id || source.startsWith(`${id}-`) ? `\0${source}` : null),
    async load(resolved) {
      if (resolved === `\0${id}`) {
        return `export default {\n${withFormulas.map((s) => `  ${JSON.stringify(s)}: () => import(${JSON.stringify(`${id}-${s}`)}),`).join('\n')}\n};\n`;
      }
      if (!resolved.startsWith(`\0${id}-`)) return null;
      const scenario = resolved.slice(id.length + 2);
      if (!withFormulas.includes(scenario)) throw new Error(`labFormulas: no formulas for scenario ${scenario}`);
      const svg = [];
      for (const tex of SCENARIO_INFO[scenario].formulas) svg.push(await texToSvg(tex));
      return `export default ${JSON.stringify(svg)};\n`;
    },
  };
}

// Emscripten's glue of the default build (web/public/wasm/attnsvm.js, made by scripts/build-wasm.sh)
// as a module, for the lab's worker (web/src/lab/lab-worker.js): 'virtual:attnsvm-glue' exports a
// function that evaluates the glue and returns its factory (createAttnsvmModule), so the worker has it
// without a synchronous importScripts of a second file (a request after the worker's start, and in
// the way of its wasm compile). Its UMD tail finds no module system (module, exports and define are
// shadowed) and sets no global: the worker's other builds (attnsvm-experiments) load their own glue.
export function attnsvmGlue() {
  const id = 'virtual:attnsvm-glue';
  const file = resolve(root, 'public/wasm/attnsvm.js');
  return {
    name: 'attnsvm-glue',
    resolveId: (source) => (source === id ? `\0${id}` : null),
    load(resolved) {
      if (resolved !== `\0${id}`) return null;
      if (!existsSync(file)) throw new Error(`attnsvmGlue: ${file} is missing (build the module first: bash scripts/build-wasm.sh)`);
      this.addWatchFile(file);
      return `export default function loadGlue() {\n  var module, exports, define;\n${readFileSync(file, 'utf8')}\n  return createAttnsvmModule;\n}\n`;
    },
  };
}

// The lab's engine worker started from the built index.html's <head> (web/src/lab/early-worker.js):
// its wasm download and compile no longer wait for the lab's modules to download and evaluate.
// The worker's file name is known only once the bundle is written, hence a post hook.
const EARLY_WORKER_MARK = '<!--attnsvm:early-worker-->';
export function earlyWorker() {
  return {
    name: 'attnsvm-early-worker',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, { bundle }) {
        if (!bundle || !html.includes(EARLY_WORKER_MARK)) return html;
        const files = Object.keys(bundle).filter((f) => /^assets\/lab-worker-[\w-]{8}\.js$/.test(f));
        if (files.length !== 1) throw new Error(`earlyWorker: expected one lab worker in the bundle, found ${files.join(', ') || 'none'}`);
        return html.replace(EARLY_WORKER_MARK, () => `<script>(${startEarlyWorker.toString()})(${JSON.stringify(`./${files[0]}`)});</script>`);
      },
    },
  };
}

export default defineConfig({
  root,
  // realImagesAsset: the Fashion-MNIST subset of the "Real images" scenario (dist/data/fashion-mnist/);
  // staticShell, inlineCss: the lab's markup in index.html and the pages' CSS inline (first paint);
  // labFormulas: the formulas typeset at build time (SVG); earlyWorker: the engine's worker started by the
  // HTML; lazyUplotIntl: uPlot's Intl formatters made when first used; firstRunAtBuild: the default
  // link's first run computed at build time (scripts/vite-first-run.mjs)
  plugins: [pureD3Schemes(), lazyUplotIntl(), realImagesAsset(), staticShell(), inlineCss(), labFormulas(), earlyWorker(), attnsvmGlue(), firstRunAtBuild()],
  base: './',
  publicDir: 'public',
  build: {
    outDir: resolve(import.meta.dirname, 'dist'),
    emptyOutDir: true,
    target: 'es2022',
    // <link rel="modulepreload"> is only a hint: browsers without it (Firefox < 115, Safari < 17)
    // load the same modules through the imports. The polyfill cost 0.4 KB gzipped in every embed.
    modulePreload: { polyfill: false },
    rollupOptions: {
      input: Object.fromEntries(htmlPages(root).map((p) => [relative(root, p).replace(/\.html$/, ''), p])),
      treeshake: { manualPureFunctions: D3_SCHEME_HELPERS },
    },
  },
  // (the workers are bundled apart, with these plugins: attnsvmGlue for the lab's worker)
  worker: { format: 'iife', plugins: () => [attnsvmGlue()] },
  server: { host: '127.0.0.1' },
  preview: { host: '127.0.0.1' },
});
