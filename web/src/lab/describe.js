// The panels in words: what each one shows NOW, from the same view context as its drawing (views.js),
// for the figures' text alternatives (access/figure-access.js) in the lab and the embeds. Pure: no DOM.
//   describePanel(id, ctx) -> text ('' for a panel that is text already, the readout)
//   runSummary(ctx) -> one sentence for an announcement (a run paused or ended)
import { decidedSelection, unitsOf, refName, fmt, spectrumView } from './views.js';

const MAX_UNITS = 6;

function unitName(ctx, u) {
  const n = ctx.cfg.dataset.X.length, T = ctx.cfg.dataset.X[0].length;
  return unitsOf(ctx.cfg) === n ? `sequence ${u}` : `sequence ${Math.floor(u / T)} query ${u % T}`;
}

// "sequence 0 selects token 2 (softmax 0.97); sequence 1: no token selected yet; ..."
export function selectionText(ctx) {
  const last = ctx.trace.last();
  if (!last) return 'nothing computed yet';
  const sel = decidedSelection(last);
  const units = sel.length;
  const T = last.softmax ? last.softmax.length / units : 0;
  const parts = [];
  for (let u = 0; u < Math.min(units, MAX_UNITS); u++) {
    if (sel[u] === null) parts.push(`${unitName(ctx, u)}: no token selected yet`);
    else parts.push(`${unitName(ctx, u)} selects token ${sel[u]}${T ? ` (softmax ${fmt(last.softmax[u * T + sel[u]], 3)})` : ''}`);
  }
  if (units > MAX_UNITS) parts.push(`and ${units - MAX_UNITS} more`);
  return parts.join('; ');
}

const refWords = (r, ctx) => (r === 'head' ? 'the head v against the head SVM' : `the ${refName(r, ctx)} SVM direction`);

// "correlation with the Frobenius SVM direction 0.99312, with the nuclear SVM direction 0.951"
export function corrText(ctx) {
  const c = ctx.trace.correlations();
  const names = Object.keys(c).filter((r) => Number.isFinite(c[r]));
  if (!names.length) return 'no reference SVM direction to compare with yet';
  return `correlation with ${names.map((r) => `${refWords(r, ctx)} ${fmt(c[r], 5)}`).join(', with ')}`;
}

const when = (ctx) => `k = ${ctx.trace.iterationNow()} of ${ctx.cfg.iterations}`;
const listTokens = (arr) => arr.slice(0, MAX_UNITS).map((t, i) => `${i}: ${t}`).join(', ') + (arr.length > MAX_UNITS ? ', …' : '');

function planeText(ctx) {
  const ds = ctx.cfg.dataset;
  const n = ds.X.length, T = ds.X[0].length, d = ds.X[0][0].length;
  const view = d > 2 ? `, shown in ${ctx.projection?.labels?.[0]?.startsWith('PC') ? 'their top two principal directions' : 'two coordinates'}` : '';
  const opt = ctx.scores?.optimal && unitsOf(ctx.cfg) === n ? ` Optimal tokens (sequence: token) ${listTokens(ctx.scores.optimal)}.` : '';
  const sup = ctx.report && !ctx.report.error && ctx.report.supportTokens?.length === n
    ? ` Support tokens ${ctx.report.supportTokens.slice(0, MAX_UNITS).map((s, i) => `${i}: ${s.length ? s.join(' and ') : 'none'}`).join(', ')}.` : '';
  return `${n} sequences of ${T} tokens in ${d} dimensions${view}. At ${when(ctx)}: ${selectionText(ctx)}.${opt}${sup} ` +
    `The path of W(k) z_i turns toward the SVM arrow: ${corrText(ctx)}.`;
}

function normsText(ctx) {
  const s = ctx.trace.series();
  const k = s.iteration.length - 1;
  if (k < 0) return 'nothing computed yet';
  const p = ctx.cfg.model.param === 'prompt' ? 'p' : 'W';
  return `Over iterations 0 to ${s.iteration[k]}: ‖${p}‖_F ${fmt(s.normFro[0], 3)} → ${fmt(s.normFro[k], 4)}, ‖${p}‖_* ${fmt(s.normNuc[k], 4)}; ` +
    `the loss ${fmt(s.loss[0], 3)} → ${fmt(s.loss[k], 4)}.`;
}

function spectrumText(ctx) {
  const series = spectrumView(ctx, '#000').data.series;
  if (!series.length) return 'nothing computed yet';
  return `Singular values divided by the Frobenius norm, at ${when(ctx)}: ${series.map((s) =>
    `${s.label} ${s.values.slice(0, 5).map((v) => fmt(v, 2)).join(', ')}${s.values.length > 5 ? ', …' : ''}`).join('; ')}.`;
}

function weightsText(ctx) {
  const d = ctx.cfg.dataset.X[0][0].length;
  const refs = Object.entries(ctx.refs).filter(([, s]) => s.status === 'optimal').map(([r]) => refName(r, ctx));
  return `W(k)/‖W(k)‖ at ${when(ctx)} as a ${d} × ${d} colour grid${refs.length ? `, beside the ${refs.join(', ')} SVM solutions` : ''}; ${corrText(ctx)}.`;
}

const TEXT = {
  plane: planeText,
  softmax: (ctx) => `The softmax probability of every token over iterations 0 to ${ctx.trace.iterationNow()}, one band per sequence. Now: ${selectionText(ctx)}.`,
  current: (ctx) => `The softmax at ${when(ctx)}: ${selectionText(ctx)}.`,
  corr: (ctx) => `1 − corr on a log scale over iterations 0 to ${ctx.trace.iterationNow()}; 0 means the same direction as the SVM. Now: ${corrText(ctx)}.`,
  norms: normsText,
  spectrum: spectrumText,
  weights: weightsText,
  readout: () => '',
};

export function describePanel(id, ctx) {
  if (!ctx?.cfg) return 'Loading.';
  return TEXT[id]?.(ctx) ?? '';
}

export function runSummary(ctx, what) {
  if (!ctx?.cfg) return '';
  return `${what} at ${when(ctx)}: ${selectionText(ctx)}; ${corrText(ctx)}.`;
}
