// The single-script embed <attnsvm-figure> (web/src/embed/element.js) in vite's library mode:
// dist/attnsvm-figure.js, one classic IIFE script with everything inlined:
//   - the CSS of the figure and of the plots, as a string adopted into each element's shadow root;
//   - the engine's worker (web/src/engine/worker.js) through `?worker&inline` (started from a Blob);
//   - the wasm module: attnsvm.js (the glue) plus attnsvm.wasm gzipped and base64-encoded, unpacked
//     in the worker with DecompressionStream (about 100 KB smaller over the wire than the base64 of
//     attnsvm.single.js, whose base64 compresses poorly).
// Run after the site build (it adds one file to dist/ and empties nothing):
//   npx vite build -c vite.element.config.js
// ATTNSVM_WASM_DIR picks another folder with attnsvm.js + attnsvm.wasm (default web/public/wasm).
import { defineConfig, build } from 'vite';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { resolve, dirname } from 'node:path';
import { pureD3Schemes, D3_SCHEME_HELPERS } from './vite.config.js';

const root = resolve(import.meta.dirname, 'web');
const wasmDir = resolve(process.env.ATTNSVM_WASM_DIR ?? resolve(root, 'public/wasm'));
const MODULE_ID = 'virtual:attnsvm-module-source';

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

// The hierarchy figure (web/src/embed/hierarchy-figure.js) is not in the element's script (its size
// bound): the door's dynamic import is cut here (the element passes loadHierarchyFigure, which
// loads dist/attnsvm-figure-hierarchy.js: built after the element by hierarchyScript below).
function noHierarchyImport() {
  return {
    name: 'attnsvm-no-hierarchy-import',
    enforce: 'pre',
    transform(code, id) {
      if (!id.endsWith('/embed/hierarchy-lazy.js')) return null;
      const out = code.replace(/import\(\s*['"]\.\/hierarchy-figure\.js['"]\s*\)/,
        "Promise.reject(new Error('attnsvm-figure: the hierarchy figure is a script of its own'))");
      if (out === code) this.error('the hierarchy figure\'s import was not found in hierarchy-lazy.js');
      return out;
    },
  };
}

// The modules the element already has, which the hierarchy script takes from it at run time
// (web/src/embed/hierarchy-script.js: the same keys): each import of one becomes its exports read
// from globalThis.__attnsvmFigureShared.
const SHARED_MODULES = ['embed/shell.js', 'embed/params.js', 'lab/dom-write.js', 'access/figure-access.js', 'lab/scenarios.js',
  'plots/curves-svg.js', 'plots/theme.js'];
function sharedFromElement() {
  const src = resolve(root, 'src');
  return {
    name: 'attnsvm-shared-from-element',
    enforce: 'pre',
    resolveId(source, importer) {
      if (!importer || !source.startsWith('.')) return null;
      const key = resolve(dirname(importer), source).slice(src.length + 1);
      return SHARED_MODULES.includes(key) ? `\0shared:${key}` : null;
    },
    load(id) {
      if (!id.startsWith('\0shared:')) return null;
      const key = id.slice('\0shared:'.length);
      const names = [...readFileSync(resolve(src, key), 'utf8').matchAll(/^export (?:async )?(?:function|const|let|class) (\w+)/gm)].map((m) => m[1]);
      return `const m = globalThis.__attnsvmFigureShared[${JSON.stringify(key)}];\n${names.map((n) => `export const ${n} = m.${n};`).join('\n')}\n`;
    },
  };
}
function hierarchyScript() {
  let outDir = null;  // (the element's: --outDir moves both)
  return {
    name: 'attnsvm-hierarchy-script',
    apply: 'build',
    configResolved(c) { outDir = resolve(c.root, c.build.outDir); },
    async closeBundle() {
      await build({
        configFile: false, root, logLevel: 'warn', publicDir: false,
        plugins: [pureD3Schemes(), sharedFromElement()],
        define: { 'process.env.NODE_ENV': '"production"' },
        build: {
          outDir, emptyOutDir: false, target: 'es2022', copyPublicDir: false,
          lib: { entry: resolve(root, 'src/embed/hierarchy-figure.js'), name: '__attnsvmHierarchyFigure', formats: ['iife'], fileName: () => 'attnsvm-figure-hierarchy.js' },
          rollupOptions: { treeshake: { manualPureFunctions: D3_SCHEME_HELPERS } },
        },
      });
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
  plugins: [pureD3Schemes(), moduleSource(), noUrlWorker(), noHierarchyImport(), inlineCss(), hierarchyScript()],
  define: { 'process.env.NODE_ENV': '"production"' },
  build: {
    outDir: resolve(import.meta.dirname, 'dist'),
    emptyOutDir: false,
    target: 'es2022',
    cssCodeSplit: false,
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
