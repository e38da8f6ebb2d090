// Two builds of the experiments module (attnsvm-experiments.js/.wasm) in one node process, one thread:
// Engine.experimentSeeds on the same seeds, the builds alternated per round (A B A B ...), process CPU
// time per call; prints the medians and the median of the per-round B/A ratios, and the largest
// relative difference between the two builds' results (0 when they give the same bits). This is one
// worker's share of what the lab's experiment pool runs (web/src/experiments/runner.js).
//
//   node bench/wasm/experiment-ab.mjs DIR_A DIR_B [NAME [OPTIONS_JSON]]
//   e.g. node bench/wasm/experiment-ab.mjs /tmp/wasm-before web/public/wasm md-convergence '{"p":3,"seedCount":8}'
// env ROUNDS (default 5). The first call of each build is a warm-up (V8 tiers the hot functions up).
import { loadEngine } from '../../tests/wasm/helpers.mjs';
import { median, cpuMs } from './cpu-time.mjs';

const [dirA, dirB, name = 'local-convergence', opts = '{}'] = process.argv.slice(2);
if (!dirA || !dirB) throw new Error('usage: node bench/wasm/experiment-ab.mjs DIR_A DIR_B [NAME [OPTIONS_JSON]]');
const options = { seedStart: 0, seedCount: 8, ...JSON.parse(opts) };
const ROUNDS = Number(process.env.ROUNDS ?? 5);

const builds = [await loadEngine('attnsvm-experiments', dirA), await loadEngine('attnsvm-experiments', dirB)];

// The largest relative difference between two results' numbers (series, values).
function worstDiff(a, b) {
  let worst = 0;
  for (const key of ['series', 'values']) {
    const x = a[key], y = b[key];
    if (x.length !== y.length) return Infinity;
    for (let i = 0; i < x.length; i++) {
      if (Object.is(x[i], y[i])) continue;
      const d = Math.abs(x[i] - y[i]) / Math.max(Math.abs(x[i]), Math.abs(y[i]), 1e-300);
      worst = Math.max(worst, Number.isNaN(d) ? Infinity : d);
    }
  }
  return worst;
}

const results = builds.map((e) => e.experimentSeeds(name, options));  // warm-up
const ms = [[], []];
for (let r = 0; r < ROUNDS; r++) {
  for (const [i, e] of builds.entries()) {
    const t0 = cpuMs();
    e.experimentSeeds(name, options);
    ms[i].push(cpuMs() - t0);
  }
}
const ratio = median(ms[1].map((b, r) => b / ms[0][r]));
console.log(`${name} ${JSON.stringify(options)}: A ${median(ms[0]).toFixed(0)} ms, B ${median(ms[1]).toFixed(0)} ms, ` +
  `B/A ${ratio.toFixed(3)} (median of ${ROUNDS} rounds; A ${ms[0].map((x) => x.toFixed(0)).join(' ')}; ` +
  `B ${ms[1].map((x) => x.toFixed(0)).join(' ')}); largest relative difference ${worstDiff(...results).toExponential(2)}`);
