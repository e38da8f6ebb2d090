// The real-images study (SPEC 6.1) and regime ladder (SPEC 6.2) for worker pools, over the
// attnsvm-experiments module's bindings (wasm/bindings_real_study.cpp). The core plans the runs,
// runs them (bit-identical to the native CLI) and aggregates their results; this file only wraps
// status objects into thrown AttnsvmErrors and provides the scheduling loop.
//
// How a pool drives a study (a ladder likewise):
//   coordinator (main thread or a worker):  const plan = new RealStudyPlanner(M, settings);
//     await runPlan(plan, (run) => pool.execute(run), { concurrency: workers });  // -> plan.table()
//   each worker: holds the module and the two classes' images ({train, test} image sets in file
//     order, e.g. web/src/real/asset.js's loadPair with the pool), and for each run it is given:
//     const result = await executeStudyRun(M, images, run, { chunk: 5, onProgress });
//     (a ladder run: executeLadderRun(M, images.train, run, ...)) and posts the result back.
// Runs are plain objects (the core's RealStudyRun / RealLadderRun field lists) and so are results:
// they cross postMessage as they are. The plan does not depend on the order in which results
// arrive, so the table equals the CLI's for the same settings.
// What comes out: a study table() = {settings, rows}: per (task, setting, method) the step grid and
// its mean validation accuracy, the extensions, the chosen step lr, mean/std/n of test accuracy (at
// the best-validation epoch and at the end), test loss, sparsity, max softmax, gamma-optimal share,
// and 95% t intervals of the paired differences to GD (vsGdBest, vsGdFinal, vsGdSparsity, ...; nmd
// also vsNgd*). A ladder table() = {settings, rows, summary}: per (head, method, n) feasibility
// counts, corr/D_p along log-spaced k (snapshotSteps, corrAlongK), softmax, verdict and failing-
// condition counts; summary = per (head, method) the largest n whose runs reach corr >= corrTarget.
// A reduced study for a page: e.g. {tasks: '7v9', nTrain: 200, nValidation: 100, nTest: 500,
// seeds: 5, design: 'main-only'} (any RealStudySettings key; the CLI takes the same JSON).
import { AttnsvmError, toWireImageSet, unwrap } from './convert.js';

function needs(M, name) {
  if (typeof M[name] !== 'function') {
    throw new AttnsvmError(`${name} is only in the attnsvm-experiments build of the module: create the engine with {moduleName: 'attnsvm-experiments'}`, 'input');
  }
}

// A handle owned by JS: created through init(), disposed by dispose().
class Handle {
  #handle;
  constructor(M, className, init) {
    needs(M, className);
    const h = new M[className]();
    try {
      this.state = unwrap(init(h));
    } catch (e) {
      h.delete();
      throw e;
    }
    this.#handle = h;
  }
  live() {
    if (!this.#handle) throw new AttnsvmError(`${this.constructor.name}: used after dispose()`, 'state');
    return this.#handle;
  }
  get disposed() { return this.#handle === null; }
  dispose() {
    if (!this.#handle) return;
    this.#handle.delete();
    this.#handle = null;
  }
}

// A planner (the study's or the ladder's: the core decides the runs, their steps and the table).
class Planner extends Handle {
  // Up to `count` runs ready to start (each once); [] while the runs in flight decide what follows.
  take(count) { const r = unwrap(this.live().take(count)); this.state = r; return r.runs; }
  submit(result) { this.state = unwrap(this.live().submit(result)); return this.state; }
  progress() { return (this.state = unwrap(this.live().progress())); }
  get done() { return this.progress().done; }
  // Every run handed out and every result received (in run order), for a record of the whole plan.
  record() { const r = unwrap(this.live().record()); return { runs: r.runs, results: r.results }; }
}

// The study's planner: settings are RealStudySettings (attnsvm.d.ts); every key optional.
export class RealStudyPlanner extends Planner {
  constructor(M, settings = {}) { super(M, 'RealStudyPlanner', (h) => h.init(settings)); }
  table() { const r = unwrap(this.live().table()); return { settings: r.settings, rows: r.rows }; }
}

// One study run in a worker: images {train, test}; advance(epochs) in chunks; result() at the end.
export class RealStudyRun extends Handle {
  constructor(M, images, run) {
    super(M, 'RealStudyRunHandle', (h) => h.init({ train: toWireImageSet(images.train, 'train'), test: toWireImageSet(images.test, 'test'), run }));
  }
  advance(epochs) { return (this.state = unwrap(this.live().advance(epochs))); }
  result() { return unwrap(this.live().result()).result; }
}

// The ladder's planner: settings are RealLadderSettings; its table adds the summary per head and method.
export class RealLadderPlanner extends Planner {
  constructor(M, settings = {}) { super(M, 'RealLadderPlanner', (h) => h.init(settings)); }
  table() { const r = unwrap(this.live().table()); return { settings: r.settings, rows: r.rows, summary: r.summary }; }
}

// The (d, n) phase diagram's planner (SPEC 6.5): settings are RealPhaseSettings; its runs are ladder
// runs (RealLadderRun / executeLadderRun run them), its table a row per (d, head, method, n) and a
// summary per (d, head, method).
export class RealPhasePlanner extends Planner {
  constructor(M, settings = {}) { super(M, 'RealPhasePlanner', (h) => h.init(settings)); }
  table() { const r = unwrap(this.live().table()); return { settings: r.settings, rows: r.rows, summary: r.summary }; }
}

// One ladder run: advance(steps) in chunks, then analyze() (the SVM solves, one chunk), result().
export class RealLadderRun extends Handle {
  constructor(M, train, run) {
    super(M, 'RealLadderRunHandle', (h) => h.init({ train: toWireImageSet(train, 'train'), run }));
  }
  advance(steps) { return (this.state = unwrap(this.live().advance(steps))); }
  analyze() { return (this.state = unwrap(this.live().analyze())); }
  result() { return unwrap(this.live().result()).result; }
}

const yieldToEvents = () => new Promise((resolve) => setTimeout(resolve, 0));

// A study run to its end in chunks of `chunk` epochs, yielding to the event loop between chunks
// (a worker stays responsive to messages) and calling onProgress({epoch, epochs}); signal: an
// AbortSignal that stops the run (rejects with an AbortError).
export async function executeStudyRun(M, images, run, { chunk = 5, onProgress, signal } = {}) {
  const r = new RealStudyRun(M, images, run);
  try {
    while (!r.state.done) {
      signal?.throwIfAborted();
      r.advance(chunk);
      onProgress?.({ epoch: r.state.epoch, epochs: r.state.epochs });
      await yieldToEvents();
    }
    return r.result();
  } finally { r.dispose(); }
}

// A ladder run likewise: training in chunks of `chunk` steps, then the analysis.
export async function executeLadderRun(M, train, run, { chunk = 2000, onProgress, signal } = {}) {
  const r = new RealLadderRun(M, train, run);
  try {
    while (!r.state.trained) {
      signal?.throwIfAborted();
      r.advance(chunk);
      onProgress?.({ step: r.state.step, steps: r.state.steps, phase: 'train' });
      await yieldToEvents();
    }
    onProgress?.({ step: r.state.step, steps: r.state.steps, phase: 'analysis' });
    r.analyze();
    return r.result();
  } finally { r.dispose(); }
}

// The scheduling loop of a coordinator: hands runs of `planner` (a RealStudyPlanner or a
// RealLadderPlanner) to execute(run) -> Promise<result> with at most `concurrency` in flight,
// submits each result as it arrives, until the plan is done; onProgress(planner.state) after each.
// Resolves with planner.table().
export async function runPlan(planner, execute, { concurrency = 2, onProgress } = {}) {
  const inFlight = new Map();
  let failure = null;
  for (;;) {
    if (!failure) {
      const free = concurrency - inFlight.size;
      if (free > 0) {
        for (const run of planner.take(free)) {
          const p = Promise.resolve().then(() => execute(run)).then(
            (result) => ({ run, result }),
            (error) => ({ run, error }));
          inFlight.set(run.id, p);
        }
      }
    }
    if (inFlight.size === 0) break;
    const done = await Promise.race(inFlight.values());
    inFlight.delete(done.run.id);
    if (done.error) { failure ??= done.error; continue; }
    if (!failure) {
      planner.submit(done.result);
      onProgress?.(planner.state);
    }
  }
  if (failure) throw failure;
  if (!planner.done) throw new AttnsvmError('runPlan: the plan stopped before it was done', 'internal');
  return planner.table();
}
