// The runs of the "Real images" scenario, without DOM: the asset of the two classes (asset.js), one
// real-images run per p, each in a Web Worker of its own (the attnsvm-experiments module, loaded on
// demand), streamed by a player at display rate, with the measurements of every frame kept as
// series. The lab (lab-real.js) and the embed (figure-real.js) draw from it.
//
// createRealSession(options) -> session
//   options: { settings (see realSettings), compare: bool (p = 1.1, 2, 3 side by side), baseUrl (the
//              site folder holding data/; the workers fetch the images), fetchImpl? (the images
//              fetched by the page with it instead), makeEngine(k): Promise<worker engine> for run k (a worker
//              loaded with the attnsvm-experiments module), keepEngines (destroy() cancels the runs
//              instead of terminating the workers),
//              gallery: number of test images drawn (half of each class), onUpdate(session, what) }
//   session: { load(), play(), pause(), reset(), destroy(), runs, gallery, info(), detail(r, i) }
import { loadPair, checkSplitSizes, CLASS_NAMES } from './asset.js';

export const COMPARE_PS = [1.1, 2, 3];
export const OPTIMIZERS = { nmd: 'normalized l_p MD', md: 'l_p mirror descent (plain)', adam: 'Adam' };

// The settings of a run from the lab state (null fields: SPEC section 6 defaults).
export function realSettings(state) {
  const optimizer = ['nmd', 'md', 'adam'].includes(state.optimizer) ? state.optimizer : 'nmd';
  return {
    classA: state.classA ?? 7,
    classB: state.classB ?? 9,
    nTrain: state.nTrain ?? 1000,
    nTest: state.nTest ?? 1000,
    // the split's seed (the core's binarySubset: 0 takes the first images; the asset holds the pool
    // that every other seed draws from, so the page makes the CLI's split for every seed)
    seed: state.seed ?? 0,
    patch: 4,
    // the token dimension d (SPEC 6.5; the core's embedTokens with seed 0: the CLI's --token-dim)
    dim: Number(state.tokenDim ?? 18),
    embedSeed: 0,
    optimizer,
    p: state.p ?? 2,
    lr: state.lr ?? (optimizer === 'adam' ? 0.01 : 0.1),
    iters: state.iterations ?? 1000,
    // the SVM analysis on the first nSvm training images (the core's default 500, at most N_train)
    nSvm: Math.min(500, state.nTrain ?? 1000),
    histogramBins: 20,
  };
}

// The first `count` test images, half of each class, in the order of the test set.
export function galleryRows(labels, classA, classB, count) {
  const want = Math.floor(count / 2);
  const a = [], b = [];
  labels.forEach((l, i) => { if (l === classA && a.length < want) a.push(i); else if (l === classB && b.length < want) b.push(i); });
  return [...a, ...b];
}

const SERIES = ['trainAccuracy', 'testAccuracy', 'trainLoss', 'testLoss', 'trainMaxSoftmax', 'testMaxSoftmax', 'sparsity'];

function emptySeries() { return Object.fromEntries([['iteration', []], ...SERIES.map((k) => [k, []])]); }

// (a worker resolves a relative URL against its own script's)
const absolute = (url) => new URL(url, globalThis.document?.baseURI).href;

export function createRealSession(options) {
  const base = options.settings;
  const ps = options.compare && base.optimizer !== 'adam' ? COMPARE_PS : [base.p];
  const galleryCount = options.gallery ?? 24;
  const softmaxEveryMs = options.softmaxEveryMs ?? 150;
  let destroyed = false, loaded = false, error = null;
  // Stale answers: each load or reset is a run with an AbortSignal; a newer one (or destroy) aborts
  // it, and its answers are dropped where they arrive (signal.aborted), as in the lab's run controller.
  let ctl = new AbortController();
  const renew = () => { ctl.abort(); ctl = new AbortController(); return ctl.signal; };
  let data = null;
  let gallery = [];
  const runs = ps.map((p) => ({
    p, label: base.optimizer === 'adam' ? 'Adam' : `p = ${p}`, settings: { ...base, p },
    engine: null, id: null, info: null, series: emptySeries(), last: null, histogram: null,
    playing: false, inFlight: false, done: false, softmax: null, output: null, gamma: null, lastSoftmaxAt: 0,
    W: null, analysis: null, analyzing: false, error: null, startedAt: 0, finishedAt: 0, nextAt: 0,
  }));
  const update = (what) => { if (!destroyed) options.onUpdate?.(api, what); };
  const every = Math.max(1, Math.round(base.iters / 200));
  // Share of the time each worker computes: the workers and the page share the machine's cores, and
  // three busy workers on two cores starve the page (its tasks then take 50-200 ms of wall time).
  // So the runs together use at most cores - 1, each waiting computeMs * (1/duty - 1) between frames.
  const cores = (typeof navigator !== 'undefined' && navigator.hardwareConcurrency) || 2;
  const duty = options.duty ?? Math.min(0.8, Math.max(0.15, (cores - 1) / runs.length));
  const raf = (f) => (typeof requestAnimationFrame === 'function' ? requestAnimationFrame(f) : setTimeout(f, 16));

  function ingest(run, frames) {
    for (const f of frames) {
      run.series.iteration.push(f.iteration);
      for (const k of SERIES) run.series[k].push(f[k]);
      run.last = f;
      run.histogram = f.histogram;
    }
  }

  // Each run's worker fetches and merges the images itself (real-worker.js: the class files of the
  // pair, kept for the next run): the page's main thread only gets the test images the gallery
  // draws (the run's info). With options.fetchImpl (a page-side fetch) the session loads them here
  // and hands each worker a copy (transferred).
  const asset = { baseUrl: absolute(options.baseUrl), classA: base.classA, classB: base.classB, pool: base.seed !== 0, nTrain: base.nTrain, nTest: base.nTest };
  async function startRun(run, signal) {
    run.engine ??= await options.makeEngine(runs.indexOf(run));
    if (signal.aborted) return;
    let request = { asset, settings: run.settings }, transfer = [];
    if (data) {
      const own = (set) => ({ ...set, pixels: set.pixels.slice(), labels: set.labels.slice() });
      const train = own(data.train), test = own(data.test);
      request = { train, test, settings: run.settings };
      transfer = [train.pixels.buffer, train.labels.buffer, test.pixels.buffer, test.labels.buffer];
    }
    const { runId, info } = await run.engine.realStart(request, { maxIterations: run.settings.iters, transfer });
    if (signal.aborted) { run.engine.cancel(runId).catch(() => {}); return; }
    run.id = runId;
    run.info = info;
    const f0 = await run.engine.realCall(runId, 'measure');
    if (signal.aborted) return;
    ingest(run, [f0]);
    await refreshSoftmax(run);
  }

  async function refreshSoftmax(run) {
    if (!run.id || !gallery.length) return;
    const [softmax, scores] = await Promise.all([run.engine.realCall(run.id, 'testSoftmax', gallery),
      run.engine.realCall(run.id, 'testScores', gallery)]);
    run.softmax = softmax;
    run.output = scores.output;
    run.gamma = scores.gamma;
    run.lastSoftmaxAt = performance.now();
  }

  async function load() {
    const signal = renew();
    try {
      if (options.fetchImpl) {
        data = await loadPair(options.baseUrl, base.classA, base.classB, { fetchImpl: options.fetchImpl, pool: base.seed !== 0 });
        if (signal.aborted) return;
        checkSplitSizes(data.perClass, base.nTrain, base.nTest);
      }
      await Promise.all(runs.map((r) => startRun(r, signal)));
      if (signal.aborted) return;
      // the gallery's rows need the core's split (the info of the first run): drawn once it is known
      gallery = galleryRows(runs[0].info.testLabels, base.classA, base.classB, galleryCount);
      await Promise.all(runs.map(refreshSoftmax));
      loaded = true;
      update('loaded');
    } catch (e) {
      if (signal.aborted) return;
      error = e.message ?? String(e);
      update('error');
    }
  }

  function play() {
    if (!loaded || destroyed) return;
    for (const run of runs) {
      if (run.done || run.playing || !run.id) continue;
      run.playing = true;
      run.startedAt ||= performance.now();
      const { signal } = ctl;
      const tick = () => {
        if (!run.playing || signal.aborted) return;
        if (!run.inFlight && performance.now() >= run.nextAt) advance(run, signal);
        raf(tick);
      };
      raf(tick);
    }
    update('player');
  }

  async function advance(run, signal) {
    run.inFlight = true;
    try {
      const wantSoftmax = performance.now() - run.lastSoftmaxAt > softmaxEveryMs;
      const r = await run.engine.realAdvance(run.id, { every, rows: wantSoftmax ? gallery : undefined });
      if (signal.aborted) return;
      run.nextAt = performance.now() + r.computeMs * (1 / duty - 1);
      ingest(run, r.frames);
      if (r.softmax) { run.softmax = r.softmax; run.output = r.output; run.gamma = r.gamma ?? null; run.lastSoftmaxAt = performance.now(); }
      if (r.done) {
        run.done = true;
        if (r.stopReason) run.error = `stopped at k = ${r.iteration}: ${r.stopReason}`;
        run.playing = false;
        run.finishedAt = performance.now();
        await refreshSoftmax(run);
        update('player');
        analyze(run);
      }
      update('frame');
    } catch (e) {
      if (signal.aborted) return;
      run.playing = false;
      run.error = e.message;
      update('error');
    } finally {
      if (!signal.aborted) run.inFlight = false;
    }
  }

  // The SVM analysis of SPEC section 6 at the end of a run (or on demand): the final selection on
  // the first nSvm training images, its verdict, and corr / D_p of W with its l_p Att-SVM.
  async function analyze(run) {
    if (!run.id || run.analyzing) return run.analysis;
    run.analyzing = true;
    const { signal } = ctl;
    try {
      const [a, params] = await Promise.all([run.engine.realCall(run.id, 'analyze'), run.engine.realCall(run.id, 'params')]);
      if (signal.aborted) return null;
      run.analysis = a;
      run.W = params.W;
      update('analysis');
      return a;
    } catch (e) {
      if (!signal.aborted) { run.analysis = { error: e.message }; update('analysis'); }
      return null;
    } finally {
      run.analyzing = false;
    }
  }

  async function weights(run) {
    if (!run.id) return null;
    const params = await run.engine.realCall(run.id, 'params');
    run.W = params.W;
    return run.W;
  }

  function pause() {
    for (const run of runs) run.playing = false;
    update('player');
  }

  async function reset() {
    pause();
    const signal = renew();
    for (const run of runs) {
      if (run.id !== null) run.engine.cancel(run.id).catch(() => {});
      Object.assign(run, { id: null, info: null, series: emptySeries(), last: null, histogram: null, playing: false, inFlight: false,
        done: false, softmax: null, output: null, gamma: null, W: null, analysis: null, error: null, startedAt: 0, finishedAt: 0 });
    }
    loaded = false;
    try {
      await Promise.all(runs.map((r) => startRun(r, signal)));
      if (signal.aborted) return;
      await Promise.all(runs.map(refreshSoftmax));
      loaded = true;
      update('loaded');
    } catch (e) {
      if (!signal.aborted) { error = e.message; update('error'); }
    }
  }

  // What a click on gallery image `j` shows: its softmax over patches, its token scores gamma with
  // the current head, f_i, and the run's analysis (if computed).
  async function detail(r, j) {
    const run = runs[r];
    const i = gallery[j];
    const [softmax, scores] = await Promise.all([run.engine.realCall(run.id, 'testSoftmax', [i]), run.engine.realCall(run.id, 'testScores', [i])]);
    return { index: i, label: run.info.testLabels[i], softmax, gamma: scores.gamma, output: scores.output[0], T: scores.T };
  }

  const api = {
    load, play, pause, reset, analyze, weights, detail,
    runs,
    get gallery() { return gallery; },
    get data() { return data; },
    settings: base,
    // the images the workers fetch (null: the session fetched them, options.fetchImpl)
    get asset() { return options.fetchImpl ? null : asset; },
    every,
    duty,
    classNames: CLASS_NAMES,
    // what a drawing pass needs, without the copies info() makes (it runs every animation frame)
    status() {
      let iteration = Infinity;
      for (const r of runs) iteration = Math.min(iteration, r.series.iteration.at(-1) ?? 0);
      return { loaded, error, playing: runs.some((r) => r.playing), done: runs.every((r) => r.done), iteration, maxIterations: base.iters };
    },
    info() {
      return {
        loaded, error, compare: runs.length > 1,
        playing: runs.some((r) => r.playing), done: runs.every((r) => r.done),
        iteration: Math.min(...runs.map((r) => r.series.iteration.at(-1) ?? 0)),
        maxIterations: base.iters,
        runs: runs.map((r) => ({ p: r.p, label: r.label, iteration: r.series.iteration.at(-1) ?? 0, done: r.done, error: r.error,
          last: r.last && { ...r.last, histogram: Array.from(r.last.histogram ?? []) },
          analysis: r.analysis && { ...r.analysis, selection: r.analysis.selection ? Array.from(r.analysis.selection) : null, svm: undefined },
          seconds: r.finishedAt ? (r.finishedAt - r.startedAt) / 1000 : null })),
      };
    },
    destroy() {
      destroyed = true;
      ctl.abort();
      for (const run of runs) {
        run.playing = false;
        // the lab keeps its workers for the next session (the module loads once per worker)
        if (options.keepEngines) { if (run.id !== null) run.engine?.cancel(run.id).catch(() => {}); } else run.engine?.terminate();
      }
    },
  };
  return api;
}
