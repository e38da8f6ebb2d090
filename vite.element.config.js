// The single-script embed <attnsvm-figure> (web/src/embed/element.js) in vite's library mode:
// dist/attnsvm-figure.js, one classic IIFE script with everything inlined:
//   - the CSS of the figure and of the plots, as a string adopted into each element's shadow root;
//   - the engine's worker (web/src/engine/worker.js) through `?worker&inline` (started from a Blob);
//   - the wasm module: attnsvm.js (the glue) plus attnsvm.wasm gzipped and base64-encoded, unpacked
//     in the worker with DecompressionStream (about 100 KB smaller over the wire than the base64 of
//     attnsvm.single.js, whose base64 compresses poorly).
// The hierarchy's and the real images' figures are scripts of their own beside it (figureScripts
// below: attnsvm-figure-hierarchy.js, attnsvm-figure-real.js), fetched only by figures of theirs.
// Run after the site build (it adds these files to dist/ and empties nothing):
//   npx vite build -c vite.element.config.js
// ATTNSVM_WASM_DIR picks another folder with attnsvm.js + attnsvm.wasm (default web/public/wasm).
import { defineConfig, build } from 'vite';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { resolve, dirname } from 'node:path';
import { pureD3Schemes, D3_SCHEME_HELPERS } from './vite.config.js';
import { bundleSizes } from './scripts/bundle-sizes.mjs';

const root = resolve(import.meta.dirname, 'web');
const wasmDir = resolve(process.env.ATTNSVM_WASM_DIR ?? resolve(root, 'public/wasm'));
const MODULE_ID = 'virtual:attnsvm-module-source';
// ATTNSVM_SIZE_REPORT=<file.json>: the gzip size per input module (scripts/bundle-sizes.mjs), from
// a source map built for it (docs/BENCHMARKS.md, "Embeds: transfer size").
const sizeReport = process.env.ATTNSVM_SIZE_REPORT;

// The text the worker runs from a Blob: Emscripten's glue, then a wrapper of its factory that
// hands it the unpacked wasm bytes (so nothing is fetched).
function moduleSource() {
  return {
    name: 'attnsvm-module-source',
    resolveId: (id) => (id === MODULE_ID ? `\0${MODULE_ID}` : null),
    load(id) {
      if (id !== `\0${MODULE_ID}`) return null;
      const glue = readFileSync(resolve(wasmDir, 'attnsvm.js'), 'utf8');
      const wasm = readFileSync(resolve(wasmDir, 'attnsvm.wasm'));
      if (glue.length < 10000 || wasm.length < 10000 || !glue.includes('createAttnsvmModule')) {
        this.error(`${wasmDir} does not hold a built module (run bash scripts/build-wasm.sh)`);
      }
      const packed = gzipSync(wasm, { level: 9 }).toString('base64');
      const shim = `
;(function () {
  var factory = createAttnsvmModule, packed = ${JSON.stringify(packed)};
  createAttnsvmModule = function (args) {
    args = args || {};
    if (typeof DecompressionStream !== 'function') return Promise.reject(new Error('attnsvm-figure needs DecompressionStream (Chrome 80+, Firefox 113+, Safari 16.4+)'));
    var bin = atob(packed), bytes = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    return new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'))).arrayBuffer()
      .then(function (buf) { args.wasmBinary = buf; return factory(args); });
  };
})();
`;
      return `export default ${JSON.stringify(glue + shim)};`;
    },
  };
}

// worker-engine.js makes its own worker from a URL unless it is handed one; the element always
// hands one, so that branch is cut here (otherwise vite would emit a second worker file).
function noUrlWorker() {
  return {
    name: 'attnsvm-no-url-worker',
    enforce: 'pre',
    transform(code, id) {
      if (!id.endsWith('/engine/worker-engine.js')) return null;
      return code.replace(/new Worker\(\s*new URL\(\s*['"]\.\/worker\.js['"]\s*,\s*import\.meta\.url\s*\)\s*\)/,
        "(() => { throw new Error('attnsvm-figure: a worker must be passed'); })()");
    },
  };
}

// The figures that are scripts of their own (web/src/embed/figure-scripts.js), not in the element's
// script (its size bound): their doors' dynamic imports are cut here (the element passes
// loadHierarchyFigure / loadRealFigure, which load dist/attnsvm-figure-hierarchy.js and
// dist/attnsvm-figure-real.js: built after the element by figureScripts below).
const DOORS = { '/embed/hierarchy-lazy.js': './hierarchy-figure.js', '/real/figure-lazy.js': './figure-real.js' };
function noLazyImports() {
  return {
    name: 'attnsvm-no-lazy-imports',
    enforce: 'pre',
    transform(code, id) {
      const door = Object.keys(DOORS).find((d) => id.endsWith(d));
      if (!door) return null;
      const at = `import('${DOORS[door]}')`;
      if (!code.includes(at)) this.error(`${at} was not found in ${door}`);
      return code.replace(at, "Promise.reject(new Error('attnsvm-figure: this figure is a script of its own'))");
    },
  };
}

// The modules the element already has, which the figures' scripts take from it at run time
// (web/src/embed/figure-scripts.js: the same keys): each import of one becomes its exports read
// from globalThis.__attnsvmFigureShared.
const SHARED_MODULES = ['embed/shell.js', 'embed/params.js', 'lab/dom-write.js', 'access/figure-access.js', 'lab/scenarios.js',
  'plots/curves-svg.js', 'plots/theme.js', 'plots/svg.js', 'plots/heatmaps.js', 'engine/worker-engine.js'];
// ... and the packages' functions they use that the element has (named: a whole package would
// defeat the element's tree-shaking; an import of another name fails the build)
const SHARED_PACKAGES = { 'd3-scale': ['scaleLinear', 'scaleLog'], 'd3-scale-chromatic': ['interpolateViridis'] };
// The figures' scripts: entry (under web/src), global name (figure-scripts.js), file in dist/.
const FIGURE_SCRIPTS = [
  ['embed/hierarchy-figure.js', '__attnsvmHierarchyFigure', 'attnsvm-figure-hierarchy.js'],
  ['embed/real-script.js', '__attnsvmRealFigure', 'attnsvm-figure-real.js'],
];
function sharedFromElement() {
  const src = resolve(root, 'src');
  return {
    name: 'attnsvm-shared-from-element',
    enforce: 'pre',
    resolveId(source, importer) {
      if (importer && SHARED_PACKAGES[source]) return `\0shared:${source}`;
      if (!importer || !source.startsWith('.')) return null;
      const key = resolve(dirname(importer), source).slice(src.length + 1);
      return SHARED_MODULES.includes(key) ? `\0shared:${key}` : null;
    },
    load(id) {
      if (!id.startsWith('\0shared:')) return null;
      const key = id.slice('\0shared:'.length);
      const names = SHARED_PACKAGES[key] ??
        [...readFileSync(resolve(src, key), 'utf8').matchAll(/^export (?:async )?(?:function|const|let|class) (\w+)/gm)].map((m) => m[1]);
      return `const m = globalThis.__attnsvmFigureShared[${JSON.stringify(key)}];\n${names.map((n) => `export const ${n} = m.${n};`).join('\n')}\n`;
    },
  };
}
function figureScripts() {
  let outDir = null;  // (the element's: --outDir moves them all)
  return {
    name: 'attnsvm-figure-scripts',
    apply: 'build',
    configResolved(c) { outDir = resolve(c.root, c.build.outDir); },
    async closeBundle() {
      for (const [entry, name, file] of FIGURE_SCRIPTS) {
        await build({
          configFile: false, root, logLevel: 'warn', publicDir: false,
          plugins: [pureD3Schemes(), sharedFromElement(),
            ...(sizeReport ? [bundleSizes({ out: resolve(sizeReport.replace(/(\.json)?$/, `-${file.replace(/\.js$/, '')}.json`)), root: import.meta.dirname })] : [])],
          define: { 'process.env.NODE_ENV': '"production"' },
          build: {
            outDir, emptyOutDir: false, target: 'es2022', copyPublicDir: false, sourcemap: !!sizeReport,
            lib: { entry: resolve(root, 'src', entry), name, formats: ['iife'], fileName: () => file },
            rollupOptions: { treeshake: { manualPureFunctions: D3_SCHEME_HELPERS } },
          },
          worker: { format: 'iife' },
        });
      }
    },
  };
}

// All CSS of the bundle -> the '__ATTNSVM_FIGURE_CSS__' string of element.js (no .css file).
function inlineCss() {
  return {
    name: 'attnsvm-inline-css',
    enforce: 'post',
    generateBundle(_, bundle) {
      let css = '';
      for (const [name, asset] of Object.entries(bundle)) {
        if (asset.type === 'asset' && name.endsWith('.css')) { css += String(asset.source); delete bundle[name]; }
      }
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk') continue;
        const before = chunk.code;
        chunk.code = before.replace(/(["'`])__ATTNSVM_FIGURE_CSS__\1/, () => JSON.stringify(css));
        if (chunk.code === before) this.error('the CSS placeholder was not found in the bundle');
      }
    },
  };
}

export default defineConfig({
  root,
  base: './',
  publicDir: false,
  logLevel: 'warn',
  plugins: [pureD3Schemes(), moduleSource(), noUrlWorker(), noLazyImports(),
    ...(sizeReport ? [bundleSizes({ out: resolve(sizeReport), root: import.meta.dirname })] : []), inlineCss(), figureScripts()],
  define: { 'process.env.NODE_ENV': '"production"' },
  build: {
    outDir: resolve(import.meta.dirname, 'dist'),
    emptyOutDir: false,
    target: 'es2022',
    cssCodeSplit: false,
    sourcemap: !!sizeReport,
    lib: {
      entry: resolve(root, 'src/embed/element.js'),
      name: 'AttnsvmFigure',
      formats: ['iife'],
      fileName: () => 'attnsvm-figure.js',
    },
    rollupOptions: { treeshake: { manualPureFunctions: D3_SCHEME_HELPERS } },
  },
  worker: { format: 'iife' },
});
