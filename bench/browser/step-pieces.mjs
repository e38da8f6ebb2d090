#!/usr/bin/env node
// The cost of the worker's steps in pieces (web/src/engine/worker.js stepInPieces) in node's V8 (the
// browser's wasm engine): two replies of k = 1000 steps (the lab at speed 1000) of a run of 2000
// iterations (pieces of 10, their W sent along) against a run of unknown length (one piece), median of 15.
//   node bench/browser/step-pieces.mjs   (after the wasm build: web/public/wasm)
import { loadEngine } from '../../tests/wasm/helpers.mjs';
globalThis.self ??= globalThis;  // (worker.js sets self.onmessage when evaluated)
const { handlers } = await import('../../web/src/engine/worker.js');
const engine = await loadEngine();
const med = (x) => { const s = [...x].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
for (const name of ['paths2d', 'local-convergence']) {
  const { dataset, model, train, init } = engine.scenario(name);
  const config = { dataset, model, train, init };
  const t = { split: [], whole: [] };
  for (let rep = 0; rep < 15; rep++) {
    for (const [kind, max] of [['split', 2000], ['whole', undefined]]) {
      const id = handlers.start(engine, { config, maxIterations: max });
      handlers.step(engine, { runId: id, k: 0 });
      const t0 = performance.now();
      handlers.step(engine, { runId: id, k: 1000 });
      handlers.step(engine, { runId: id, k: 1000 });
      t[kind].push(performance.now() - t0);
      handlers.cancel(engine, { runId: id });
    }
  }
  console.log(name, '2 x step(1000): split', med(t.split).toFixed(2), 'ms, whole', med(t.whole).toFixed(2), 'ms, ratio', (med(t.split) / med(t.whole)).toFixed(3));
}
