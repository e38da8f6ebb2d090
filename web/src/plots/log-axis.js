// The log axes of the uPlot charts (the lab's curves, curves.js; the experiments' bands,
// web/src/experiments/bands.js): which splits get a grid line, a tick and a label, and the labels
// themselves. A log axis has only positive splits, and its labels are written here, not by uPlot's
// number format, which rounds to three decimals: 1e-4 printed as "0", a tick "0" on an axis that
// cannot reach 0 (docs/figures/experiment-md-convergence.png before issue 43).
import { mantissa } from './linechart.js';

export const isDecade = (v) => v != null && v > 0 && Math.abs(Math.log10(v) - Math.round(Math.log10(v))) < 1e-6;

// Pixels per decade along the axis (axisIdx: which of u.axes; a horizontal one spans the plot's
// width, a vertical one its height).
function decadePx(u, splits, axisIdx) {
  const vals = splits.filter((v) => v != null && v > 0);
  if (vals.length < 2) return Infinity;
  const decades = Math.log10(Math.max(...vals) / Math.min(...vals));
  const side = u.axes?.[axisIdx]?.side;
  const px = (side === 0 || side === 2 ? u.bbox.width : u.bbox.height) / devicePixelRatio;
  return decades > 0 ? px / decades : Infinity;
}

// Which of a log axis's splits get a grid line: the decades; the 2 and 5 too while a decade is
// tall enough (>= 60 px) for them not to crowd. logTicks: a tick at every split while a decade has
// room for them (>= 30 px), else at the decades only.
export function logGrid(u, splits, axisIdx) {
  const px = decadePx(u, splits, axisIdx);
  return splits.map((v) => {
    if (v == null || isDecade(v)) return v;
    const m = mantissa(v);
    return px >= 60 && (m === 2 || m === 5) ? v : null;
  });
}
export function logTicks(u, splits, axisIdx) {
  return decadePx(u, splits, axisIdx) >= 30 ? splits : splits.map((v) => (isDecade(v) ? v : null));
}

// A log axis's labels: the decades; on an axis with fewer than two decades in view (a loss from 0.69
// to 0.4: only "1" was labelled, its numbers unreadable) also the 2s and 5s the grid draws (logGrid),
// or the 5s alone where a decade is short. Never a "0" (a split <= 0 gets no label).
export function logLabels(u, splits, axisIdx) {
  const decades = splits.filter(isDecade).length;
  const px = decadePx(u, splits, axisIdx);
  return splits.map((v) => {
    if (v == null || !(v > 0)) return '';
    if (isDecade(v)) return fmtLog(v);
    if (decades >= 2) return '';
    const m = mantissa(v);
    return (px >= 60 && m === 2) || (px >= 30 && m === 5) ? fmtLog(v) : '';
  });
}

// 0.01 .. 1000 as decimals, else "5e-4": every label of a positive split is positive.
export function fmtLog(v) {
  const e = Math.floor(Math.log10(v) + 1e-9);
  if (e >= -2 && e <= 3) return String(Number(v.toPrecision(1)));
  return `${mantissa(v)}e${e}`;
}

// The range of a log scale over the positive finite values of `arrays` (null when there is none):
// uPlot's own rounding (rangeLog, not to whole decades: 0.0034 -> 0.003), passed in explicitly so
// that the caller knows the lowest value the axis shows (bands.js draws a band edge <= 0 there).
export function positiveRange(arrays, rangeLog) {
  let lo = Infinity, hi = -Infinity;
  for (const a of arrays) {
    for (const v of a) {
      if (v != null && v > 0 && v < Infinity) { if (v < lo) lo = v; if (v > hi) hi = v; }
    }
  }
  return lo <= hi ? rangeLog(lo, hi, 10, false) : null;
}
