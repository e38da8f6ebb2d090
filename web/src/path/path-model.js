// The regularization path view's maths on the page side (SPEC section 5.3): which problem the
// engine's `path` is asked for, the radius schedule, and what a reader is shown for one radius.
// No DOM and no engine calls: the lab's view, the embed's panel and the tests share it.
//
// The path is W(R) = argmin_{||W|| <= R} L(W) on three balls: Frobenius (the limit of GD on W),
// nuclear (the (K, Q) parameterization's ball on W = K Q^T) and entrywise l_p (l_p mirror descent).
// The engine computes each W(R) by Frank-Wolfe, warm-started along the schedule, with its
// certificate (relative Frank-Wolfe gap) and corr with the Att-SVM of W(R)'s own selection in the
// ball's norm (attnsvm/train/path.hpp).
import { scoreVector } from '../lab/views.js';
import { dot } from '../lab/linalg.js';

export const PATH_BALLS = ['fro', 'nuclear', 'lp'];
export const BALL_LABEL = { fro: 'Frobenius', nuclear: 'nuclear', lp: 'l_p' };

// The radius schedule: R = 10^(k/4), k = 0..12 (1 to 1000, four radii a decade). Beyond 10^3 the
// 2-D scenarios' W(R) has turned to within 1e-5 of its SVM and the steps stop reaching the
// certificate bound (docs/RESULTS.md, "Regularization path"), and each further decade costs
// more than the first three together.
export const RADII_PER_DECADE = 4;
export const RADIUS_DECADES = 3;
export const PATH_RADII = Array.from({ length: RADIUS_DECADES * RADII_PER_DECADE + 1 },
  (_, k) => 10 ** (k / RADII_PER_DECADE));
// While a token moves, the path is a preview: at most this many Frank-Wolfe iterations a radius
// (the engine's default is 500; a radius that stops short is reported uncertified, as any other),
// each radius warm-started from the previous position's W(R) (path-compute.js), so a drag's
// previews continue one another's iterations; the full path follows when the token is dropped.
// 30: the five-step drag of bench/browser/path-preview.mjs spends ~350 iterations a step on the
// three balls, against ~750 at 100 warm-started and ~1780 at 100 from W = 0 (docs/BENCHMARKS.md).
export const PREVIEW_ITERATIONS = 30;
// The rank of W(R): singular values above this fraction of the largest (as the reg-path experiment).
export const RANK_TOLERANCE = 1e-7;

// The index of the schedule's radius closest to R on a log scale.
export function radiusIndex(R, radii = PATH_RADII) {
  if (!(R > 0)) return 0;
  let best = 0;
  for (let k = 1; k < radii.length; k++) {
    if (Math.abs(Math.log(radii[k] / R)) < Math.abs(Math.log(radii[best] / R))) best = k;
  }
  return best;
}

// Why the path cannot be computed for this configuration (a sentence), or null.
export function pathUnsupported(cfg) {
  if (!cfg) return 'The regularization path is computed for the token scenarios (this one has no tokens).';
  if (cfg.train?.trainHead) return 'The path is computed for a fixed head: this scenario trains the head v jointly, so its W(R) is not defined by the tokens alone. Pick a scenario with a fixed head.';
  return null;
}

// The engine's `path` request of one ball: the lab's tokens and model, W in place of (K, Q) (the
// nuclear ball is the (K, Q) path, SPEC 5.3), the schedule, p for the l_p ball; preview: the
// iterations capped (PREVIEW_ITERATIONS), else the engine's defaults.
export function pathRequest(cfg, dataset, ball, lpP, { radii = PATH_RADII, preview = false } = {}) {
  const model = { ...cfg.model, param: cfg.model.param === 'prompt' ? 'prompt' : 'W' };
  delete model.K; delete model.Q; delete model.W;
  return { dataset, model, radii: [...radii], norm: ball, ...(ball === 'lp' ? { p: lpP } : {}),
    ...(preview ? { iterationsPerRadius: PREVIEW_ITERATIONS } : {}) };
}

// The SVM a ball's path points at: the Att-SVM of the selection of its last radius, in its norm.
export function svmRequest(cfg, dataset, ball, lpP, selection) {
  const req = { dataset, attention: cfg.model.attention, norm: ball, selection: [...selection], ...(ball === 'lp' ? { p: lpP } : {}) };
  if (cfg.model.param === 'prompt') { req.problem = 'prompt'; req.Wk = cfg.model.Wk; }
  return req;
}

// The first radius whose loss no longer resolves in double precision (R ||grad L||_dual < eps L),
// or null when every radius does.
export function lossStopsResolving(points) {
  return points.find((p) => !p.lossResolved)?.radius ?? null;
}

// One radius of one ball, as the view shows it.
export function pointSummary(points, k) {
  const p = points?.[k];
  if (!p) return null;
  return {
    radius: p.radius, oneMinusCorr: 1 - p.corrOwn, rank: p.rank, relativeGap: p.relativeGap,
    certified: p.certified, lossResolved: p.lossResolved, selection: [...p.selection], loss: p.loss,
    globallyOptimal: p.globallyOptimal,
  };
}

// The units that get a path in the plane (one per sequence for cross/self attention, the prompt,
// none where every position is a query) and their scale: as the lab's token plane (views.js).
function planeUnits(cfg, n) {
  if (cfg.model.param === 'prompt') return [0];
  return cfg.model.attention === 'cross' || cfg.model.attention === 'self' ? [...Array(n).keys()] : [];
}

// The token plane of the path view: the tokens, and per unit the direction of W(R) z_i for every
// radius up to the current one, drawn at a distance from the origin that grows with log R (from
// 0.25 to 1 of the display radius over the schedule), so the turn of the direction shows at every
// scale; the arrows are the SVMs' directions W^mm z_i at the display radius.
// proj: { axes: [e1, e2] } (views.js computeProjection); paths: { ball: PathPoint[] };
// svms: { ball: Solution }; shown: the ball whose path is drawn.
export function pathPlaneData({ cfg, dataset, proj, paths, svms, shown, k }) {
  const [e1, e2] = proj.axes;
  const P = (v) => [dot(v, e1), dot(v, e2)];
  const tokens = dataset.X.map((seq) => seq.map(P));
  const n = dataset.X.length;
  const radius = 0.9 * Math.max(0.25, ...tokens.flat().map(([a, b]) => Math.hypot(a, b)));
  const units = planeUnits(cfg, n);
  const seqOf = (i) => (cfg.model.param === 'prompt' ? -1 : i);
  const pts = paths?.[shown] ?? [];
  const span = Math.log(PATH_RADII.at(-1));
  const out = [];
  for (const i of units) {
    const points = [];
    for (let j = 0; j <= Math.min(k, pts.length - 1); j++) {
      const u = scoreVector(cfg, pts[j].W, i, dataset);
      const nu = u ? Math.hypot(...u) : 0;
      if (!(nu > 0)) continue;
      const q = P(u);
      const len = radius * (0.25 + 0.75 * Math.log(pts[j].radius) / span);
      const pt = [(q[0] / nu) * len, (q[1] / nu) * len];
      if (pt.every(Number.isFinite)) points.push(pt);
    }
    out.push({ seq: seqOf(i), points });
  }
  const arrows = [];
  for (const [ball, sol] of Object.entries(svms ?? {})) {
    if (!sol || sol.status !== 'optimal') continue;
    for (const i of units) {
      const u = scoreVector(cfg, sol.W, i, dataset);
      const nu = u ? Math.hypot(...u) : 0;
      if (!(nu > 0)) continue;
      const q = P(u);
      arrows.push({ seq: seqOf(i), ref: ball, to: [(q[0] / nu) * radius, (q[1] / nu) * radius] });
    }
  }
  const sel = pts[Math.min(k, pts.length - 1)]?.selection;
  return {
    tokens, paths: out, arrows, selected: sel && sel.length === n ? [...sel] : null,
    pathLabel: 'W(R) z_i, R = 1…now', xlabel: proj.labels[0], ylabel: proj.labels[1],
    expectRefs: Object.keys(svms ?? {}),
  };
}

const fmt = (v, digits = 3) => (Number.isFinite(v) ? Number(v.toPrecision(digits)).toString() : '—');
export const fmtR = (R) => (R >= 100 ? Math.round(R).toString() : fmt(R, 3));

// The readout of the current radius in words (the figure's text alternative and the status line;
// short: the embed's compact panel).
export function describeRadius(paths, k, lpP, { short = false } = {}) {
  const parts = [];
  for (const ball of PATH_BALLS) {
    const s = pointSummary(paths?.[ball], k);
    if (!s) continue;
    const name = ball === 'lp' ? `l_${fmt(lpP, 3)}` : BALL_LABEL[ball];
    if (short) {
      parts.push(`${name}: 1 − corr ${fmt(s.oneMinusCorr, 2)}, rank ${s.rank}, gap ${fmt(s.relativeGap, 2)} (${s.certified ? 'certified' : 'not certified'})`);
      continue;
    }
    parts.push(`${name} ball: 1 − corr with its own SVM ${fmt(s.oneMinusCorr, 2)}, rank ${s.rank}, relative Frank-Wolfe gap ${fmt(s.relativeGap, 2)} (${s.certified ? 'certified' : 'not certified'})${s.lossResolved ? '' : ', loss no longer resolved in double precision'}`);
  }
  const R = PATH_RADII[k];
  return parts.length ? `At R = ${fmtR(R)}: ${parts.join('; ')}.` : `At R = ${fmtR(R)}: computing the path.`;
}
