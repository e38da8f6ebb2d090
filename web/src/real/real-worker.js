// The worker of the real-images runs: the engine's worker (worker.js: init, call, cancel, ...) plus
// three requests over RealImagesRun (web/src/engine/real-run.js; the attnsvm-experiments module):
//   realStart   {request, maxIterations}    -> {runId, info} (info: the split's sizes, test labels and pixels)
//   realAdvance {runId, budgetMs, every, rows}  steps that fit in the budget, measured at every multiple
//               of `every` and at the last iteration -> {frames, iteration, taken, done, computeMs,
//               stopReason ('' unless the run stopped early), softmax?, output?: s_it and f_i of the
//               test images `rows` when given}
//   realCall    {runId, method, args}       params, measure, testSoftmax, testScores, testSelection, analyze
// Pages of other scenarios never load this file (worker.js alone is their worker).
import { handlers, runs, newRunId, getRun } from '../engine/worker.js';
import { RealImagesRun } from '../engine/real-run.js';

const METHODS = ['params', 'measure', 'testSoftmax', 'testScores', 'testSelection', 'analyze'];

// At least one step, then more while the measured cost per step fits in the budget (a step of the
// default run costs about a display frame, so frames carry one to a few steps).
function advance(entry, budgetMs, every, rows) {
  const { run } = entry;
  const frames = [];
  const t0 = performance.now();
  let taken = 0;
  while (run.iteration < entry.maxIterations) {
    const it = run.iteration;
    const k = Math.min(every - (it % every), entry.maxIterations - it, Math.max(1, entry.stepsPerFrame - taken));
    const r = run.step(k, (it + k) % every === 0 || it + k >= entry.maxIterations);
    taken += r.taken;
    if (r.frame) frames.push(r.frame);
    if (r.taken < k) { entry.stopReason = r.stopReason; break; }
    const elapsed = performance.now() - t0;
    if (taken >= entry.stepsPerFrame || elapsed + elapsed / taken > budgetMs) break;
  }
  const ms = performance.now() - t0;
  if (taken > 0) {
    entry.msPerStep = entry.msPerStep ? 0.7 * entry.msPerStep + 0.3 * (ms / taken) : ms / taken;
    entry.stepsPerFrame = Math.max(1, Math.floor(budgetMs / Math.max(entry.msPerStep, 1e-6)));
  }
  const out = { frames, iteration: run.iteration, taken, computeMs: ms, done: run.iteration >= entry.maxIterations || taken === 0,
    stopReason: entry.stopReason ?? '' };
  if (rows) { out.softmax = run.testSoftmax(rows); out.output = run.testScores(rows).output; }
  return out;
}

handlers.realStart = (engine, { request, maxIterations }) => {
  const run = new RealImagesRun(engine.module, request);
  const id = newRunId();
  runs.set(id, { id, run, maxIterations: maxIterations ?? request?.settings?.iters ?? Infinity, stepsPerFrame: 1, msPerStep: 0 });
  return { runId: id, info: run.info };
};
handlers.realAdvance = (engine, { runId, budgetMs, every, rows }) => advance(getRun(runId), budgetMs ?? 12, Math.max(1, every ?? 1), rows);
handlers.realCall = (engine, { runId, method, args }) => {
  if (!METHODS.includes(method)) throw new Error(`unknown real-images method '${method}' (one of ${METHODS.join(', ')})`);
  const { run } = getRun(runId);
  return run[method](...(args ?? []));
};
