#!/usr/bin/env node
// The path view's drag previews without the browser (node, the wasm module): a token of paths2d
// dragged in five small steps, at each step the preview path on the three balls (13 radii) as
// web/src/path/path-compute.js asks for it: --mode warm (each ball warm-started from the previous
// step's W(R), the view since issue 40's second round) or --mode cold (from W = 0, the view before);
// --cap: the preview's Frank-Wolfe iterations a radius (path-model.js PREVIEW_ITERATIONS). Prints the
// compute time of the five steps' previews (ms, median step and all) and the iterations spent.
//   node bench/browser/path-preview.mjs --mode warm|cold [--cap 100] [--scenario paths2d]
// Interleaved with farm-bench (docs/BENCHMARKS.md): the wall time includes the module's load.
import { parseArgs } from 'node:util';
import { loadEngine } from '../../tests/wasm/helpers.mjs';
import { PATH_BALLS, pathRequest } from '../../web/src/path/path-model.js';

const { values } = parseArgs({ options: { mode: { type: 'string', default: 'warm' }, cap: { type: 'string', default: '100' },
  scenario: { type: 'string', default: 'paths2d' } } });
const engine = await loadEngine();
const sc = engine.scenario(values.scenario);
const cfg = { dataset: sc.dataset, model: sc.model, train: sc.train };
const request = (dataset, ball) => ({ ...pathRequest(cfg, dataset, ball, 3, { preview: true }), iterationsPerRadius: Number(values.cap) });
// the path shown before the drag (the view's full path of the tokens), the warm starts' first source
const stack = (pts) => Float64Array.from(pts.flatMap((p) => p.W.flat()));
let warm = Object.fromEntries(PATH_BALLS.map((b) => [b, stack(engine.path(pathRequest(cfg, cfg.dataset, b, 3)).points)]));
const steps = [], iterations = [];
let data = structuredClone(cfg.dataset);
for (let step = 1; step <= 5; step++) {
  data = structuredClone(data);
  data.X[0][1] = data.X[0][1].map((v, k) => v + (k === 0 ? 0.02 : -0.015));  // ~3 px of the view's plane
  const t0 = performance.now();
  let its = 0;
  const next = {};
  for (const ball of PATH_BALLS) {
    const req = request(data, ball);
    if (values.mode === 'warm') req.warmStart = warm[ball];
    const pts = engine.path(req).points;
    its += pts.reduce((a, p) => a + p.iterations, 0);
    next[ball] = stack(pts);
  }
  steps.push(performance.now() - t0);
  iterations.push(its);
  warm = next;
}
const sorted = [...steps].sort((a, b) => a - b);
console.log(JSON.stringify({ mode: values.mode, cap: Number(values.cap), stepMs: { median: Math.round(sorted[2]), all: steps.map(Math.round) }, iterations }));
