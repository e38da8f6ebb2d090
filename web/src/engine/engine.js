// The Engine of attnsvm.d.ts over the wasm module, in the current thread (node, tests, and the
// inside of the worker). Each method converts its arguments to wire form (convert.js), calls one
// binding, and turns a {ok: false, error} status into a thrown AttnsvmError (an Error) carrying
// the core's message. Results arrive as fresh JS-owned typed arrays (the bindings copy them out of
// the wasm heap), so nothing returned here can be detached by a later call.
import {
  AttnsvmError, toWireDataset, fromWireDataset, toWireModel, fromWireModel, toWireParams,
  fromWireParams, toWireInit, fromWireInit, toWireMatrix, fromWireMatrix, fromWireSolution, fromWireReport,
  fromRagged, toI32, toF64, unwrap,
} from './convert.js';

export { AttnsvmError } from './convert.js';

const defaultAttention = (ds) => (ds && ds.Z != null ? 'cross' : 'self');  // the core's defaultAttention

// Finds the Emscripten factory (createAttnsvmModule) in this environment: already loaded, or
// loaded now from baseUrl by importScripts (classic worker) or a <script> tag (page). moduleName
// picks the build: 'attnsvm' (default) or 'attnsvm-experiments' (adds the experiment entry points).
export async function loadFactory(baseUrl, moduleName = 'attnsvm') {
  if (typeof globalThis.createAttnsvmModule === 'function') return globalThis.createAttnsvmModule;
  if (typeof importScripts === 'function') {
    importScripts(new URL(`${moduleName}.js`, baseUrl).href);
  } else if (typeof document !== 'undefined') {
    await new Promise((resolve, reject) => {
      const s = document.createElement('script');
      s.src = new URL(`${moduleName}.js`, baseUrl).href;
      s.onload = resolve;
      s.onerror = () => reject(new Error(`attnsvm: cannot load ${s.src}`));
      document.head.append(s);
    });
  } else {
    throw new Error('attnsvm: pass options.factory here (node: createRequire(import.meta.url)(".../attnsvm.js"))');
  }
  return globalThis.createAttnsvmModule;
}

// options: {factory?, wasmBinary?, locateFile?, baseUrl?, moduleName?, compiled?}. baseUrl is the
// folder of attnsvm.js and attnsvm.wasm (default: ./wasm/ next to the page); moduleName
// 'attnsvm-experiments' loads the build with the experiment entry points (experimentSeeds, basinMap,
// ...) instead. compiled: a Promise of the WebAssembly.Module that goes with the factory, compiled by
// the caller (compileWasm; the lab's worker, web/src/lab/lab-worker.js, starts it before anything else).
export async function createEngine(options = {}) {
  const baseUrl = options.baseUrl ??
    (typeof document !== 'undefined' ? new URL('./wasm/', document.baseURI).href : undefined);
  // In a page or worker that loads the glue script from baseUrl, the wasm's download and compile
  // start now, alongside the glue's (a worker's importScripts blocks it until the glue is there),
  // instead of after it.
  const compiled = options.compiled ?? earlyCompile(options, baseUrl);
  const factory = options.factory ?? await loadFactory(baseUrl, options.moduleName);
  const moduleArgs = {};
  if (options.wasmBinary) moduleArgs.wasmBinary = options.wasmBinary;
  if (options.locateFile) moduleArgs.locateFile = options.locateFile;
  else if (baseUrl) moduleArgs.locateFile = (p) => new URL(p, baseUrl).href;
  let failed;
  const failure = new Promise((_, reject) => { failed = reject; });
  if (compiled) {
    // Emscripten's hook: instantiate the module compiled above (its imports are known only now)
    moduleArgs.instantiateWasm = (imports, receive) => {
      compiled.then((m) => WebAssembly.instantiate(m, imports).then((instance) => receive(instance, m)))
        .catch((e) => failed(new Error(`attnsvm: the WebAssembly module could not start: ${e?.message ?? e}`)));
      return {};
    };
  }
  const M = await Promise.race([factory(moduleArgs), failure]);
  return wrapModule(M);
}

// The wasm compiled from baseUrl while the glue script loads: only where the glue will be fetched
// from baseUrl too (not with a factory, a binary, a custom locateFile or a glue already loaded,
// e.g. the single-file embed build), and where streaming compilation exists. A failure here (a
// server that does not send application/wasm) falls back to the glue's own loading.
function earlyCompile(options, baseUrl) {
  if (options.factory || options.wasmBinary || options.locateFile || !baseUrl) return null;
  if (typeof globalThis.createAttnsvmModule === 'function') return null;
  if (typeof WebAssembly?.compileStreaming !== 'function' || typeof fetch !== 'function') return null;
  if (typeof importScripts !== 'function' && typeof document === 'undefined') return null;
  return compileWasm(new URL(`${options.moduleName ?? 'attnsvm'}.wasm`, baseUrl).href);
}

// The wasm at url, downloaded and compiled as it streams in; a server that does not send
// application/wasm gets the plain download and compile instead.
export function compileWasm(url, response = fetch(url, { credentials: 'same-origin' })) {
  return WebAssembly.compileStreaming(response)
    .catch(() => fetch(url, { credentials: 'same-origin' }).then((r) => {
      if (!r.ok) throw new Error(`cannot load ${url} (HTTP ${r.status})`);
      return r.arrayBuffer();
    }).then((bytes) => WebAssembly.compile(bytes)));
}

// Warns about, then frees, Runs that were garbage-collected without dispose(). A safety net only:
// collection is not guaranteed, so always call dispose().
const orphans = typeof FinalizationRegistry === 'function'
  ? new FinalizationRegistry((handle) => {
    try {
      if (!handle.isDeleted()) {
        console.warn('attnsvm: a Run was garbage-collected without dispose(); freeing it now');
        handle.delete();
      }
    } catch { /* the module is gone */ }
  })
  : null;

function toTraceChunk(r) {
  return {
    frames: r.frames,
    units: r.units,
    references: r.references,
    T: r.T,
    iteration: r.iteration,
    loss: r.loss,
    normFro: r.normFro,
    normNuc: r.normNuc,
    normLp: r.normLp,
    selected: r.selected,
    selectedProbability: r.selectedProbability,
    corr: r.corr,
    divergence: r.divergence,
    softmax: r.softmax,
    weights: fromWireMatrix(r.weights),
    stopped: r.stopped,
    stopReason: r.stopReason,
    taken: r.taken,
    iterationNow: r.iterationNow,
  };
}

class Run {
  #handle;
  #referenceNames = [];

  constructor(handle) {
    this.#handle = handle;
    orphans?.register(this, handle, this);
  }

  #live() {
    if (!this.#handle) throw new AttnsvmError('Run: used after dispose()', 'state');
    return this.#handle;
  }

  get iteration() { return this.#live().iteration(); }
  get referenceNames() { return [...this.#referenceNames]; }
  get disposed() { return this.#handle === null; }

  // Advances up to k iterations; returns the trace frames recorded since the last call.
  step(k = 1) {
    if (!Number.isInteger(k) || k < 0) throw new AttnsvmError(`step(k): k = ${k} must be an integer >= 0`);
    return toTraceChunk(unwrap(this.#live().step(k)));
  }

  params() { return fromWireParams(unwrap(this.#live().params()).params); }
  weights() { return fromWireMatrix(unwrap(this.#live().weights()).weights); }

  addReference(name, W) {
    unwrap(this.#live().addReference(String(name), toWireMatrix(W, `reference ${name}`)));
    this.#referenceNames.push(String(name));
  }

  // Back to the initial parameters (references kept); the next step() starts a new trace.
  reset() { unwrap(this.#live().reset()); }

  dispose() {
    if (!this.#handle) return;
    orphans?.unregister(this);
    this.#handle.delete();
    this.#handle = null;
  }
}

// The Engine over an instantiated module (exported for the worker, which loads the module itself).
export function wrapModule(M) {
  const wireDataset = (ds) => toWireDataset(ds);
  // The experiment entry points exist only in the attnsvm-experiments build (pages and embeds do not
  // download them); with the default build, say which build to load instead of a TypeError.
  const experimentEntry = (name) => {
    if (typeof M[name] !== 'function') {
      throw new AttnsvmError(`${name} is only in the attnsvm-experiments build of the module: ` +
        "create the engine with {moduleName: 'attnsvm-experiments'}", 'input');
    }
    return M[name];
  };
  const engine = {
    module: M,
    version: () => M.version(),
    scenarioNames: () => unwrap(M.scenarioNames()).names,
    vocabulary() {
      const { ok: _ok, ...names } = unwrap(M.vocabulary());
      return names;
    },
    scenario(name, options = {}) {
      const r = unwrap(M.scenario(String(name), options ?? {}));
      return {
        name: r.name,
        title: r.title,
        dataset: fromWireDataset(r.dataset), // query only for self attention (the core's field list)
        model: fromWireModel(r.model),
        train: r.train,
        init: fromWireInit(r.init),
        iterations: r.iterations,
      };
    },
    sphere(n, T, d, seed = 0) { return fromWireDataset(unwrap(M.sphere(n, T, d, seed)).dataset); },
    validate(dataset, attention = defaultAttention(dataset)) {
      unwrap(M.validate(wireDataset(dataset), attention));
    },
    // Token scores gamma (n x T), optimal tokens and ties (no query needed).
    scores(dataset) {
      const r = unwrap(M.scores(wireDataset(dataset)));
      return { gamma: fromWireMatrix(r.gamma), optimal: Array.from(r.optimal), ties: fromRagged(r.ties) };
    },
    forward(dataset, model, params = {}) {
      const r = unwrap(M.forward(wireDataset(dataset), toWireModel(model), toWireParams(params)));
      return {
        softmax: fromWireMatrix(r.softmax),
        output: Array.from(r.output),
        selected: Array.from(r.selected),
        selectedProbability: Array.from(r.selectedProbability),
        loss: r.loss,
      };
    },
    solve(request) {
      return fromWireSolution(unwrap(M.solve(toWireRequest(request))));
    },
    analyze(request) {
      return fromWireReport(unwrap(M.analyze(toWireRequest(request))));
    },
    // Every feasible, locally optimal selection (the possible limits of GD), small problems only.
    enumerate(request) {
      return unwrap(M.enumerate(toWireRequest(request))).reports.map(fromWireReport);
    },
    // Generalized SVM of a final softmax (several tokens kept): {selectedSets, direction, finite, radius?}.
    generalized(request) {
      const wire = toWireRequest(request);
      wire.softmax = toWireMatrix(request.softmax, 'softmax');
      const r = unwrap(M.generalized(wire));
      return {
        selectedSets: fromRagged(r.selectedSets),
        direction: fromWireSolution(r.direction),
        finite: fromWireMatrix(r.finite),
        ...(r.radius !== undefined ? { radius: r.radius } : {}),
      };
    },
    // Regularization path W(R) = argmin_{||W|| <= R} L(W), one matrix per radius.
    path(request) {
      if (!request || typeof request !== 'object') throw new AttnsvmError('request must be an object');
      const wire = { ...request, dataset: toWireDataset(request.dataset), model: toWireModel(request.model),
        radii: toF64(request.radii ?? [], 'radii') };
      const r = unwrap(M.path(wire));
      const size = r.rows * r.cols;
      const matrices = Array.from({ length: r.count }, (_, k) =>
        fromWireMatrix({ rows: r.rows, cols: r.cols, data: r.data.subarray(k * size, (k + 1) * size) }));
      // Per radius the certificate of the core's PathPoint (the CLI's `attnsvm path` points).
      const points = Array.from(r.points ?? [], (pt, k) =>
        ({ ...pt, selection: Array.from(pt.selection), W: matrices[k] }));
      return Object.assign(matrices, { points });
    },
    // Names experimentSeeds accepts (the seeded experiments of the CLI).
    experimentNames: () => unwrap(experimentEntry('experimentNames')()).names,
    // Seeds seedStart .. seedStart + seedCount - 1 of one setting of a seeded experiment, exactly as
    // the native `attnsvm experiment` computes them. Stacked arrays: series[(seed * S + name) * I +
    // snapshot], values[seed * V + name]; labels[seed][name]; selections[seed][name] (arrays).
    experimentSeeds(name, options = {}) {
      if (!options || typeof options !== 'object') throw new AttnsvmError('experimentSeeds: options must be an object');
      const r = unwrap(experimentEntry('experimentSeeds')(String(name), options));
      const sel = fromRagged(r.selections);
      const S = r.selectionNames.length;
      return {
        experiment: r.experiment, count: r.count, n: r.n, T: r.T, d: r.d, iters: r.iters, every: r.every,
        seeds: Array.from(r.seeds), iteration: r.iteration, seriesNames: r.seriesNames, series: r.series,
        valueNames: r.valueNames, values: r.values, labelNames: r.labelNames, labels: r.labels,
        selectionNames: r.selectionNames,
        selections: Array.from({ length: r.count }, (_, k) => sel.slice(k * S, (k + 1) * S)),
      };
    },
    // The spread over runs of series, per snapshot: {mean, std, median, q10, q90} (Float64Arrays of
    // series x length), the core's seriesSpread, the numbers `attnsvm experiment` writes in its JSON.
    // values: runs x length per series, series after series (run k's value at snapshot i of series m
    // at (m * runs + k) * length + i); NaN where a run has none. Quantiles: type 7 over the finite values.
    seriesSpread(options) {
      if (!options || typeof options !== 'object') throw new AttnsvmError('seriesSpread: options must be an object');
      const wire = { ...options, ...(options.values != null ? { values: toF64(options.values, 'values') } : {}) };
      const { ok: _ok, ...spread } = unwrap(experimentEntry('seriesSpread')(wire));
      return spread;
    },
    // Rows of the basin map (prompt-global-local, local case): {grid, rowStart, rowCount, selection:
    // Int32Array (rowCount x grid, row-major; row = y index)}.
    basinMap(options = {}) { return unwrap(experimentEntry('basinMap')(options ?? {})); },
    // Its possible limits: [{token, global, direction: Float64Array | null}] and the slice's range.
    basinLimits(options = {}) {
      const r = unwrap(experimentEntry('basinLimits')(options ?? {}));
      return { tokens: r.tokens, range: Array.from(r.range) };
    },
    train(config) {
      if (!config || typeof config !== 'object') throw new AttnsvmError('train(config): config must be an object');
      // Every key reaches the core, which rejects those that are not fields (references: added below).
      const wire = {
        ...config,
        dataset: wireDataset(config.dataset),
        model: toWireModel(config.model),
        init: toWireInit(config.init),
      };
      const handle = new M.Run();
      try {
        unwrap(handle.init(wire));
      } catch (e) {
        handle.delete();
        throw e;
      }
      const run = new Run(handle);
      try {
        for (const ref of config.references ?? []) run.addReference(ref.name, ref.W);
      } catch (e) {
        run.dispose();
        throw e;
      }
      return run;
    },
    heapBytes: () => M.HEAPF64.buffer.byteLength,
    heapUsed: () => M.heapUsed(),
  };
  return engine;
}

// SolveRequest / analyze request -> wire (only the arrays change form; every key reaches the core,
// which reads the request through its field list and rejects the others; the attention's default
// is the core's).
function toWireRequest(req) {
  if (!req || typeof req !== 'object') throw new AttnsvmError('request must be an object');
  const out = { ...req, dataset: toWireDataset(req.dataset) };
  if (req.selection != null) out.selection = toI32(req.selection, 'selection');
  if (req.headSupport != null) out.headSupport = toI32(req.headSupport, 'headSupport');
  if (req.Wk != null) out.Wk = toWireMatrix(req.Wk, 'Wk');
  if (req.W != null) out.W = toWireMatrix(req.W, 'W');
  return out;
}
