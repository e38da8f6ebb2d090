// The hierarchy's figure drawn at a snapshot (issue 40, SPEC 5.3 "Two layers"): one seed of
// `attnsvm experiment hierarchy` (its aggregate, experiments/aggregate.js) -> the numbers a reader
// is shown, and the two layers' curves plus the readout drawn up to snapshot m. Shared by the lab's
// view (hierarchy-view.js, stepped by the lab's player) and the embed's figure
// (embed/hierarchy-figure.js), so both draw the same numbers the same way. No engine calls here.
//
// hierarchyNumbers(aggregate) -> numbers; createHierarchyCharts(bodyOf(id) -> element|null,
//   { height, label, captionShown }) -> { draw(numbers, m), svg(id), resize(), ids }; snapshotText(numbers, m) -> sentence
import { createCurves } from '../plots/curves-svg.js';
import { OKABE_ITO } from '../plots/theme.js';

export const HIER_DEFAULT_ITERS = 2000;  // kHierarchyIters (experiment_hierarchy.hpp)
export const HIER_MIN_ITERS = 40;        // kHierarchySnapshots: a snapshot every iters / 40 steps

export const HIER_SERIES = {
  layer1: [
    { key: 'softmax1', label: 'selected softmax (mean over units)', color: OKABE_ITO.blue },
    { key: 'corrW1Attended', label: 'corr(W1, SAtt-SVM), attended units', color: OKABE_ITO.vermillion },
    { key: 'corrW1All', label: 'corr(W1, SAtt-SVM), all units', color: OKABE_ITO.vermillion, dash: [5, 3] },
  ],
  layer2: [
    { key: 'softmax2Set', label: 'softmax mass on the set O_i', color: OKABE_ITO.blue },
    { key: 'softmax2', label: 'largest softmax', color: OKABE_ITO.blue, dash: [5, 3] },
    { key: 'corrW2', label: 'corr(W2, Att-SVM of O_i)', color: OKABE_ITO.vermillion },
  ],
};
export const LAYER_NAME = { layer1: 'Layer 1', layer2: 'Layer 2' };

export const fmt = (v, digits = 3) => (Number.isFinite(v) ? Number(v).toFixed(digits) : '—');
const finite = (a) => Array.from(a, (v) => (Number.isFinite(v) ? v : null));

// The numbers drawn from one seed's aggregate: per layer its series, and the finals.
export function hierarchyNumbers(r) {
  const at = (name) => r.values[name]?.[0];
  const label = (name) => r.labels[name]?.[0] ?? '—';
  return {
    seed: r.seeds[0], iters: r.iters ?? r.iteration.at(-1), iteration: Array.from(r.iteration),
    series: Object.fromEntries(Object.values(HIER_SERIES).flat().map((s) => [s.key, Array.from(r.series[s.key].mean)])),
    finals: {
      softmax1: at('softmax1'), corrW1Attended: at('corrW1Attended'), corrW1All: at('corrW1All'),
      softmax2: at('softmax2'), softmax2Set: at('softmax2Set'), corrW2: at('corrW2'),
      holds: at('holds'), accuracy: at('accuracy'), layer1Optimal: at('layer1Optimal'), layer2Optimal: at('layer2Optimal'),
      layer1AttendedOptimal: at('layer1AttendedOptimal'),
    },
    certified: { w2: at('certifiedW2'), w1All: at('certifiedW1All'), w1Attended: at('certifiedW1Attended') },
    status: { w2: label('statusW2'), w2OneToken: label('statusW2OneToken'), w1All: label('statusW1All'), w1Attended: label('statusW1Attended') },
    verdict2: label('verdict2'), stopReason: label('stopReason'),
    selections: { layer1: r.selections.layer1?.[0] ?? [], layer2: r.selections.layer2?.[0] ?? [] },
  };
}

const lastIndex = (h) => h.iteration.length - 1;
const clampIndex = (h, m) => Math.max(0, Math.min(lastIndex(h), m));

// A snapshot's values of one layer, in words.
function layerAt(h, id, m) {
  return HIER_SERIES[id].map((s) => `${s.label} ${fmt(h.series[s.key][m], 4)}`).join(', ');
}

// Where the figure is, in one sentence (the player's text for keyboard and screen-reader users).
export function snapshotText(h, m) {
  m = clampIndex(h, m);
  return `Snapshot ${m + 1} of ${h.iteration.length}, k = ${h.iteration[m]} of ${h.iters}: ` +
    `layer 1 ${layerAt(h, 'layer1', m)}; layer 2 ${layerAt(h, 'layer2', m)}.`;
}

// The readout: at the last snapshot the run's finals and certificates; before it the snapshot's
// values. Both tables are written, stacked in one grid cell, the one not shown kept invisible
// (and hidden from screen readers): the finals' table sets the readout's height from the first
// snapshot on, so it does not grow at the end (no layout shift while the player walks).
export function readoutHtml(h, m = lastIndex(h), { captionShown = false } = {}) {
  m = clampIndex(h, m);
  const f = h.finals, cert = (c) => (c === 1 ? 'certified' : 'not certified');
  const atEnd = m === lastIndex(h);
  const finals = [
    ['Layer 1 (W1)', `selected softmax ${fmt(f.softmax1)}; corr with the SAtt-SVM ${fmt(f.corrW1Attended, 4)} over the attended units (${h.status.w1Attended}, ${cert(h.certified.w1Attended)}), ${fmt(f.corrW1All, 4)} over all units (${h.status.w1All}, ${cert(h.certified.w1All)})`],
    ['Layer 2 (W2)', `mass on O_i ${fmt(f.softmax2Set)}, largest softmax ${fmt(f.softmax2)}; corr with the Att-SVM of O_i ${fmt(f.corrW2, 4)} (${h.status.w2}, ${cert(h.certified.w2)}); one-token Att-SVM: ${h.status.w2OneToken}`],
    ['Picture holds', `${f.holds === 1 ? 'yes' : 'no'}: both layers' corr >= 0.99 with certified SVMs at the end`],
    ['Selections', `layer 2's largest attention per sequence on row ${h.selections.layer2.join(', ')} of H_i (its one-token verdict: ${h.verdict2.replace(/_/g, ' ')})`],
    ['Optimal tokens', `layer 1: ${fmt(100 * f.layer1Optimal, 0)} % of the units, ${fmt(100 * f.layer1AttendedOptimal, 0)} % of the attended ones; layer 2: ${fmt(100 * f.layer2Optimal, 0)} % of the sequences`],
    ['Training', `accuracy ${fmt(f.accuracy, 2)}; ${h.stopReason && h.stopReason !== '—' ? `stopped early: ${h.stopReason}` : 'ran its full budget'}`],
  ];
  const snapshot = [
    ['Layer 1 (W1)', layerAt(h, 'layer1', m)],
    ['Layer 2 (W2)', layerAt(h, 'layer2', m)],
    ['At the end', `k = ${h.iters}: the final selections, certificates and verdict (step or play on)`],
  ];
  const table = (rows, caption, shown) => `<table class="hier-readout"${shown ? '' : ' aria-hidden="true" style="visibility:hidden"'}>` +
    `<caption${captionShown ? '' : ' class="sr-only"'}>${caption}</caption>${rows.map(([k, v]) => `<tr><th scope="row">${k}</th><td>${v}</td></tr>`).join('')}</table>`;
  return `<div class="hier-readout-stack">${table(finals, `Seed ${h.seed} after ${h.iters} NGD steps`, atEnd)}` +
    `${atEnd ? '' : table(snapshot, `Seed ${h.seed} at k = ${h.iteration[m]} (snapshot ${m + 1} of ${h.iteration.length})`, true)}</div>`;
}

// The two layers' charts (each body given by bodyOf, or skipped) and the readout's element.
// label: the bodies get role="img" and a text of what they show (the lab); the embed's figures
// register theirs with access/figure-access.js instead. captionShown: the readout's caption (the
// seed and the snapshot shown) visible, else for screen readers only.
export function createHierarchyCharts(bodyOf, { height = 240, label = true, captionShown = !label } = {}) {
  const charts = {};
  for (const id of ['layer1', 'layer2']) {
    const body = bodyOf(id);
    if (!body) continue;
    charts[id] = createCurves(body, {
      xlabel: 'iteration k', y: { label: 'softmax, corr', log: false }, height,
      series: HIER_SERIES[id].map(({ label, color, dash }) => ({ label, color, dash })),
    });
  }
  const readout = bodyOf('readout');
  return {
    // numbers up to snapshot m (default: all of them)
    draw(h, m = lastIndex(h)) {
      m = clampIndex(h, m);
      for (const [id, chart] of Object.entries(charts)) {
        chart.update({ x: h.iteration.slice(0, m + 1), ys: HIER_SERIES[id].map((s) => finite(h.series[s.key].slice(0, m + 1))), xmax: h.iters });
        if (!label) continue;
        const body = bodyOf(id);
        body.setAttribute('role', 'img');
        body.setAttribute('aria-label', `${LAYER_NAME[id]} over ${h.iters} iterations; at k = ${h.iteration[m]}: ${layerAt(h, id, m)}.`);
      }
      if (readout) readout.innerHTML = readoutHtml(h, m, { captionShown });
    },
    svg: (id) => charts[id]?.svg() ?? null,
    resize() { for (const c of Object.values(charts)) c.resize(); },
    ids: Object.keys(charts),
  };
}
