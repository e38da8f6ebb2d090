// The worker of the real-images runs: the engine's worker (worker.js: init, call, cancel, ...) plus
// three requests over RealImagesRun (web/src/engine/real-run.js; the attnsvm-experiments module):
//   realStart   {request, maxIterations}    -> {runId, info} (info: the split's sizes, test labels and pixels;
//               request: {train, test, settings}, or {asset, settings}: the images fetched here)
//   realAdvance {runId, budgetMs, every, rows}  steps that fit in the budget, measured at every multiple
//               of `every` and at the last iteration -> {frames, iteration, taken, done, computeMs,
//               stopReason ('' unless the run stopped early), softmax?, output?, gamma?: s_it, f_i and
//               gamma_it = Y_i v^T x_it of the test images `rows` when given}
//   realCall    {runId, method, args}       params, measure, testSoftmax, testScores, testSelection, analyze
// Pages of other scenarios never load this file (worker.js alone is their worker).
import './real-prefetch.js';  // (first: its message listener runs before worker.js's)
import { handlers, runs, newRunId, getRun } from '../engine/worker.js';
import { RealImagesRun } from '../engine/real-run.js';
import { loadPair, checkSplitSizes } from './asset.js';
import { RealStudyPlanner, RealLadderPlanner, RealPhasePlanner, RealStudyRun, RealLadderRun } from '../engine/real-study.js';

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
  if (rows) { out.softmax = run.testSoftmax(rows); const sc = run.testScores(rows); out.output = sc.output; out.gamma = sc.gamma; }
  return out;
}

// The images of a run fetched and merged here (asset.js) when the request names them (request.asset:
// {baseUrl, classA, classB, pool, nTrain, nTest}) instead of carrying them: the page's main thread then
// neither inflates the class files (4-6 tasks of 15-40 ms as they came in), merges them nor copies
// them to the worker. Every worker keeps the parsed files (asset.js's cache) for its next run.
async function assetImages({ baseUrl, classA, classB, pool, nTrain, nTest }) {
  const data = await loadPair(baseUrl, classA, classB, { pool });
  checkSplitSizes(data.perClass, nTrain, nTest);
  return { train: data.train, test: data.test };
}

handlers.realStart = async (engine, { request, maxIterations }) => {
  if (request?.asset) request = { ...(await assetImages(request.asset)), settings: request.settings };
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

// ---- the fair study (SPEC 6.1) and the regime ladder (6.2): plan-pool.js drives these ----
//   planCreate {kind: 'study'|'ladder', settings} -> {planId, state}   the core's planner (one worker
//               of a pool holds it: take and submit are cheap)
//   planTake   {planId, count} -> {runs, state};  planSubmit {planId, result} -> state
//   planTable  {planId} -> the core's table;       planDispose {planId}
//   setImages  {key, train, test}                  the two classes' pools, once per worker and pair
//   runStart   {kind, key, run} -> {runId, state}  one run of a plan (registered in `runs`: cancel works)
//   runAdvance {runId, budgetMs} -> {state, done, result?}  epochs (study) or steps (ladder) that fit
//               in the budget; a ladder run's analysis (its SVM solves) is one more call; at the end the
//               result, and the run is disposed

const plans = new Map();
let nextPlanId = 1;
const imageSets = new Map();
const getPlan = (planId) => {
  const p = plans.get(planId);
  if (!p) throw Object.assign(new Error(`no plan with id ${planId} (disposed?)`), { kind: 'state' });
  return p;
};

handlers.planCreate = (engine, { kind, settings }) => {
  // (the phase diagram's runs are ladder runs: runStart and runAdvance treat them as such)
  const Planner = { study: RealStudyPlanner, ladder: RealLadderPlanner, phase: RealPhasePlanner }[kind] ?? null;
  if (!Planner) throw new Error(`unknown plan kind '${kind}' (study, ladder or phase)`);
  const plan = new Planner(engine.module, settings ?? {});
  const planId = nextPlanId++;
  plans.set(planId, plan);
  return { planId, state: plan.state };
};
handlers.planTake = (engine, { planId, count }) => { const p = getPlan(planId); const r = p.take(count); return { runs: r, state: p.progress() }; };
handlers.planSubmit = (engine, { planId, result }) => getPlan(planId).submit(result);
handlers.planTable = (engine, { planId }) => getPlan(planId).table();
handlers.planDispose = (engine, { planId }) => { plans.get(planId)?.dispose(); plans.delete(planId); return null; };
handlers.setImages = (engine, { key, train, test }) => { imageSets.set(key, { train, test }); return null; };

handlers.runStart = (engine, { kind, key, run }) => {
  const images = imageSets.get(key);
  if (!images) throw Object.assign(new Error(`no images '${key}' in this worker (setImages first)`), { kind: 'state' });
  const r = kind === 'study' ? new RealStudyRun(engine.module, images, run) : new RealLadderRun(engine.module, images.train, run);
  const id = newRunId();
  runs.set(id, { id, run: r, kind, chunk: 1 });
  return { runId: id, state: r.state };
};

handlers.runAdvance = (engine, { runId, budgetMs = 100 }) => {
  const entry = getRun(runId);
  const r = entry.run;
  const t0 = performance.now();
  if (entry.kind === 'study') {
    while (!r.state.done && performance.now() - t0 < budgetMs) r.advance(1);
  } else if (!r.state.trained) {
    // steps in chunks sized from the measured cost (a step of a small n costs microseconds)
    while (!r.state.trained && performance.now() - t0 < budgetMs) {
      const t1 = performance.now();
      r.advance(entry.chunk);
      const ms = performance.now() - t1;
      entry.chunk = Math.max(1, Math.min(100000, Math.round(entry.chunk * (ms < budgetMs / 8 ? 2 : ms > budgetMs / 2 ? 0.5 : 1))));
    }
  } else if (!r.state.done) {
    r.analyze();
  }
  const state = { ...r.state };
  if (!state.done) return { state, done: false };
  const result = r.result();
  r.dispose();
  runs.delete(runId);
  return { state, done: true, result };
};
