// The rank experiment in the lab: for every grid cell (n, T, d), seeds are tried in order and the
// first `instances` feasible ones are kept, exactly as `attnsvm experiment rank` does
// (cli/experiments/sphere.cpp; one instance is the core's rankInstance via experimentSeeds('rank')).
// Workers compute chunks of consecutive seeds, a few chunks ahead per cell; which chunks run
// speculatively depends on timing, but a cell's result is taken from its seeds in order, so it does
// not depend on the worker count or the chunk size (only the wasted work does).
import { onPool, poolSize } from './runner.js';
import { aggregate, stats } from './aggregate.js';

export const RANK_DIMS = [1, 2, 3, 4, 5, 10, 15, 20];
export const RANK_CONFIGS = [[5, 5], [10, 5], [15, 5], [5, 10], [5, 15]];
// Seeds tried per cell before giving up (core rankMaxAttempts; d = 1 cells are mostly infeasible).
export const rankMaxAttempts = (instances) => Math.max(20 * instances, 200);

// One cell's summary from its chunk results (experimentSeeds('rank', ...)) covering seeds base ..
// base + tried - 1 in order: the CLI's row (cli/experiments/sphere.cpp), same field names.
export function rankCell(n, T, d, chunks, instances, maxAttempts) {
  const all = aggregate(chunks);
  const seeds = [], ranksFro = [], ranksNuc = [], gaps = [];
  let attempts = 0;
  for (let k = 0; k < all.seeds.length && seeds.length < instances && attempts < maxAttempts; k++) {
    attempts++;
    if (all.values.feasible[k] !== 1) continue;
    seeds.push(all.seeds[k]);
    ranksFro.push(all.values.rankFro[k]);
    ranksNuc.push(all.values.rankNuclear[k]);
    gaps.push(all.values.gapNuclear[k]);
  }
  const solved = ranksNuc.map((r, k) => [r, ranksFro[k]]).filter(([r]) => r >= 0);
  const frac = (f) => (solved.length ? solved.filter(f).length / solved.length : NaN);
  return {
    n, T, d, instances: seeds.length, attempts,
    rankFro: stats(ranksFro),
    rankNuclear: stats(solved.map(([r]) => r)),
    fractionNuclearLower: frac(([r, f]) => r < f),
    fractionNuclearLe: frac(([r, f]) => r <= f),
    nuclearFailures: ranksNuc.length - solved.length,
    nuclearGapMax: stats(gaps).max,
    ranksFro, ranksNuclear: ranksNuc, seeds,
  };
}

// spec: {instances? (100), dims?, configs? ([[n, T]]), seedBase?, rankTol?, chunk?, workers?}
// -> {name: 'rank', dims, configs, instances, cells: [rankCell(...)] (configs x dims order), workers, ms}
export async function runRank(spec = {}, { onProgress = () => {}, signal, engineOptions } = {}) {
  const instances = spec.instances ?? 100;
  if (!Number.isInteger(instances) || instances < 1 || instances > 100000) {
    throw new Error(`instances = ${instances} must be an integer in 1..100000`);
  }
  const dims = spec.dims ?? RANK_DIMS, configs = spec.configs ?? RANK_CONFIGS;
  for (const d of dims) if (!Number.isInteger(d) || d < 1 || d > 1024) throw new Error(`d = ${d} must be an integer in 1..1024`);
  const base = spec.seedBase ?? 0, maxAttempts = rankMaxAttempts(instances);
  const chunk = spec.chunk ?? 4;
  const extra = spec.rankTol != null ? { rankTol: spec.rankTol } : {};
  const cells = configs.flatMap(([n, T]) => dims.map((d) => ({
    n, T, d, chunks: new Map(), dispatched: 0, inFlight: 0, feasible: 0, done: false, units: 0 })));
  const UNITS = 1000; // progress units per cell
  // Contiguous completed prefix of a cell: done once it holds `instances` feasible seeds or covers
  // all attempts; progress is the larger of the two fractions.
  const feasibleIn = (r) => {
    const f = r.valueNames.indexOf('feasible'), V = r.valueNames.length;
    let count = 0;
    for (let k = 0; k < r.count; k++) count += r.values[k * V + f] === 1 ? 1 : 0;
    return count;
  };
  const prefix = (c) => {
    let tried = 0, feasible = 0;
    while (c.chunks.has(tried)) {
      const r = c.chunks.get(tried);
      feasible += feasibleIn(r);
      tried += r.count;
    }
    return { tried, feasible };
  };
  let wake = null, woken = null;
  const changed = () => (woken ??= new Promise((r) => { wake = r; }));
  const source = {
    take() {
      if (cells.every((c) => c.done)) return null;
      // The first unfinished cell that may still need seeds (counting seeds in flight as feasible).
      for (const [ci, c] of cells.entries()) {
        if (c.done || c.dispatched >= maxAttempts || c.feasible + c.inFlight >= instances) continue;
        const count = Math.min(chunk, maxAttempts - c.dispatched);
        const it = { ci, offset: c.dispatched, count };
        c.dispatched += count;
        c.inFlight += count;
        return it;
      }
      return changed();
    },
  };
  const t0 = performance.now();
  const size = Math.min(spec.workers ?? poolSize(), cells.length * maxAttempts);
  await onPool(source, size, async (w, it) => {
    const c = cells[it.ci];
    const r = await w.experimentSeeds('rank', { n: c.n, T: c.T, d: c.d, seedStart: base + it.offset, seedCount: it.count, ...extra });
    return () => {
      c.inFlight -= it.count;
      c.chunks.set(it.offset, r);
      c.feasible += feasibleIn(r);
      const before = c.units;
      if (!c.done) {
        const p = prefix(c);
        c.done = p.feasible >= instances || p.tried >= maxAttempts;
        c.units = c.done ? UNITS : Math.floor(UNITS * Math.max(p.feasible / instances, p.tried / maxAttempts));
      }
      const w0 = wake;
      woken = null;
      w0?.();
      return c.units - before;
    };
  }, { total: cells.length * UNITS, onProgress, signal, engineOptions, t0 });
  const out = cells.map((c) => {
    const ordered = [...c.chunks.entries()].sort((a, b) => a[0] - b[0]).map(([, r]) => r);
    return rankCell(c.n, c.T, c.d, ordered, instances, maxAttempts);
  });
  return { name: 'rank', dims, configs, instances, cells: out, workers: size, ms: performance.now() - t0 };
}
