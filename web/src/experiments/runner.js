// Runs a seeded experiment across a pool of classic workers (navigator.hardwareConcurrency), each
// computing chunks of consecutive seeds with Engine.experimentSeeds; aggregates per setting in
// seed order (aggregate.js), so the result does not depend on the pool size or the chunking; the
// seeds' quantiles (the log axes' bands) come from the engine too (Engine.seriesSpread).
import { createWorkerEngine } from '../engine/worker-engine.js';
import { aggregateWithSpread } from './aggregate.js';

export class Cancelled extends Error {
  constructor() { super('experiment cancelled'); this.name = 'Cancelled'; }
}

let pool = null; // Promise<WorkerEngine[]>, kept between runs (module load costs ~100 ms a worker)

// The number of workers of the pool (navigator.hardwareConcurrency, 1..16).
export function poolSize() {
  const hw = typeof navigator !== 'undefined' ? navigator.hardwareConcurrency : 0;
  return Math.max(1, Math.min(hw || 2, 16));
}

function getPool(size, options) {
  // A failed start is not cached: the next run tries again.
  // The experiment entry points live in their own build of the module (wasm/bindings_experiments.cpp).
  const engineOptions = { moduleName: 'attnsvm-experiments', ...options };
  pool ??= Promise.all(Array.from({ length: size }, () => createWorkerEngine(engineOptions)))
    .catch((e) => { pool = null; throw e; });
  return pool;
}

// Starts the workers ahead of a run (each loads and compiles the module: about a second per worker
// on a busy 2-core machine), e.g. when the panel is opened.
export function warmPool(engineOptions) {
  return getPool(poolSize(), engineOptions).then(() => true, () => false);
}

// Ends the pool's workers (cancel: a chunk in flight cannot be interrupted otherwise).
export async function terminatePool() {
  const p = pool;
  pool = null;
  if (p) for (const w of await p.catch(() => [])) w.terminate();
}

// The source of work: an array's items in order, or a source's take().
function workSource(items) {
  let next = 0;
  return Array.isArray(items) ? () => (next < items.length ? items[next++] : null) : () => items.take();
}

// Reports {done, total, fraction, elapsedMs, etaMs}: once at the start, then after every stored item.
function progressCounter(total, onProgress, t0) {
  let done = 0;
  onProgress({ done: 0, total, fraction: 0, elapsedMs: 0, etaMs: NaN });
  return (units) => {
    done += units;
    const elapsedMs = performance.now() - t0;
    onProgress({ done, total, fraction: done / total, elapsedMs, etaMs: elapsedMs / done * (total - done) });
  };
}

// One worker's loop: takes items until there is no more work or the run is cancelled.
async function drain(w, take, work, cancelled, progress) {
  while (!cancelled()) {
    const it = take();
    if (it === null) return;
    if (it instanceof Promise) { await it; continue; }
    const store = await work(w, it);
    if (cancelled()) return;
    const units = store();
    progress(units ?? it.count);
  }
}

// Runs work(worker, item) for every item on `size` pooled workers; work returns a function that
// stores the result (skipped once cancelled) and may return the progress units it completed
// (default item.count). items: an array, or a source {take()} for work that depends on earlier
// results (rank.js): take() returns an item, null when there is no more work, or a Promise to await
// before asking again (all remaining work is in flight). Cancel (signal) ends the pool's workers,
// the only way to stop a chunk in flight.
export async function onPool(items, size, work, { total, onProgress, signal, engineOptions, t0 }) {
  const workers = (await getPool(poolSize(), engineOptions)).slice(0, size);
  let cancelled = false;
  const take = workSource(items);
  const onAbort = () => { cancelled = true; terminatePool(); };
  if (signal?.aborted) { onAbort(); throw new Cancelled(); }
  signal?.addEventListener('abort', onAbort, { once: true });
  const progress = progressCounter(total, onProgress, t0);
  try {
    await Promise.all(workers.map((w) => drain(w, take, work, () => cancelled, progress)));
  } catch (e) {
    if (cancelled) throw new Cancelled();
    throw e;
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
  if (cancelled) throw new Cancelled();
}

// spec: {name, seeds, seedBase?, iters?, every?, settings: [{label, options}], workers?, chunk?}
// onProgress({done, total, fraction, elapsedMs, etaMs}); signal: an AbortSignal (cancel).
// -> {name, settings: [{label, options, result: aggregate(...)}], workers, ms}
export async function runExperiment(spec, { onProgress = () => {}, signal, engineOptions } = {}) {
  const seeds = spec.seeds, base = spec.seedBase ?? 0;
  if (!Number.isInteger(seeds) || seeds < 1) throw new Error(`seeds = ${seeds} must be an integer >= 1`);
  const size = Math.min(spec.workers ?? poolSize(), seeds * spec.settings.length);
  // Chunks small enough to balance the pool and to report progress often, large enough that the
  // per-message cost stays negligible.
  const chunk = spec.chunk ?? Math.max(1, Math.min(8, Math.floor(seeds / (4 * size)) || 1));
  const items = [];
  spec.settings.forEach((s, si) => {
    for (let k = 0; k < seeds; k += chunk) items.push({ si, start: base + k, count: Math.min(chunk, seeds - k) });
  });
  const t0 = performance.now();
  const chunks = spec.settings.map(() => []);
  await onPool(items, size, async (w, it) => {
    const options = { ...spec.settings[it.si].options, seedStart: it.start, seedCount: it.count };
    if (spec.iters != null) options.iters = spec.iters;
    if (spec.every != null) options.every = spec.every;
    const r = await w.experimentSeeds(spec.name, options);
    return () => { chunks[it.si].push(r); };
  }, { total: seeds * spec.settings.length, onProgress, signal, engineOptions, t0 });
  return { name: spec.name, settings: await aggregateSettings(spec.settings, chunks, engineOptions), workers: size,
    ms: performance.now() - t0 };
}

// Each setting's chunks aggregated (aggregate.js, with the engine's spread of the series, one call a
// setting on the pool's workers): [{...setting, result}].
async function aggregateSettings(settings, chunks, engineOptions) {
  const workers = await getPool(poolSize(), engineOptions);
  return Promise.all(settings.map(async (s, si) => ({ ...s, result: await aggregateWithSpread(chunks[si], workers[si % workers.length]) })));
}

// A run's result (as runExperiment returns it) from seeds computed elsewhere: name, settings
// [{label, options, chunks: [experimentSeeds results]}] (the panel's test hook draws synthetic runs).
export async function resultOfChunks(name, settings, { engineOptions } = {}) {
  const t0 = performance.now();
  const results = await aggregateSettings(settings.map(({ chunks: _c, ...s }) => s), settings.map((s) => s.chunks), engineOptions);
  return { name, settings: results, workers: 0, ms: performance.now() - t0 };
}

// Basin map: rows of a grid x grid map split over the pool. spec: {grid, iters?, seed?, workers?}
// -> {grid, selection: Int32Array (row-major, row = y index), limits: basinLimits(), workers, ms}
export async function runBasinMap(spec, { onProgress = () => {}, signal, engineOptions } = {}) {
  const grid = spec.grid ?? 200;
  if (!Number.isInteger(grid) || grid < 2 || grid > 2000) throw new Error(`grid = ${grid} must be an integer in 2..2000`);
  const size = Math.min(spec.workers ?? poolSize(), grid);
  const rows = Math.max(1, Math.min(10, Math.floor(grid / (4 * size)) || 1));
  const items = [];
  for (let r = 0; r < grid; r += rows) items.push({ rowStart: r, rowCount: Math.min(rows, grid - r), count: Math.min(rows, grid - r) * grid });
  const t0 = performance.now();
  const selection = new Int32Array(grid * grid);
  const base = { grid, seed: spec.seed ?? 0, ...(spec.iters != null ? { iters: spec.iters } : {}) };
  await onPool(items, size, async (w, it) => {
    const r = await w.basinMap({ ...base, rowStart: it.rowStart, rowCount: it.rowCount });
    return () => selection.set(r.selection, it.rowStart * grid);
  }, { total: grid * grid, onProgress, signal, engineOptions, t0 });
  const [w0] = await getPool(poolSize(), engineOptions);
  const limits = await w0.basinLimits({ seed: base.seed });
  return { grid, selection, limits, workers: size, ms: performance.now() - t0 };
}
