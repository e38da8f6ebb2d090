// The token-plane setup the experiments' figures share (paths2d.js, mirror.js's joint-wv): from
// one seed's aggregated result r of an experiment that records 2-D tokens and paths, the tokens
// x_it, each sequence's path of W(k) z_i divided by its largest norm (as the lab's scenario view
// does), and unit arrows.
import { columnName, indexedName } from './metrics.js';

export const unit = ([a, b]) => {
  const n = Math.hypot(a, b);
  return n > 0 ? [a / n, b / n] : [a, b];
};

// The final value `name` of r (its mean over the seeds), NaN when absent.
export const finalOf = (r) => (name) => r.finals[name]?.mean ?? NaN;

// tokens[i][t] = [x_it1, x_it2] from the finals X[i][t][0], X[i][t][1].
export function planeTokens(r) {
  const v = finalOf(r);
  return Array.from({ length: r.n }, (_, i) => Array.from({ length: r.T }, (_, t) => [v(indexedName('X', i, t, 0)), v(indexedName('X', i, t, 1))]));
}

// One path a sequence from the series P/Wz[i][0], P/Wz[i][1] (P: the run's scope, W / KQ / p1.75),
// divided by its largest norm.
export function normalizedPaths(r, P) {
  return Array.from({ length: r.n }, (_, i) => {
    const xs = r.series[columnName(P, indexedName('Wz', i, 0))].mean, ys = r.series[columnName(P, indexedName('Wz', i, 1))].mean;
    let max = 0;
    for (let k = 0; k < xs.length; k++) if (Number.isFinite(xs[k])) max = Math.max(max, Math.hypot(xs[k], ys[k]));
    const s = max > 0 ? 1 / max : 1;
    const points = [];
    for (let k = 0; k < xs.length; k++) if (Number.isFinite(xs[k])) points.push([xs[k] * s, ys[k] * s]);
    return { seq: i, points };
  });
}
