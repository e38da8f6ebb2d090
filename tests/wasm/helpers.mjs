// Shared helpers of the wasm API tests: load the built module in node, build and run the native
// reference driver (tests/wasm/native), and compare results numerically.
import { createRequire } from 'node:module';
import { readFileSync, existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import assert from 'node:assert/strict';
import { createEngine } from '../../web/src/engine/engine.js';

export const repoRoot = resolve(import.meta.dirname, '../..');
// ATTNSVM_WASM_DIR: test another build of the module (default: the one the site serves).
export const wasmDir = process.env.ATTNSVM_WASM_DIR ?? resolve(repoRoot, 'web/public/wasm');
const require = createRequire(import.meta.url);

// The native CLI the tests compare with: ATTNSVM_CLI, else the release build's, else the ASan build's;
// undefined when none is built (each test then says what it skipped).
export function builtCli() {
  return [process.env.ATTNSVM_CLI, 'build/native-release/cli/attnsvm', 'build/native-debug/cli/attnsvm']
    .filter(Boolean).map((p) => resolve(repoRoot, p)).find((p) => existsSync(p));
}

// node 20 cannot fetch() a file path, so the split build gets its bytes through wasmBinary.
// moduleName: 'attnsvm' (pages, embeds) or 'attnsvm-experiments' (adds the experiment entry points);
// dir: another build's directory (the A/B benchmarks load two).
export async function loadEngine(moduleName = 'attnsvm', dir = wasmDir) {
  const factory = require(resolve(dir, `${moduleName}.js`));
  return createEngine({ factory, wasmBinary: readFileSync(resolve(dir, `${moduleName}.wasm`)) });
}

// Gzipped sizes (gzip -9) of what a page loads: the module (wasm + Emscripten glue) and the JS
// wrapper as shipped (the worker host worker.js with engine.js and convert.js, and the page side
// worker-engine.js, each bundled and minified by esbuild as vite does), plus the wrapper's
// unminified sources and the single-file build. The target is wasm + glue + wrapper.
export async function bundleSizes() {
  const { buildSync } = await import('esbuild');
  const { gzipSync } = await import('node:zlib');
  const gz = (bytes) => gzipSync(bytes, { level: 9 }).length;
  const engineDir = resolve(repoRoot, 'web/src/engine');
  const shipped = (entry, format) => gz(buildSync({
    entryPoints: [resolve(engineDir, entry)], bundle: true, minify: true, format, write: false, logLevel: 'error',
  }).outputFiles[0].contents);
  const s = {
    wasm: gz(readFileSync(resolve(wasmDir, 'attnsvm.wasm'))),
    glue: gz(readFileSync(resolve(wasmDir, 'attnsvm.js'))),
    wrapper: shipped('worker.js', 'iife') + shipped('worker-engine.js', 'esm'),
    wrapperSource: ['engine.js', 'convert.js', 'worker-engine.js', 'worker.js']
      .map((f) => gz(readFileSync(resolve(engineDir, f)))).reduce((a, b) => a + b),
    single: gz(readFileSync(resolve(wasmDir, 'attnsvm.single.js'))),
  };
  return { ...s, total: s.wasm + s.glue + s.wrapper };
}

// Configures (once) and builds (incrementally) the native driver with cmake + ninja; returns its path.
let nativePath = null;
// ATTNSVM_NATIVE_REF: use this prebuilt driver instead.
export function nativeRef() {
  if (nativePath) return nativePath;
  if (process.env.ATTNSVM_NATIVE_REF) return (nativePath = process.env.ATTNSVM_NATIVE_REF);
  const dir = resolve(repoRoot, 'build/wasm-native-ref');
  const opts = { cwd: repoRoot, stdio: ['ignore', 'ignore', 'inherit'] };
  // node --test runs test files in parallel processes: one builds at a time (a lock directory).
  const lock = `${dir}.lock`;
  mkdirSync(resolve(repoRoot, 'build'), { recursive: true });
  for (;;) {
    try { mkdirSync(lock); break; } catch (e) {
      if (e.code !== 'EEXIST') throw e;
      if (Date.now() - statSync(lock).mtimeMs > 30 * 60 * 1000) rmSync(lock, { recursive: true, force: true }); // stale
      else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 500);
    }
  }
  try {
    if (!existsSync(resolve(dir, 'build.ninja'))) {
      execFileSync('cmake', ['-S', 'tests/wasm/native', '-B', dir, '-G', 'Ninja', '-DCMAKE_BUILD_TYPE=Release'], opts);
    }
    execFileSync('cmake', ['--build', dir, '--target', 'native_ref'], opts);
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
  nativePath = resolve(dir, 'native_ref');
  return nativePath;
}

// Runs jobs [{cmd, ...}] natively; returns [{ok, result} | {ok: false, error}].
export function runNative(jobs) {
  const out = execFileSync(nativeRef(), { input: JSON.stringify(jobs), maxBuffer: 1 << 30 });
  return JSON.parse(out.toString());
}
export function native(job) {
  const [r] = runNative([job]);
  if (!r.ok) throw new Error(`native: ${r.error}`);
  return r.result;
}

// Flattens numbers out of nested arrays / typed arrays.
export function flat(x) {
  if (typeof x === 'number') return [x];
  if (x === null) return [NaN]; // nlohmann writes NaN/Inf as null
  return Array.from(x).flatMap(flat);
}

// Relative difference of two numeric arrays (or numbers), norm-wise:
//   max_i |a_i - b_i| / max(max_i |a_i|, max_i |b_i|, floor).
// floor keeps quantities that are zero up to rounding (gaps, violations) from dividing by ~0.
export function relDiff(a, b, floor = 1e-300) {
  const fa = flat(a), fb = flat(b);
  if (fa.length !== fb.length) return Infinity;
  let num = 0, den = floor;
  for (let i = 0; i < fa.length; i++) {
    if (Number.isNaN(fa[i]) && Number.isNaN(fb[i])) continue;
    num = Math.max(num, Math.abs(fa[i] - fb[i]));
    den = Math.max(den, Math.abs(fa[i]), Math.abs(fb[i]));
  }
  return Number.isNaN(num) ? Infinity : num / den;
}

// The largest relative difference seen by assertClose at the 1e-9 bar (reported by the tests).
export const worst = { diff: 0, what: '' };

export function assertClose(actual, expected, what, tol = 1e-9, floor = 1e-300) {
  const d = relDiff(actual, expected, floor);
  if (tol <= 1e-9 && d > worst.diff) Object.assign(worst, { diff: d, what });
  assert.ok(d <= tol, `${what}: relative difference ${d.toExponential(2)} > ${tol}`);
}

export const linearW = { attention: 'cross', param: 'W', head: 'linear', loss: 'logistic' };
