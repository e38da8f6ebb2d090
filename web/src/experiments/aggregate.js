// Mean and standard deviation over seeds of the per-seed results of Engine.experimentSeeds, with
// the native CLI's arithmetic (cli/experiments/common.cpp: finite values only, population std,
// summed in seed order), so the lab's bands equal the JSON of `attnsvm experiment` to rounding.

// {mean, std, min, max, count} of the finite values (NaN fields when there are none).
export function stats(values) {
  let count = 0, sum = 0, min = NaN, max = NaN;
  for (const x of values) {
    if (!Number.isFinite(x)) continue;
    if (count === 0) { min = x; max = x; }
    min = Math.min(min, x);
    max = Math.max(max, x);
    sum += x;
    count++;
  }
  if (count === 0) return { mean: NaN, std: NaN, min: NaN, max: NaN, count: 0 };
  const mean = sum / count;
  let q = 0;
  for (const x of values) if (Number.isFinite(x)) q += (x - mean) * (x - mean);
  return { mean, std: Math.sqrt(q / count), min, max, count };
}

// Chunks (results of experimentSeeds for consecutive seed ranges of ONE setting, any order) ->
// {seeds, iteration, series: {name: {mean, std}}, finals: {name: stats}, values: {name: number[]},
//  labels: {name: string[]}, selections: {name: number[][]}} over all seeds in seed order.
export function aggregate(chunks) {
  const sorted = [...chunks].sort((a, b) => a.seeds[0] - b.seeds[0]);
  if (sorted.length === 0) throw new Error('aggregate: no results');
  const first = sorted[0];
  const I = first.iteration.length, S = first.seriesNames.length, V = first.valueNames.length;
  const seeds = sorted.flatMap((c) => c.seeds);
  const perSeries = first.seriesNames.map(() => []);   // [name][seed] -> Float64Array(I)
  const values = Object.fromEntries(first.valueNames.map((n) => [n, []]));
  const labels = Object.fromEntries(first.labelNames.map((n) => [n, []]));
  const selections = Object.fromEntries(first.selectionNames.map((n) => [n, []]));
  for (const c of sorted) {
    for (let k = 0; k < c.count; k++) {
      for (let m = 0; m < S; m++) perSeries[m].push(c.series.subarray((k * S + m) * I, (k * S + m + 1) * I));
      first.valueNames.forEach((n, v) => values[n].push(c.values[k * V + v]));
      first.labelNames.forEach((n, l) => labels[n].push(c.labels[k][l]));
      first.selectionNames.forEach((n, s) => selections[n].push(c.selections[k][s]));
    }
  }
  const series = {};
  first.seriesNames.forEach((name, m) => {
    const mean = new Float64Array(I).fill(NaN), std = new Float64Array(I).fill(NaN);
    const col = new Array(seeds.length);
    for (let i = 0; i < I; i++) {
      for (let k = 0; k < seeds.length; k++) col[k] = perSeries[m][k][i];
      const st = stats(col);
      if (st.count > 0) { mean[i] = st.mean; std[i] = st.std; }
    }
    series[name] = { mean, std };
  });
  const finals = Object.fromEntries(Object.entries(values).map(([n, v]) => [n, stats(v)]));
  return { experiment: first.experiment, n: first.n, T: first.T, d: first.d, iters: first.iters, every: first.every,
    seeds, iteration: Array.from(first.iteration), series, finals, values, labels, selections };
}

// The request of Engine.seriesSpread for every series of chunks (as aggregate takes them): one call
// a setting, values[(m * seeds + k) * I + i] = series m of seed k (seed order) at snapshot i.
export function spreadRequest(chunks) {
  const sorted = [...chunks].sort((a, b) => a.seeds[0] - b.seeds[0]);
  const first = sorted[0];
  const I = first.iteration.length, S = first.seriesNames.length;
  const runs = sorted.reduce((n, c) => n + c.count, 0);
  const values = new Float64Array(S * runs * I);
  let k = 0;
  for (const c of sorted) {
    for (let j = 0; j < c.count; j++, k++) {
      for (let m = 0; m < S; m++) values.set(c.series.subarray((j * S + m) * I, (j * S + m + 1) * I), (m * runs + k) * I);
    }
  }
  return { names: [...first.seriesNames], request: { values, runs, length: I } };
}

// aggregate(chunks) with the engine's spread of each series (Engine.seriesSpread, the core's
// seed_spread.hpp, the numbers of the CLI's JSON): series[name] gains median, q10 and q90, the log
// axes' band (bands.js). engine: an Engine or a WorkerEngine (the experiments build).
export async function aggregateWithSpread(chunks, engine) {
  const out = aggregate(chunks);
  const { names, request } = spreadRequest(chunks);
  if (names.length === 0 || request.length === 0) return out;
  const s = await engine.seriesSpread(request);
  const I = request.length;
  names.forEach((name, m) => {
    const part = (a) => a.slice(m * I, (m + 1) * I);
    Object.assign(out.series[name], { median: part(s.median), q10: part(s.q10), q90: part(s.q90) });
  });
  return out;
}
