// Two builds of the wasm module in one node process, same workloads, timed alternately: the
// median of the per-round B/A ratios. Use it to price a build change (flags, a kernel) without the
// machine's load drift, which makes two wasm-vs-native runs minutes apart differ by +-0.2.
// Run: node bench/wasm/wasm-ab.mjs DIR_A DIR_B   (each holding attnsvm.js + attnsvm.wasm)
// env ROUNDS (default 9). Times are per-call process CPU time, as in wasm-vs-native.mjs.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { loadEngine } from '../../tests/wasm/helpers.mjs';
import { median, time } from './cpu-time.mjs';

const [dirA, dirB] = process.argv.slice(2).map((d) => resolve(d));
if (!dirA || !dirB) throw new Error('usage: node bench/wasm/wasm-ab.mjs DIR_A DIR_B');
// (Each build's glue defines the same global factory name: loadEngine loads it through require, per file.)
const A = await loadEngine('attnsvm', dirA), B = await loadEngine('attnsvm', dirB);

const ROUNDS = Number(process.env.ROUNDS ?? 9);
const model = { attention: 'cross', param: 'W', head: 'linear', loss: 'logistic' };
const work = [];
const train = (label, m, tr, init) => work.push([label, (E, ds) => () => {
  const run = E.train({ dataset: ds.a, model: m, train: tr, init }); run.step(2000); run.dispose();
}]);
const solve = (label, big, req) => work.push([label, (E, ds) => () => E.solve({ dataset: big ? ds.b : ds.a, ...req })]);
train('NGD training, W, (6,8,10), 2000 it', model, { optimizer: 'ngd', lr: 0.1 }, { kind: 'zero' });
train('NGD training, (K,Q), (6,8,10), 2000 it', { ...model, param: 'KQ' }, { optimizer: 'ngd', lr: 0.1 },
  { kind: 'random', seed: 1, scale: 0.1 });
train('l_p mirror descent p=3, (6,8,10), 2000 it', model, { optimizer: 'md', lr: 0.1, p: 3 }, { kind: 'zero' });
solve('Frobenius Att-SVM, (15,15,20)', true, { norm: 'fro' });
solve('nuclear Att-SVM, (6,8,10)', false, { norm: 'nuclear' });
solve('nuclear Att-SVM, (15,15,20)', true, { norm: 'nuclear' });
solve('l_p Att-SVM p=3, (15,15,20)', true, { norm: 'lp', p: 3 });
solve('l_p Att-SVM p=1.5, (15,15,20)', true, { norm: 'lp', p: 1.5 });
if (process.env.ONLY) work.splice(0, work.length, ...work.filter(([l]) => l.includes(process.env.ONLY)));

const data = (E) => ({ a: E.sphere(6, 8, 10, 0), b: E.sphere(15, 15, 20, 0) });
const dA = data(A), dB = data(B);
console.log(`| workload | A ms | B ms | B / A (median of ${ROUNDS} rounds) |\n|---|---:|---:|---:|`);
for (const [label, make] of work) {
  const fa = make(A, dA), fb = make(B, dB);
  const ta = [], tb = [], r = [];
  for (let k = 0; k < ROUNDS; k++) {
    const [x, y] = k % 2 ? [time(5, fb, 200), time(5, fa, 200)].reverse() : [time(5, fa, 200), time(5, fb, 200)];
    ta.push(x); tb.push(y); r.push(y / x);
  }
  console.log(`| ${label} | ${median(ta).toFixed(3)} | ${median(tb).toFixed(3)} | ${median(r).toFixed(3)} |`);
}
const gz = (d) => gzipSync(readFileSync(resolve(d, 'attnsvm.wasm')), { level: 9 }).length;
console.log(`\nattnsvm.wasm gzipped: A ${gz(dirA)} B, B ${gz(dirB)} B`);
