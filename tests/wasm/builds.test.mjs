// The build outputs: the SINGLE_FILE build works alone (no .wasm file) and agrees with the split
// build; neither contains eval or new Function (a page with a strict CSP can load them); and the
// size of the module plus the JS wrapper is reported (and bounded against regressions).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { createEngine } from '../../web/src/engine/engine.js';
import { loadEngine, wasmDir, repoRoot, relDiff } from './helpers.mjs';

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

// The target is 150 KB gzipped; the module is above it (227.1 KB with -fwasm-exceptions, emmalloc, no
// iostreams and the esbuild-minified glue; docs/BENCHMARKS.md, "WebAssembly", says where the bytes
// go and why the rest cannot go without losing the speed target). This test reports the sizes and
// guards against growth (the bound allows the unminified glue, +4 KB, when esbuild is missing).
// 240 KB until 2026-11-30; raised to 250 KB by a deliberate trade: the nuclear solver's grouped Cholesky
// Hessian and Gram-eigenvalue spectral norm (3x faster, docs/SOLVERS.md) added 13 KB gzipped of Eigen kernels.
// Lowered to 220 KB after the size work of 2026-11-30 (cold code at minsize, one small SVD instead of
// JacobiSVD, leaner bindings: 214.1 KB measured): just above it, with room for the unminified glue
// (+4 KB) when esbuild is missing, so that the ~28 KB won back are not silently spent again.
const SIZE_BOUND = 220 * 1024;
test('module + wrapper gzipped size (reported; bound against regressions)', (t) => {
  const gz = (p) => gzipSync(readFileSync(p), { level: 9 }).length;
  const wasm = gz(resolve(wasmDir, 'attnsvm.wasm'));
  const glue = gz(resolve(wasmDir, 'attnsvm.js'));
  const wrapper = ['engine.js', 'convert.js', 'worker-engine.js', 'worker.js']
    .map((f) => gz(resolve(repoRoot, 'web/src/engine', f))).reduce((a, b) => a + b);
  const single = gz(resolve(wasmDir, 'attnsvm.single.js'));
  const total = wasm + glue + wrapper;
  t.diagnostic(`gzipped: wasm ${wasm} B, glue ${glue} B, wrapper ${wrapper} B, total ${total} B; single-file ${single} B`);
  if (total > 150 * 1024) t.diagnostic(`above the 150 KB target by ${((total - 150 * 1024) / 1024).toFixed(1)} KB`);
  assert.ok(total <= SIZE_BOUND, `${total} B > ${SIZE_BOUND} B`);
});
