// No leak: 10^5 runs and solves (5 10^4 runs created, stepped and disposed, 5 10^4 solves) and
// 2 10^4 failing calls keep the wasm heap flat. Two measures: the heap's size (memory growth never shrinks, so any growth shows)
// and the bytes malloc has handed out (mallinfo, exact: a leak of one byte per call shows).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine, linearW } from './helpers.mjs';

test('10^5 runs/solves (and 2 10^4 failing calls) keep the wasm heap flat', { timeout: 300000 }, async (t) => {
  const engine = await loadEngine();
  const ds = engine.sphere(3, 4, 4, 1);
  const bad = structuredClone(ds);
  bad.alpha[1] = 99;
  const cfg = { dataset: ds, model: linearW, train: { optimizer: 'ngd', lr: 0.1 }, init: { kind: 'zero' },
    references: [{ name: 'r', W: [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]] }] };
  // Even i: a run created, stepped and disposed; odd i: a solve. Every 10th also two failing calls.
  const cycle = (i) => {
    if (i % 2 === 0) {
      const run = engine.train(cfg);
      run.step(2);
      run.dispose();
    } else {
      engine.solve({ dataset: ds, norm: 'fro' });
    }
    if (i % 10 === 0) {
      try { engine.solve({ dataset: bad, norm: 'fro' }); } catch { /* expected */ }
      try { engine.train({ ...cfg, train: { optimizer: 'nope' } }); } catch { /* expected */ }
    }
  };
  for (let i = 0; i < 2000; i++) cycle(i); // warm-up: allocator pools, embind caches
  const bytes0 = engine.heapBytes(), used0 = engine.heapUsed();
  const t0 = performance.now();
  for (let i = 0; i < 100000; i++) cycle(i);
  const seconds = (performance.now() - t0) / 1000;
  const bytes1 = engine.heapBytes(), used1 = engine.heapUsed();
  t.diagnostic(`heap ${bytes0} -> ${bytes1} bytes; malloc in use ${used0} -> ${used1} bytes; ${seconds.toFixed(1)} s`);
  assert.equal(bytes1, bytes0, 'the wasm heap grew');
  assert.ok(used1 <= used0, `malloc'd bytes grew by ${used1 - used0}`);
});
