// Pure functions from the lab's run state to the data objects of the panels (web/src/plots) and
// their one-line subtitles. No DOM, no engine calls: the lab and any embed (issue 7) can render any
// subset of panels from the same "view context":
//   ctx = { cfg: { dataset, model, train, iterations }, trace: TraceStore, refs: { fro|nuclear|lp: Solution },
//           refSelection: number[] | null, report: SelectionReport | null, scores: { gamma, optimal } | null,
//           headSvm: Solution | null, projection: { axes, labels, note }, dataset?: override (dragging),
//           refList: string[], lpP: number, followSelection: bool }
import { fro, dot, matVec, transpose, singularValues, principalPlane } from './linalg.js';
import { REF_LABEL } from './scenarios.js';
import { unitsOf, PER_QUERY_ATTENTION } from './reference-requests.js';
import { usableSolution } from './reference-follower.js';
import { PANEL_SUBTITLES } from './layout.js';
import { REF_STYLE, OKABE_ITO } from '../plots/theme.js';

export const fmt = (v, digits = 4) => (Number.isFinite(v) ? Number(v.toPrecision(digits)).toString() : '—');
const sub = (k) => String(k).split('').map((ch) => '₀₁₂₃₄₅₆₇₈₉'[ch]).join('');

export { unitsOf, PER_QUERY_ATTENTION };

// The 2-D view of the tokens: the plane itself for d = 2; for prompts whose W_k keeps two
// coordinates, those (exact); else the top-2 principal directions of `base` (the generator's tokens,
// so that the view does not jump while tokens are dragged).
export function computeProjection(cfg, base) {
  const d = cfg.dataset.X[0][0].length;
  const e = (k) => Array.from({ length: d }, (_, j) => (j === k ? 1 : 0));
  if (d === 1) return { axes: [e(0), [0]], labels: ['x₁', '(d = 1: one coordinate)'], note: 'd = 1: tokens on a line.' };
  if (d === 2) return { axes: [e(0), e(1)], labels: ['x₁', 'x₂'], note: null };
  const Wk = cfg.model.param === 'prompt' ? cfg.model.Wk : null;
  if (Wk) {
    const diag = Wk.every((row, i) => row.every((v, j) => i === j || v === 0));
    const nz = Wk.map((row, i) => [row[i], i]).filter(([v]) => v !== 0);
    if (diag && nz.length === 2) {
      const [a, b] = nz.map(([, i]) => i);
      return { axes: [e(a), e(b)], labels: [`x${sub(a + 1)}`, `x${sub(b + 1)}`],
        note: `Plane of coordinates ${a + 1} and ${b + 1}: the only ones W_k passes to the scores, so the view is exact.` };
    }
  }
  const pc = principalPlane((base ?? cfg.dataset).X.flat());
  const pct = (f) => `${Math.round(f * 100)}%`;
  return { axes: pc.axes, labels: [`PC1 (${pct(pc.explained[0])} of variance)`, `PC2 (${pct(pc.explained[1])})`],
    note: `d = ${d}: a projection on the top-2 principal directions of the generator's tokens.` };
}

// The score direction of sequence i: scores a_it = x_it . u. W z_i (cross), W x_iq (self), W_k^T p (prompt).
export function scoreVector(cfg, W, i, ds = cfg.dataset) {
  const d = ds.X[0][0].length;
  if (cfg.model.param === 'prompt') {
    const p = W.map((r) => r[0]);
    return transpose(cfg.model.Wk).map((row) => dot(row, p));
  }
  const z = scoreInput(cfg, i, ds);
  if (!z || z.length !== d) return null;
  return matVec(W, z);
}

// The data sequence i's score vector reads: z_i (cross), x_iq (self), none for a prompt. (A drag
// replaces the moved token's array: lab/drag.js.)
const scoreInput = (cfg, i, ds) => (cfg.model.param === 'prompt' ? null
  : cfg.model.attention === 'cross' ? ds.Z?.[i] : ds.X[i][ds.query ?? 0]);

export function supportFromSolution(sol, n) {
  if (!sol || sol.status !== 'optimal') return null;
  const out = Array.from({ length: n }, () => []);
  for (const [i, t] of sol.support ?? []) if (out[i] && !out[i].includes(t)) out[i].push(t);
  return out;
}


// A playing frame's plane view recomputes only what changed: the parts below are kept per trace
// while their inputs are the same objects (the view context's parts are replaced, not changed in
// place, when a run restarts or the references are solved again). A dragged dataset (ctx.dataset:
// one object changed in place while dragging) is never a key: a part computed from it is kept by
// the parts of it that it reads (the paths: each unit's z_i), or not at all (the geometry).
const viewMemos = new WeakMap();   // trace -> { [part]: { keys, value } }
function memoFor(trace, part, keys, compute) {
  let m = viewMemos.get(trace);
  if (!m) viewMemos.set(trace, m = {});
  const e = m[part];
  if (e && e.keys.length === keys.length && e.keys.every((k, i) => k === keys[i])) return e.value;
  const value = compute();
  m[part] = { keys, value };
  return value;
}

// The token plane's geometry: the projection P onto the view plane, the projected tokens, the
// display radius (paths and arrows share it) and the units that get a path (one per sequence for
// cross/self attention, the one prompt, none where every position is a query).
function planeGeometry(ctx) {
  const { cfg } = ctx;
  const ds = ctx.dataset ?? cfg.dataset;
  const proj = ctx.projection;
  const compute = () => {
    const [e1, e2] = proj.axes;
    const P = (v) => [dot(v, e1), dot(v, e2)];
    const tokens = ds.X.map((seq) => seq.map(P));
    const n = ds.X.length;
    const prompt = cfg.model.param === 'prompt';
    const perUnit = cfg.model.attention === 'cross' || cfg.model.attention === 'self';
    const radius = 0.9 * Math.max(0.25, ...tokens.flat().map(([a, b]) => Math.hypot(a, b)));
    const units = prompt ? [0] : (perUnit ? [...Array(n).keys()] : []);
    const seqOf = (i) => (prompt ? -1 : i);
    return { cfg, ds, proj, P, tokens, n, prompt, perUnit, radius, units, seqOf };
  };
  return ds === cfg.dataset ? memoFor(ctx.trace, 'geometry', [cfg, ds, proj], compute) : compute();
}

// The path of each unit's score vector W(k) z_i over the snapshots (at most ~400 points a path),
// each divided by its own largest norm.
function planePaths(trace, g) {
  const { cfg, ds, proj, P, units, radius, seqOf } = g;
  const snaps = trace.snapshots;
  // per snapshot: its norm and the projected score vector of every unit (memoized: snapshots never
  // change; dropped when the configuration, the view or a unit's z_i changes: while a token is
  // dragged, only if it is a query of self attention)
  const c = memoFor(trace, 'paths', [cfg, proj, ...units.map((i) => scoreInput(cfg, i, ds))], () => ({ map: new WeakMap(), sums: null }));
  const cache = c.map;
  const info = (snap) => {
    let e = cache.get(snap);
    if (!e) {
      e = { q: units.map((i) => { const u = scoreVector(cfg, snap.W, i, ds); return u ? { p: P(u), n: Math.hypot(...u) } : null; }) };
      cache.set(snap, e);
    }
    return e;
  };
  // one factor per path: the largest ||W(k) z_i|| so far (the path's own scale), kept as the
  // snapshots come in (counted anew when the list is thinned: trace.js replaces it)
  let sums = c.sums;
  if (!sums || sums.snaps !== snaps || sums.counted > snaps.length || sums.units !== units) {
    sums = c.sums = { snaps, units, counted: 0, maxNorm: units.map(() => 0), radius: null, paths: null };
  }
  for (; sums.counted < snaps.length; sums.counted++) {
    const q = info(snaps[sums.counted]).q;
    units.forEach((_, k) => { const e = q[k]; if (e && e.n > sums.maxNorm[k]) sums.maxNorm[k] = e.n; });
    sums.paths = null;
  }
  if (sums.paths && sums.radius === radius && sums.seqOf === seqOf) return sums.paths;
  const stride = Math.max(1, Math.ceil(snaps.length / 400));
  const pick = [];
  for (let s = 0; s < snaps.length; s += stride) pick.push(snaps[s]);
  if (snaps.length && pick.at(-1) !== snaps.at(-1)) pick.push(snaps.at(-1));
  sums.radius = radius; sums.seqOf = seqOf;
  return sums.paths = units.map((i, k) => {
    let maxNorm = sums.maxNorm[k];
    if (!(maxNorm > 0) || !Number.isFinite(maxNorm)) maxNorm = Infinity;
    const points = [];
    for (const snap of pick) {
      const e = info(snap).q[k];
      if (!e) continue;
      const pt = [(e.p[0] / maxNorm) * radius, (e.p[1] / maxNorm) * radius];
      if (pt.every(Number.isFinite)) points.push(pt);
    }
    return { seq: seqOf(i), points };
  });
}

// Each usable reference's direction W^mm z_i per unit, at the display radius.
function planeArrows(refs, g) {
  const { cfg, ds, P, units, radius, seqOf } = g;
  const arrows = [];
  for (const [norm, sol] of Object.entries(refs)) {
    if (!usableSolution(sol)) continue;  // (reference-follower.js: the one test)
    for (const i of units) {
      const u = scoreVector(cfg, sol.W, i, ds);
      const nu = u ? Math.hypot(...u) : 0;
      if (!(nu > 0)) continue;
      const q = P(u);
      arrows.push({ seq: seqOf(i), ref: norm, to: [(q[0] / nu) * radius, (q[1] / nu) * radius] });
    }
  }
  return arrows;
}

// margin lines of the Frobenius SVM: {x : x.u = x_alpha.u - 1}, exact when u lies in the view plane
function marginLines(sol, refSelection, g) {
  const { cfg, ds, P, n, prompt, perUnit } = g;
  const lines = [];
  if (!(sol && sol.status === 'optimal' && refSelection && (perUnit || prompt))) return lines;
  for (let i = 0; i < n; i++) {
    const u = scoreVector(cfg, sol.W, prompt ? 0 : i, ds);
    if (!u || refSelection[i] === undefined) continue;
    const q = P(u);
    const inPlane = Math.abs(dot(u, u) - (q[0] * q[0] + q[1] * q[1])) <= 1e-9 * Math.max(1, dot(u, u));
    if (!inPlane || ds.X[0][0].length === 1) continue;
    lines.push({ seq: i, normal: q, offset: dot(ds.X[i][refSelection[i]], u) - 1 });
  }
  return lines;
}

function planeSubtitle(g) {
  const notes = ['Colours: sequences; shaded: support tokens of the Frobenius SVM.'];
  const d = g.ds.X[0][0].length;
  const proj2 = d > 2 ? ' Vectors out of the view plane fall short of the common length.' : '';
  if (g.prompt) notes.push(`Path: u(k) = W_kᵀp(k), k = 0…now, divided by max_k ‖u(k)‖ (shared by all sequences); arrow: W_kᵀp^mm, unit length.${proj2}`);
  else if (g.units.length) notes.push(`Paths: W(k) z_i, k = 0…now, each divided by its largest ‖W(k) z_i‖; arrows: W^mm z_i, unit length (both × one display factor).${proj2}`);
  else notes.push('Every position is a query here, so no per-sequence paths are drawn.');
  if (g.proj.note) notes.push(g.proj.note);
  return notes.join(' ');
}

export function planeView(ctx) {
  const { trace, refs, refSelection, report, scores } = ctx;
  const g = planeGeometry(ctx);
  const { tokens, n, prompt, proj } = g;
  const paths = planePaths(trace, g);
  // (kept while the geometry and the references are the same objects: a dragged dataset's
  // geometry is new on every call)
  const arrows = memoFor(trace, 'arrows', [g, ...Object.keys(refs), ...Object.values(refs)], () => planeArrows(refs, g));
  const lines = memoFor(trace, 'lines', [g, refs.fro, refSelection], () => marginLines(refs.fro, refSelection, g));
  const last = trace.last();
  const selected = last && last.selected.length === n ? decidedSelection(last) : null;
  const support = memoFor(trace, 'support', [report, refs.fro, n], () => supportPerSequence(report, refs.fro, n));
  const infeasible = Object.values(refs).find((s) => s.status === 'infeasible' || s.status === 'boundary');
  return {
    data: { tokens, selected, optimal: scores?.optimal ?? null, support, paths, arrows, lines, pathLabel: prompt ? 'u(k) path' : 'W(k) z_i paths',
      expectRefs: ctx.refList ?? null,
      xlabel: proj.labels[0], ylabel: proj.labels[1] },
    subtitle: memoFor(trace, 'subtitle', [g], () => planeSubtitle(g)),
    message: infeasible ? `${infeasible.status === 'boundary' ? 'On the boundary of feasibility' : 'Infeasible'}: ${infeasible.message}` : null,
  };
}

// The softmax argmax per unit, or null where the largest probabilities tie (e.g. W = 0: uniform).
export function decidedSelection(last) {
  const units = last.selected.length;
  const T = last.softmax ? last.softmax.length / units : 0;
  return Array.from(last.selected, (a, u) => {
    if (!T) return a;
    let second = -Infinity;
    for (let t = 0; t < T; t++) if (t !== a && last.softmax[u * T + t] > second) second = last.softmax[u * T + t];
    return last.softmax[u * T + a] - second > 1e-9 ? a : null;
  });
}

function unitMeta(cfg) {
  const units = unitsOf(cfg);
  const n = cfg.dataset.X.length, T = cfg.dataset.X[0].length;
  const seq2 = units !== n;
  return {
    units, n, T, seq2,
    unitSeq: Array.from({ length: units }, (_, u) => (seq2 ? Math.floor(u / T) : u)),
    unitLabel: Array.from({ length: units }, (_, u) => (seq2 ? `${Math.floor(u / T)}·q${u % T}` : `seq ${u}`)),
  };
}

export function softmaxView(ctx) {
  const { units, T, unitSeq, unitLabel } = unitMeta(ctx.cfg);
  const sm = ctx.trace.softmaxSeries();
  return {
    data: { iterations: sm.iterations, T, units, unitSeq, unitLabel, values: sm.values, xmax: ctx.cfg.iterations, source: ctx.trace },
    subtitle: PANEL_SUBTITLES.softmax,
  };
}

export function currentSoftmaxView(ctx) {
  const { units, T, seq2, unitSeq, unitLabel } = unitMeta(ctx.cfg);
  const last = ctx.trace.last();
  if (!last || !last.softmax) return null;
  const M = Array.from({ length: units }, (_, u) => Array.from(last.softmax.subarray(u * T, (u + 1) * T)));
  const marks = [];
  const sel = decidedSelection(last);
  for (let u = 0; u < units; u++) {
    if (sel[u] !== null) marks.push({ r: u, c: sel[u], kind: 'selected' });
    if (!seq2 && ctx.scores?.optimal) marks.push({ r: u, c: ctx.scores.optimal[u], kind: 'optimal' });
  }
  const colNames = Array.from({ length: T }, (_, t) => `t=${t}`);
  if (seq2) {
    // a query per token: each sequence's T x T block a small matrix of its own, side by side (as
    // many a row as fit: plots/heatmaps.js; their space reserved by lab.css and figure.css)
    const n = units / T;
    const items = Array.from({ length: n }, (_, i) => ({
      label: `seq ${i}`, M: M.slice(i * T, (i + 1) * T),
      marks: marks.filter((m) => Math.floor(m.r / T) === i).map((m) => ({ ...m, r: m.r % T })),
    }));
    return {
      // (the rows are queries, not sequences: no sequence colour; the columns numbered, "t=" in the subtitle)
      data: { items, scheme: 'seq', domain: [0, 1], showValues: true, rowNames: colNames.map((_, q) => `q${q}`), rowSeq: false,
        colNames: colNames.map((_, t) => String(t)), colorLabel: 's_it' },
      subtitle: PANEL_SUBTITLES.currentPerQuery,
    };
  }
  return {
    data: { items: [{ label: `k = ${last.iteration}`, M, marks }], scheme: 'seq', domain: [0, 1], showValues: true,
      rowNames: unitLabel, rowSeq: unitSeq, colNames, colorLabel: 's_it' },
    subtitle: seq2 ? PANEL_SUBTITLES.currentPerQuery : PANEL_SUBTITLES.current,
  };
}

const dashArray = (d) => (d ? d.split(' ').map(Number) : undefined);
// A prompt's reference is the prompt SVM's p^mm (SPEC section 3), not a matrix W^mm.
// Under joint training it is the relaxed prompt SVM's.
const promptRefName = (relaxed) => `${relaxed ? 'relaxed prompt' : 'prompt'} SVM p^mm`;
// The reference's name in texts ("Now: ... corr = ..."), for the lab and the embeds.
export const refName = (r, ctx) => (ctx.cfg.model.param === 'prompt' && r === 'fro' ? promptRefName(!!ctx.headSvm) : REF_LABEL[r]);
// The reference's legend entry (solution drawn with its dash), for the lab and the embeds.
export const refLegendLabel = (r, ctx) => (ctx.cfg.model.param === 'prompt' && r === 'fro' ? promptRefName(!!ctx.headSvm) : REF_STYLE[r].label);

export function corrView(ctx) {
  const { trace, refSelection } = ctx;
  const cs = trace.corrSeries();
  const names = Object.keys(cs.series);   // the W references, then 'head' under joint training
  const cNow = trace.correlations();
  const prompt = ctx.cfg.model.param === 'prompt';
  // The mirror-descent paper's Bregman divergence D_p(ref, W(k)) next to 1 - corr (dotted, same
  // colour), for the W references (the head's is in the divergence series but not drawn).
  const ds = trace.divergenceSeries?.() ?? { series: {}, p: 2 };
  const divNames = names.filter((r) => r !== 'head' && ds.series[r]);
  const dNow = Object.fromEntries(divNames.map((r) => [r, ds.series[r].at(-1) ?? null]));
  return {
    series: [...names.map((r) => ({ label: r === 'head' ? REF_STYLE.head.label : `vs ${refLegendLabel(r, ctx)}`, color: REF_STYLE[r].color, dash: dashArray(REF_STYLE[r].dash) })),
      ...divNames.map((r) => ({ label: `D_${fmt(ds.p, 3)} vs ${refLegendLabel(r, ctx)}`, color: REF_STYLE[r].color, dash: [1, 3] }))],
    key: [...names, ...divNames.map((r) => `D:${r}`), ds.p].join(','),
    data: { x: cs.x, ys: [...names.map((r) => cs.series[r].map((c) => (c === null ? null : Math.max(1e-16, 1 - c)))),
      ...divNames.map((r) => ds.series[r].map((d) => (d === null ? null : Math.max(1e-16, d))))], xmax: ctx.cfg.iterations },
    subtitle: names.length
      ? `Log scale; 0 means ${prompt ? 'p(k)' : 'W(k)'} points exactly along the SVM direction. Dotted: the Bregman divergence D_p of the l_p-normalized directions (p = ${fmt(ds.p, 3)}). Now: ${names.map((r) => `${refName(r, ctx)} corr = ${fmt(cNow[r], 5)}${dNow[r] != null ? `, D = ${fmt(dNow[r], 3)}` : ''}`).join(', ')}.` +
        (refSelection ? ` SVMs of the selection (${refSelection.join(', ')})${ctx.followSelection ? ', followed as the run decides' : ''}.` : '') +
        (names.includes('head') ? ' Orange (joint training): 1 − corr(v(k), v^mm), the head against the head SVM of the selected tokens.' : '')
      : 'No reference SVM (none selected, or infeasible).',
  };
}

export const NORM_SERIES = [
  { label: '‖W‖_F', color: OKABE_ITO.blue },
  { label: '‖W‖_*', color: OKABE_ITO.vermillion, dash: [2, 3] },
  { label: '‖W‖_p', color: OKABE_ITO.green, dash: [8, 3, 2, 3] },
];
const HEAD_NORM_SERIES = { label: '‖v‖ (head)', color: OKABE_ITO.orange };

// ||v(k)|| is known at the snapshots (one per received chunk); between two it is interpolated
// linearly onto the trace's iterations, so that all curves share one x array (uPlot).
function headNormOnTrace(iterations, hn) {
  const out = new Float64Array(iterations.length).fill(NaN);
  let s = 0;
  for (let f = 0; f < iterations.length; f++) {
    const it = iterations[f];
    while (s + 1 < hn.x.length && hn.x[s + 1] <= it) s++;
    if (hn.x[s] > it || hn.y[s] == null) continue;
    if (hn.x[s] === it || s + 1 >= hn.x.length) { if (hn.x[s] === it) out[f] = hn.y[s]; continue; }
    const t = (it - hn.x[s]) / (hn.x[s + 1] - hn.x[s]);
    out[f] = hn.y[s] + t * ((hn.y[s + 1] ?? hn.y[s]) - hn.y[s]);
  }
  return out;
}

export function normsView(ctx) {
  const tr = ctx.trace.series();
  const hn = ctx.trace.headNorms?.() ?? null;
  const ys = [tr.normFro, tr.normNuc, tr.normLp];
  if (hn) ys.push(headNormOnTrace(tr.iteration, hn));
  const prompt = ctx.cfg.model.param === 'prompt';
  const base = prompt ? NORM_SERIES.map((s) => ({ ...s, label: s.label.replace('W', 'p') })) : NORM_SERIES;
  return {
    series: hn ? [...base, HEAD_NORM_SERIES] : base,
    key: `${prompt ? 'p' : 'W'}${hn ? '+head' : ''}`,
    norms: { x: tr.iteration, ys, xmax: ctx.cfg.iterations },
    loss: { x: tr.iteration, ys: [tr.loss], xmax: ctx.cfg.iterations },
    subtitle: `‖${prompt ? 'p' : 'W'}(k)‖ grows without bound (the direction is what converges); p = ${fmt(ctx.cfg.train.traceP, 3)} for ‖·‖_p.` +
      `${hn ? ' Joint training: the head norm ‖v(k)‖ grows too (orange).' : ''} The loss decreases toward its infimum.`,
  };
}

const normalized = (W) => { const f = fro(W); return f > 0 && Number.isFinite(f) ? W.map((r) => r.map((x) => x / f)) : null; };

export function spectrumView(ctx, fg) {
  const Wk = ctx.trace.currentWeights();
  const Wn = Wk ? normalized(Wk) : null;
  const series = [];
  if (Wn) series.push({ label: 'W(k)', color: fg, values: singularValues(Wn), width: 1.5 });
  for (const r of ['fro', 'nuclear', 'lp', 'gen']) {
    const s = ctx.refs[r];
    if (!s || s.status !== 'optimal') continue;
    const n = normalized(s.W);
    if (n) series.push({ label: refLegendLabel(r, ctx), color: REF_STYLE[r].color, dash: REF_STYLE[r].dash, values: singularValues(n), hollow: true });
  }
  return {
    data: { series },
    subtitle: ctx.cfg.model.param === 'prompt' ? 'A prompt is a vector: its "spectrum" is one value (1 after normalization).'
      : 'Singular values after dividing by the Frobenius norm. The nuclear solution (the (K,Q) limit) has few non-zero values: low rank.',
  };
}

export function weightsView(ctx) {
  const Wk = ctx.trace.currentWeights();
  const Wn = Wk ? normalized(Wk) : null;
  const items = [];
  if (Wn) items.push({ label: `W(k), k = ${ctx.trace.iterationNow()}`, M: Wn });
  for (const r of ['fro', 'nuclear', 'lp', 'gen']) {
    const s = ctx.refs[r];
    if (!s || s.status !== 'optimal') continue;
    const n = normalized(s.W);
    if (n) items.push({ label: { fro: 'Frobenius', nuclear: 'nuclear', lp: `l_p, p = ${fmt(ctx.lpP, 3)}`, gen: 'generalized' }[r], M: n });
  }
  const prompt = ctx.cfg.model.param === 'prompt';
  return {
    data: { items, scheme: 'div', colorLabel: 'W/‖W‖_F' },
    subtitle: `${prompt ? 'p(k) and p^mm as columns' : 'W(k) and the SVM solutions W^mm (d × d)'}, each divided by its Frobenius norm, on one diverging scale (purple > 0, orange < 0). Under l_p mirror descent with small p, W(k) and W^mm_p share their sparsity.`,
  };
}

// The verdict of SPEC section 4 from the engine's analysis (report): cross and self attention,
// sequence-to-sequence and causal attention per (sequence, query) unit, and prompts (the prompt
// SVM). None for ReLU heads and joint training, where the token scores are not the linear ones.
export function verdictOf(ctx) {
  const { report, cfg } = ctx;
  if (cfg.model.head === 'relu') {
    return { label: 'Nonlinear head', kind: 'none',
      explanation: 'optimal tokens and local optimality are defined through the linear token scores γ = Y v·x; with the ReLU head the limit can keep a set of tokens per sequence (see the generalized SVM below).' };
  }
  if (cfg.train.trainHead) {
    return { label: 'Joint training', kind: 'none',
      explanation: 'the head v trains too, so the token scores γ = Y v·x move with it; p tends to the (relaxed) prompt SVM of the selection and v to the head SVM of the selected tokens.' };
  }
  if (report && !report.error) {
    const labels = { globally_optimal: 'Globally optimal selection', locally_optimal: 'Locally optimal selection', neither: 'Neither globally nor locally optimal', infeasible: 'Infeasible selection',
      boundary: 'On the boundary of feasibility', undecided: 'Undecided' };
    const kind = { globally_optimal: 'global', locally_optimal: 'local', neither: 'neither', infeasible: 'infeasible', boundary: 'neither', undecided: 'none' }[report.verdict];
    return { label: labels[report.verdict] ?? report.verdict, kind, explanation: report.explanation };
  }
  if (report?.error) return { label: 'No verdict', kind: 'none', explanation: report.error };
  if (cfg.model.param !== 'prompt' && (cfg.model.attention === 'seq2seq' || cfg.model.attention === 'causal')) {
    return { label: 'No verdict yet', kind: 'none', explanation: 'every (sequence, query) unit selects its own token; the verdict follows once each unit has decided (its selected token has softmax probability ≥ 0.5).' };
  }
  return null;
}

// Support tokens per sequence (the plane): the analysis' support tokens, merged over the queries of
// a sequence for sequence-to-sequence / causal attention, else those of the Frobenius solution.
function supportPerSequence(report, sol, n) {
  const st = report && !report.error ? report.supportTokens : null;
  if (st && st.length === n) return st;
  if (st && st.length % n === 0) {
    const T = st.length / n;
    return Array.from({ length: n }, (_, i) => [...new Set(st.slice(i * T, (i + 1) * T).flat())].sort((a, b) => a - b));
  }
  return supportFromSolution(sol, n);
}

export function readoutView(ctx) {
  const { refs, headSvm, cfg, trace, refSelection, report, scores } = ctx;
  const prompt = cfg.model.param === 'prompt';
  const name = (k) => (prompt ? `${headSvm ? 'relaxed prompt' : 'prompt'} p^mm${k === 'lp' ? '' : ' (l2)'}` : REF_LABEL[k]);
  const rows = Object.entries(refs).map(([k, s]) => ({ label: name(k) + (k === 'lp' ? (prompt ? ` (l_p, p = ${fmt(ctx.lpP, 3)})` : ` (p = ${fmt(ctx.lpP, 3)})`) : ''), ...s }));
  if (headSvm) rows.push({ label: 'head v^mm', ...headSvm });
  const n = cfg.dataset.X.length;
  const last = trace.last();
  const meta = unitMeta(cfg);
  return {
    data: {
      certTitle: prompt ? `${headSvm ? 'Relaxed prompt' : 'Prompt'} SVM certificates` : meta.seq2 ? `${cfg.model.attention === 'causal' ? 'Causal' : 'Sequence-to-sequence'} SVM certificates` : 'Att-SVM certificates',
      rows, verdict: verdictOf(ctx), optimal: (report && !report.error ? report.optimal : null) ?? (meta.seq2 ? null : scores?.optimal),
      selection: refSelection ?? (last ? Array.from(last.selected) : []),
      support: report && !report.error ? report.supportTokens : (meta.seq2 ? null : supportFromSolution(refs.fro, n)),
      ...(meta.seq2 ? { unitLabel: meta.unitLabel, unitSeq: meta.unitSeq } : {}),
      selectionLabel: refSelection ? `the selection (${refSelection.join(', ')})` : null,
      note: cfg.model.head !== 'relu' ? null : refs.gen
        ? `ReLU head: generalized SVM of the kept tokens O_i = ${refs.gen.sets.map((o) => `{${o.join(', ')}}`).join(' ')} (softmax > 1e-3); prediction W_fin + R W_dir with R = ${fmt(refs.gen.radius, 4)}. The row "generalized" certifies W_dir.`
        : 'ReLU head: several tokens can keep weight; the one-token SVM above is only a partial reference. The generalized SVM is solved when the run pauses or ends.',
    },
  };
}
