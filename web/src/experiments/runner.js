// Runs a seeded experiment across a pool of classic workers (navigator.hardwareConcurrency), each
// computing chunks of consecutive seeds with Engine.experimentSeeds; aggregates per setting in
// seed order (aggregate.js), so the result does not depend on the pool size or the chunking.
import { createWorkerEngine } from '../engine/worker-engine.js';
import { aggregate } from './aggregate.js';

export class Cancelled extends Error {
  constructor() { super('experiment cancelled'); this.name = 'Cancelled'; }
}

let pool = null; // Promise<WorkerEngine[]>, kept between runs (module load costs ~100 ms a worker)

function poolSize() {
  const hw = typeof navigator !== 'undefined' ? navigator.hardwareConcurrency : 0;
  return Math.max(1, Math.min(hw || 2, 16));
}

function getPool(size, options) {
  // A failed start is not cached: the next run tries again.
  pool ??= Promise.all(Array.from({ length: size }, () => createWorkerEngine(options)))
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
  const workers = (await getPool(poolSize(), engineOptions)).slice(0, size);
  const chunks = spec.settings.map(() => []);
  let next = 0, done = 0;
  const total = seeds * spec.settings.length;
  let cancelled = false;
  const onAbort = () => { cancelled = true; terminatePool(); };
  if (signal?.aborted) { onAbort(); throw new Cancelled(); }
  signal?.addEventListener('abort', onAbort, { once: true });
  onProgress({ done: 0, total, fraction: 0, elapsedMs: 0, etaMs: NaN });
  try {
    await Promise.all(workers.map(async (w) => {
      while (next < items.length && !cancelled) {
        const it = items[next++];
        const options = { ...spec.settings[it.si].options, seedStart: it.start, seedCount: it.count };
        if (spec.iters != null) options.iters = spec.iters;
        if (spec.every != null) options.every = spec.every;
        const r = await w.experimentSeeds(spec.name, options);
        if (cancelled) return;
        chunks[it.si].push(r);
        done += it.count;
        const elapsedMs = performance.now() - t0;
        onProgress({ done, total, fraction: done / total, elapsedMs, etaMs: elapsedMs / done * (total - done) });
      }
    }));
  } catch (e) {
    if (cancelled) throw new Cancelled();
    throw e;
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
  if (cancelled) throw new Cancelled();
  return {
    name: spec.name,
    settings: spec.settings.map((s, si) => ({ ...s, result: aggregate(chunks[si]) })),
    workers: size,
    ms: performance.now() - t0,
  };
}
