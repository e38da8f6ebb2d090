// Main-thread front end of the engine: every computation runs in a classic Web Worker
// (worker.js), so the page never blocks. Engine methods become Promise-returning calls, and a
// player streams training frames at display rate: on each animation frame, if no request is in
// flight, it asks the worker to "advance" the run by as many steps as fit in a compute budget
// (the worker adapts the batch size from the measured cost per step, so a frame stays under
// ~16 ms). At most one advance is in flight per run: a slow frame delays the next instead of
// queueing work, and a hidden tab (no animation frames) pauses by itself.
import { AttnsvmError } from './convert.js';
import { createAnswers, offerKey } from './first-answers.js';

const ENGINE_METHODS = ['version', 'scenarioNames', 'vocabulary', 'scenario', 'sphere', 'validate', 'scores',
  'forward', 'solve', 'analyze', 'enumerate', 'generalized', 'path', 'heapBytes', 'heapUsed',
  'experimentNames', 'experimentSeeds', 'basinMap', 'basinLimits', 'seriesSpread'];

const raf = (f) => (typeof requestAnimationFrame === 'function' ? requestAnimationFrame(f) : setTimeout(f, 16));

// options:
//   baseUrl       folder of attnsvm.js + attnsvm.wasm (default: ./wasm/ next to the page)
//   worker        a Worker running worker.js, if the caller made it (e.g. vite's `?worker&inline`
//                 for a single-script embed); default: new Worker(new URL('./worker.js', ...))
//   moduleSource  text of attnsvm.single.js: the worker loads it from a Blob (no separate files)
//   moduleName    which build to load from baseUrl: 'attnsvm' (default) or 'attnsvm-experiments'
//   budgetMs      compute per player frame (default 12 ms: leaves room for messaging and drawing)
//   firstRun      the first run the worker computes ahead (its offer, first-answers.js), known to the
//                 caller already (the lab's default link: computed at build time, scripts/vite-first-run.mjs):
//                 answered from at once, without waiting for the worker's init reply (the engine is
//                 returned before it); that reply's own offer is checked against it (firstRunChecked)
export async function createWorkerEngine(options = {}) {
  const worker = options.worker ?? new Worker(new URL('./worker.js', import.meta.url));
  const budgetMs = options.budgetMs ?? 12;
  const baseUrl = options.baseUrl ??
    (options.moduleSource ? undefined : new URL('./wasm/', document.baseURI).href);

  let nextId = 1;
  const pending = new Map(); // request id -> {resolve, reject}
  const players = new Map(); // runId -> {playing, inFlight, onFrame, onError}
  let dead = null;

  worker.onmessage = (ev) => {
    const { id, ok, result, error, kind } = ev.data;
    const p = pending.get(id);
    if (!p) return;
    pending.delete(id);
    if (ok) p.resolve(result);
    else p.reject(new AttnsvmError(error, kind));
  };
  worker.onerror = (ev) => {
    dead = new AttnsvmError(`attnsvm worker failed: ${ev.message ?? 'script error'}`, 'internal');
    for (const p of pending.values()) p.reject(dead);
    pending.clear();
  };

  // The first run the worker computed ahead (the lab's worker, web/src/lab/lab-worker.js), from its
  // init reply or given by the caller: equal requests are answered from it (first-answers.js), once each.
  let ahead = null;
  const useAhead = (offer, source) => {
    ahead = createAnswers(offer, (runId) => { request('cancel', { runId }).catch(() => {}); });
    worker.firstRun = ahead.stats; // (read by tests/browser/first-run.test.mjs)
    worker.firstRunSource = source;
  };

  function request(type, payload = {}, transfer = []) {
    if (dead) return Promise.reject(dead);
    const local = ahead?.answer({ type, ...payload });
    if (local) return Promise.resolve(local.result);
    const id = nextId++;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      worker.postMessage({ id, type, ...payload }, transfer);
    });
  }

  const init = request('init', { baseUrl, moduleSource: options.moduleSource, moduleName: options.moduleName });
  // The caller's offer: the page's requests equal to its own are answered now, the others wait in the
  // worker for its engine (a worker that fails to start fails them, as it fails init). The worker's
  // run started ahead is the one the page plays on: firstRunChecked says whether the worker computed
  // the same first run (its offer's request keys and results, value for value), else the page must
  // start its run again (app.js).
  let firstRunChecked = null;
  if (options.firstRun) {
    useAhead(options.firstRun, 'given');
    firstRunChecked = init.then(({ firstRun }) => {
      const ok = !!firstRun && offerKey(firstRun) === offerKey(options.firstRun);
      worker.firstRunHandedOver = ok;
      return ok;
    }, () => false);
  } else {
    try {
      const { firstRun } = await init;
      if (firstRun) useAhead(firstRun, 'worker');
    } catch (e) {
      if (!options.worker) worker.terminate(); // ours: do not leave a dead worker behind
      throw e;
    }
  }

  const call = (method, ...args) => request('call', { method, args });

  function play(runId, onFrame, onError = (e) => console.error(e)) {
    let p = players.get(runId);
    if (!p) { p = { playing: false, inFlight: false }; players.set(runId, p); }
    p.onFrame = onFrame;
    p.onError = onError;
    if (p.playing) return;
    p.playing = true;
    const tick = () => {
      if (!p.playing) return;
      if (!p.inFlight) {
        p.inFlight = true;
        request('advance', { runId, budgetMs }).then((frame) => {
          p.inFlight = false;
          if (frame.done) p.playing = false;
          try {
            p.onFrame(frame); // delivered even if paused meanwhile: its steps were taken
          } catch (e) {
            p.playing = false; // a broken consumer stops the player instead of spinning
            p.onError(e);
          }
        }, (e) => {
          p.inFlight = false;
          p.playing = false;
          p.onError(e);
        });
      }
      raf(tick);
    };
    raf(tick);
  }

  function pause(runId) {
    const p = players.get(runId);
    if (p) p.playing = false;
  }

  const api = {
    worker,
    call,
    firstRunChecked,
    // a raw protocol request, for workers that extend worker.js (web/src/real/real-worker.js)
    request,
    startRun: (config, { maxIterations } = {}) => request('start', { config, maxIterations }),
    play,
    pause,
    isPlaying: (runId) => players.get(runId)?.playing ?? false,
    step: (runId, k = 1) => request('step', { runId, k }),
    reset: (runId) => request('reset', { runId }),
    cancel(runId) {
      pause(runId);
      players.delete(runId);
      return request('cancel', { runId });
    },
    terminate() {
      for (const p of players.values()) p.playing = false;
      players.clear();
      worker.terminate();
      dead = new AttnsvmError('attnsvm worker terminated', 'state');
      for (const p of pending.values()) p.reject(dead);
      pending.clear();
    },
  };
  for (const m of ENGINE_METHODS) api[m] = (...args) => call(m, ...args);
  // The worker's own experiment message (same result as call('experimentSeeds', ...)).
  api.experimentSeeds = (name, options = {}) => request('experiment', { name, options });
  return api;
}
