// The build outputs: the SINGLE_FILE build works alone (no .wasm file) and agrees with the split
// build; neither contains eval or new Function (a page with a strict CSP can load them); and the
// size of the module plus the JS wrapper is reported (and bounded against regressions).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createEngine } from '../../web/src/engine/engine.js';
import { loadEngine, wasmDir, relDiff, bundleSizes } from './helpers.mjs';

const require = createRequire(import.meta.url);

test('the single-file build runs without a .wasm file and agrees with the split build', async () => {
  const single = await createEngine({ factory: require(resolve(wasmDir, 'attnsvm.single.js')) });
  const split = await loadEngine();
  assert.equal(single.version(), split.version());
  const a = single.sphere(6, 8, 10, 3), b = split.sphere(6, 8, 10, 3);
  assert.deepEqual(a, b);
  assert.equal(relDiff(single.solve({ dataset: a, norm: 'fro' }).W, split.solve({ dataset: b, norm: 'fro' }).W), 0);
});

test('no eval or new Function in the generated JavaScript (strict CSP)', () => {
  for (const f of ['attnsvm.js', 'attnsvm.single.js', 'attnsvm-experiments.js']) {
    const src = readFileSync(resolve(wasmDir, f), 'utf8');
    assert.doesNotMatch(src, /\beval\s*\(/, `${f} calls eval`);
    assert.doesNotMatch(src, /new\s+Function\s*\(/, `${f} calls new Function`);
    assert.doesNotMatch(src, /[^.\w]Function\s*\(\s*['"]/, `${f} calls Function("...")`);
  }
});

// The target is 150 KB gzipped for module + wrapper; the module is above it (docs/BENCHMARKS.md,
// "WebAssembly", says where the bytes go and what the rest would cost in speed). This test reports
// the sizes and guards against growth. The wrapper is counted as shipped: the worker host
// (worker.js with engine.js and convert.js) and the page side (worker-engine.js), each bundled and
// minified by esbuild as vite does for the site; its unminified size is reported beside it.
// History of the bound: 240 KB, 250 KB (the nuclear solver's 3x speed-up added 13 KB of Eigen
// kernels), 220 KB (cold code at minsize, one small SVD), and 170 KB since the size work of the
// fourth session (-fno-unroll-loops, -O2, the l_p and nuclear solvers at minsize, a second binaryen
// round, no COD/ColPivHouseholderQR, the wrapper counted as shipped): 163.1 KB measured, a few KB
// of headroom so that the bytes won back are not silently spent again; 176 KB since the nuclear solver
// became a primal-dual SDP interior point with an exact-rank finish (certified on every feasible
// instance; +6.5 KB, of which 4.9 KB of the old dual barrier method were dropped again), the core's
// vocabulary and field lists, Adam and the dual-norm step in the Trainer: 176.9 KB measured, bound 180 KB;
// 178.9 KB with issue 18's work and the unity build, 179.8 KB since every input object is read through the
// field lists (issue 17; 184156 B with vocabulary().datasetFileExtras, 164 B under the bound);
// 204 KB since issue 26 (real-image solvers: the minimum-norm-point interior point, its exact finish
// on the support, the W-space l_p interior point and the grouped Kronecker operators; +22.8 KB
// gzipped, 206941 B = 202.1 KB measured; not yet put on a diet, see docs/BENCHMARKS.md);
// 216 KB since issue 23 joined it (the portable exp / log / pow that give training the same bits
// natively and in wasm, with their tables, and the real-images kernel the page's run uses:
// 217200 B = 212.1 KB measured with both, +10.3 KB over issue 26 alone). Accepted by the lead: the
// certified real-image solvers and bit-identical training are the round's product; the 150 KB target
// stays unmet and the breakdown (scripts/wasm-size-breakdown.sh) says where a diet would start.
// 220 KB since the round of issues 38-43 (224593 B = 219.3 KB measured, +7.4 KB): the regularization
// path's certificates (its log-domain line search and the nuclear ball's projected step), the token
// embedding of SPEC 6.5, the optimizer and norm registries' vocabulary and the phase diagram's
// conversions. Accepted by the lead as the price of those features, not as a new normal: the 150 KB
// target stays unmet (scripts/wasm-size-breakdown.sh says where a diet would start).
const SIZE_BOUND = 220 * 1024;
test('module + wrapper gzipped size (reported; bound against regressions)', async (t) => {
  const { wasm, glue, wrapper, wrapperSource, single, total } = await bundleSizes();
  t.diagnostic(`gzipped: wasm ${wasm} B, glue ${glue} B, wrapper ${wrapper} B as shipped (${wrapperSource} B ` +
    `unminified), total ${total} B (${(total / 1024).toFixed(1)} KB); single-file ${single} B`);
  if (total > 150 * 1024) t.diagnostic(`above the 150 KB target by ${((total - 150 * 1024) / 1024).toFixed(1)} KB`);
  assert.ok(total <= SIZE_BOUND, `${total} B > ${SIZE_BOUND} B`);
});
