// Classic Web Worker hosting the engine (vite bundles this file as an IIFE, see vite.config.js
// worker.format). The main thread (worker-engine.js) sends requests; every long computation,
// training and solves alike, happens here. Replies carry typed arrays as transferables.
//
// Protocol: requests {id, type, ...}; replies {id, ok: true, result} or {id, ok: false, error, kind}.
//   init    {baseUrl?, moduleSource?, moduleName?}  load the module: importScripts(baseUrl +
//                                      moduleName + '.js', default 'attnsvm'), or
//                                      the text of attnsvm.single.js through a Blob URL (embeds);
//                                      -> {version, firstRun?} (firstRun: the lab's worker's first run
//                                      computed ahead, web/src/lab/lab-worker.js, first-answers.js)
//   call    {method, args}             any Engine method (solve, analyze, scenario, ...)
//   start   {config, maxIterations?}   create a run -> runId
//   advance {runId, budgetMs}          player frame: as many steps as fit in the budget
//   step    {runId, k}                 exactly k steps (or fewer if the run stops / hits the cap)
//   reset   {runId}                    back to the initial parameters
//   cancel  {runId}                    dispose the run
//   experiment {name, options}         seeds of a seeded experiment (Engine.experimentSeeds); the
//                                      lab's experiment runner splits the seeds over a worker pool
// Extensions (a worker script that imports this one and adds to `handlers`, e.g.
// web/src/real/real-worker.js) register their runs in `runs` under ids from newRunId(), so that
// cancel works for them too (their run objects have dispose()).
import { createEngine } from './engine.js';

let enginePromise = null;
let nextRunId = 1;
export const runs = new Map(); // runId -> {run, maxIterations, stepsPerFrame, msPerStep}
export const newRunId = () => nextRunId++;

// For a worker script that starts its engine itself, before any message (web/src/lab/lab-worker.js):
// adoptEngine(promise of an Engine) is then the engine every request uses (the init request included);
// extendInitReply(fn): fn() -> fields added to the reply to an init request (the first run computed
// ahead: web/src/engine/first-answers.js).
let initReply = () => ({});
export function adoptEngine(promise) { enginePromise ??= promise; }
export function extendInitReply(fn) { initReply = fn; }

async function init({ baseUrl, moduleSource, moduleName }) {
  if (moduleSource) {
    // The single-file build defines createAttnsvmModule; a Blob URL avoids a separate file.
    const url = URL.createObjectURL(new Blob([moduleSource], { type: 'text/javascript' }));
    try { importScripts(url); } finally { URL.revokeObjectURL(url); }
  }
  return createEngine({ baseUrl, moduleName });
}

// Every ArrayBuffer behind a typed array in a (shallow-ish) result, for zero-copy transfer.
// (A Set: listing one buffer twice would make postMessage throw.)
function transferables(value) {
  const out = new Set();
  const walk = (v, depth) => {
    if (!v || typeof v !== 'object' || depth > 4) return;
    if (ArrayBuffer.isView(v)) out.add(v.buffer);
    else for (const k in v) walk(v[k], depth + 1);
  };
  walk(value, 0);
  return [...out];
}

export function getRun(runId) {
  const entry = runs.get(runId);
  if (!entry) throw Object.assign(new Error(`no run with id ${runId} (cancelled?)`), { kind: 'state' });
  return entry;
}

// One player frame: a batch of steps sized from the measured cost per step so that the compute
// stays under budgetMs (the display frame is ~16 ms; the default budget leaves room for messaging).
function advance(entry, budgetMs) {
  const { run } = entry;
  const remaining = entry.maxIterations - run.iteration;
  const k = Math.max(0, Math.min(entry.stepsPerFrame, remaining));
  const t0 = performance.now();
  const chunk = stepInPieces(entry, k);
  const ms = performance.now() - t0;
  if (chunk.taken > 0) {
    const perStep = ms / chunk.taken;
    // Smoothed cost per step; grow at most 2x per frame (timer noise), shrink at once when over.
    entry.msPerStep = entry.msPerStep ? 0.7 * entry.msPerStep + 0.3 * perStep : perStep;
    const target = Math.max(1, Math.floor((0.8 * budgetMs) / Math.max(entry.msPerStep, 1e-6)));
    entry.stepsPerFrame = ms > budgetMs ? Math.max(1, Math.floor(target / 2))
      : Math.min(target, 2 * entry.stepsPerFrame);
  }
  return frame(entry, chunk, ms);
}

// The weights come once a reply (the chunk's last W: the token plane's paths and the convergence
// curves are drawn from these snapshots, trace.js), so a reply of many iterations (the lab at speed
// 1000: k = 1000 a frame) left a 2000-iteration run with three points on its curves, the first at
// k = 1000. A run of known length is therefore stepped in pieces of at most snapshotEvery(entry)
// iterations (about 500 snapshots over the run, and at most MAX_PIECES pieces a reply), the pieces'
// per-iteration fields joined, and each piece's W (and head v under joint training) sent along as
// `snapshots` (all but the last piece's, which is the reply's own `weights`).
// (every typed array of a chunk holds one entry, or one stride, per frame: attnsvm.d.ts TraceChunk)
const MAX_PIECES = 100;
const snapshotEvery = (entry, k) => Math.max(Number.isFinite(entry.maxIterations) ? Math.ceil(entry.maxIterations / 500) : k, Math.ceil(k / MAX_PIECES), 1);

function stepInPieces(entry, k) {
  const every = snapshotEvery(entry, k);
  if (k <= 2 * every) return entry.run.step(k);
  const pieces = [], snapshots = [];
  for (let left = k; left > 0;) {
    const c = entry.run.step(Math.min(every, left));
    pieces.push(c);
    left -= c.taken;
    if (c.stopped || c.taken === 0 || left <= 0) break;
    snapshots.push({ iteration: c.iterationNow, weights: c.weights, ...(entry.trainHead ? { head: entry.run.params().v ?? null } : {}) });
  }
  if (pieces.length === 1) return pieces[0];
  const last = pieces.at(-1);
  const joined = { ...last, frames: 0, taken: 0, snapshots };
  for (const c of pieces) { joined.frames += c.frames; joined.taken += c.taken; }
  for (const f of Object.keys(last)) {
    if (!ArrayBuffer.isView(last[f])) continue;
    const out = new last[f].constructor(pieces.reduce((n, c) => n + c[f].length, 0));
    let at = 0;
    for (const c of pieces) { out.set(c[f], at); at += c[f].length; }
    joined[f] = out;
  }
  return joined;
}

function frame(entry, chunk, computeMs) {
  const done = chunk.stopped || entry.run.iteration >= entry.maxIterations;
  // joint training: the head v(k) too (the lab plots its convergence to the head SVM)
  const head = entry.trainHead ? { head: entry.run.params().v ?? null } : {};
  return { ...chunk, ...head, runId: entry.id, stepsPerFrame: entry.stepsPerFrame, computeMs, done };
}

export const handlers = {
  async call(engine, { method, args }) {
    if (typeof engine[method] !== 'function' || method === 'train' || method === 'module') {
      throw new Error(`unknown engine method '${method}' (use startRun for training)`);
    }
    return engine[method](...(args ?? []));
  },
  start(engine, { config, maxIterations }) {
    const run = engine.train(config);
    const id = nextRunId++;
    runs.set(id, { id, run, maxIterations: maxIterations ?? Infinity, stepsPerFrame: 1, msPerStep: 0,
      trainHead: !!config?.train?.trainHead });
    return id;
  },
  advance(engine, { runId, budgetMs }) { return advance(getRun(runId), budgetMs ?? 12); },
  step(engine, { runId, k }) {
    const entry = getRun(runId);
    const t0 = performance.now();
    const chunk = stepInPieces(entry, Math.max(0, Math.min(k, entry.maxIterations - entry.run.iteration)));
    return frame(entry, chunk, performance.now() - t0);
  },
  experiment(engine, { name, options }) { return engine.experimentSeeds(name, options); },
  reset(engine, { runId }) { getRun(runId).run.reset(); return null; },
  cancel(engine, { runId }) {
    const entry = runs.get(runId);
    if (entry) { entry.run.dispose(); runs.delete(runId); }
    return null;
  },
};

self.onmessage = async (ev) => {
  const msg = ev.data;
  try {
    let result;
    if (msg.type === 'init') {
      enginePromise ??= init(msg);
      const engine = await enginePromise;
      result = { version: engine.version(), ...initReply() };
    } else {
      if (!enginePromise) throw new Error('worker: init first');
      const engine = await enginePromise;
      const handler = handlers[msg.type];
      if (!handler) throw new Error(`worker: unknown request '${msg.type}'`);
      result = await handler(engine, msg);
    }
    self.postMessage({ id: msg.id, ok: true, result }, transferables(result));
  } catch (e) {
    self.postMessage({ id: msg.id, ok: false, error: e?.message ?? String(e), kind: e?.kind ?? 'internal' });
  }
};
