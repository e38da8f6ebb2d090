// The lab's only door to the engine (web/src/engine, attnsvm.d.ts): every call runs in the
// worker and returns a Promise, so a change of the engine's contract touches this file only.
import { createWorkerEngine } from '../engine/worker-engine.js';

// options (optional): passed to createWorkerEngine, e.g. { worker, moduleSource } for the
// single-script <attnsvm-figure> embed (web/src/embed/element.js).
export async function createEngineClient(options) {
  const we = await createWorkerEngine(options);
  const call = (method, ...args) => we.call(method, ...args);
  return {
    // (with options.firstRun: a promise of whether the worker computed that first run, worker-engine.js)
    firstRunChecked: we.firstRunChecked,
    version: () => call('version'),
    scenarioNames: () => call('scenarioNames'),
    vocabulary: () => call('vocabulary'),
    scenario: (name, options) => call('scenario', name, options),
    sphere: (n, T, d, seed) => call('sphere', n, T, d, seed),
    validate: (dataset, attention) => call('validate', dataset, attention),
    scores: (dataset) => call('scores', dataset),
    forward: (dataset, model, params) => call('forward', dataset, model, params),
    solve: (request) => call('solve', request),
    analyze: (request) => call('analyze', request),
    generalized: (request) => call('generalized', request),
    // Runs: the lab drives the player itself with exact step counts (deterministic frames).
    startRun: (config, maxIterations) => we.startRun(config, { maxIterations }),
    step: (runId, k) => we.step(runId, k),
    reset: (runId) => we.reset(runId),
    cancel: (runId) => we.cancel(runId).catch(() => {}),
    terminate: () => we.terminate(),
  };
}
