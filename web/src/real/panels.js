// Drawing helpers of the "Real images" scenario shared by the lab and the embed: the series of the
// curves per run, the |W_jk| histograms (SVG bars), the W heatmaps' data, and the text of a
// selection's analysis. No engine calls here.
import { OKABE_ITO, themeColors } from '../plots/theme.js';
import { SVG_NS, svgAppender } from '../plots/svg.js';


export function runColor(run) {
  if (run.settings.optimizer === 'adam') return OKABE_ITO.purple;
  if (run.p < 1.5) return OKABE_ITO.vermillion;
  if (run.p <= 2.0001) return OKABE_ITO.blue;
  return OKABE_ITO.green;
}

// Curves of one measurement: per run, train (dashed) and/or test (solid).
export function curveSeries(session, which) {
  const out = [];
  for (const run of session.runs) {
    for (const split of which) out.push({ label: `${split} ${run.label}`, color: runColor(run), dash: split === 'train' ? [5, 4] : undefined });
  }
  return out;
}

// {x, ys, xmax} for createCurves: the runs share the x axis only when they are at the same
// iterations, so the longest series' iterations are the x and shorter runs are padded with null.
export function curveData(session, keys) {
  let longest = session.runs[0].series.iteration;
  for (const r of session.runs) if (r.series.iteration.length > longest.length) longest = r.series.iteration;
  const ys = [];
  for (const run of session.runs) {
    for (const key of keys) {
      const s = run.series[key];
      ys.push(Array.from({ length: longest.length }, (_, k) => (k < s.length ? s[k] : null)));
    }
  }
  return { x: longest, ys, xmax: session.settings.iters };
}

// Grouped bars: the histogram of |W_jk| / max |W_jk| (bins on [0, 1]) of each run, as the share of
// the d^2 entries in each bin. The axes, legend and bars are built once per layout (width, runs,
// bins); an update moves the bars and relabels the y axis, writing only attributes that changed
// (rebuilding the SVG several times a second cost 10-30 ms of style and layout per redraw).
export function createHistograms(container, { height = 170 } = {}) {
  const svg = document.createElementNS(SVG_NS, 'svg');
  container.append(svg);
  let width = container.clientWidth || 400, data = null, layoutKey = null, bars = [], yTicks = [];
  const m = { l: 40, r: 8, t: 8, b: 30 };
  const set = (e, k, v) => { const t = String(v); if (e.getAttribute(k) !== t) e.setAttribute(k, t); };
  const add = svgAppender(svg);
  function build(runs, bins, w, h) {
    const c = themeColors();
    svg.setAttribute('width', w); svg.setAttribute('height', h); svg.setAttribute('viewBox', `0 0 ${w} ${h}`);
    svg.replaceChildren();
    const iw = w - m.l - m.r, ih = h - m.t - m.b;
    const bw = iw / bins;
    yTicks = [0, 0.5, 1].map((f) => {
      const y = m.t + ih * (1 - f);
      add('line', { x1: m.l, x2: w - m.r, y1: y, y2: y, stroke: c.grid });
      return { f, text: add('text', { x: m.l - 4, y: y + 4, 'text-anchor': 'end', 'font-size': 10, fill: c.fg }, '') };
    });
    bars = runs.map((r, k) => Array.from({ length: bins }, (_, b) => add('rect', {
      x: m.l + b * bw + (k * bw * 0.85) / runs.length + bw * 0.075, y: m.t + ih, width: Math.max(1, (bw * 0.85) / runs.length - 0.5), height: 0, fill: r.color,
    })));
    // legend: one swatch per run, top right
    runs.forEach((r, k) => {
      const x = w - m.r - 70, y = m.t + 6 + 15 * k;
      add('rect', { x, y, width: 10, height: 10, fill: r.color });
      add('text', { x: x + 14, y: y + 9, 'font-size': 11, fill: c.fg }, r.label);
    });
    for (const f of [0, 0.25, 0.5, 0.75, 1]) add('text', { x: m.l + f * iw, y: h - 16, 'text-anchor': 'middle', 'font-size': 10, fill: c.fg }, String(f));
    add('text', { x: m.l + iw / 2, y: h - 3, 'text-anchor': 'middle', 'font-size': 11, fill: c.fg }, '|W_jk| / max |W_jk|');
    svg.setAttribute('aria-label', `Histogram of |W_jk| / max |W_jk| for ${runs.map((r) => r.label).join(', ')}`);
  }
  function draw() {
    if (!data) return;
    const w = Math.max(220, width), h = height;
    const runs = data.runs.filter((r) => r.histogram?.length);
    if (!runs.length) { svg.replaceChildren(); layoutKey = null; return; }
    const bins = runs[0].histogram.length;
    const key = [w, bins, themeColors().dark, ...runs.map((r) => `${r.label}|${r.color}`)].join(';');
    if (key !== layoutKey) { layoutKey = key; build(runs, bins, w, h); }
    const shares = runs.map((r) => { const tot = r.histogram.reduce((a, b) => a + b, 0) || 1; return Array.from(r.histogram, (v) => v / tot); });
    let ymax = 0.05;
    for (const s of shares) for (const v of s) ymax = Math.max(ymax, v);
    const ih = h - m.t - m.b;
    for (const { f, text } of yTicks) { const t = `${Math.round(100 * f * ymax)}%`; if (text.textContent !== t) text.textContent = t; }
    shares.forEach((s, k) => s.forEach((v, b) => {
      set(bars[k][b], 'y', (m.t + ih * (1 - v / ymax)).toFixed(2));
      set(bars[k][b], 'height', (ih * (v / ymax)).toFixed(2));
    }));
  }
  return {
    update(next) { data = next; draw(); },
    resize(w) { width = w ?? container.clientWidth; draw(); },
    svg: () => svg,
  };
}

// W / max |W_jk| of each run for createMatrices (18 x 18: 16 pixel coordinates, then row and column).
export function weightItems(session) {
  return session.runs.filter((r) => r.W).map((r) => {
    let mx = 0;
    for (const row of r.W) for (const v of row) mx = Math.max(mx, Math.abs(v));
    return { label: `W, ${r.label}`, M: r.W.map((row) => row.map((v) => (mx > 0 ? v / mx : 0))) };
  });
}

export const pct = (x) => (Number.isFinite(x) ? `${(100 * x).toFixed(1)}%` : '—');
export const num = (x, d = 3) => (Number.isFinite(x) ? (Math.abs(x) >= 1e4 || (Math.abs(x) < 1e-3 && x !== 0) ? x.toExponential(2) : x.toFixed(d)) : '—');

// What the page says about one run's final selection (SPEC section 4 on the first nSvm training
// images), and about the clicked image.
const VERDICTS = {
  globally_optimal: 'globally optimal (every image selects its highest-scoring patch)',
  locally_optimal: 'locally optimal (feasible, support patches score lower), not global',
  neither: 'neither globally nor locally optimal',
  infeasible: 'infeasible (no Att-SVM separates it)',
  boundary: 'on the boundary of feasibility (separable, if at all, by a margin below 1e-6)',
  undecided: 'undecided (the solver did not decide whether it is separable)',
};

export function analysisText(run) {
  const a = run.analysis;
  if (!a) return run.done ? 'Analysing the final selection…' : 'The SVM analysis runs when training ends.';
  if (a.error) return `The analysis failed: ${a.error}`;
  const q = run.settings.optimizer === 'adam' ? 2 : run.p;
  const svm = a.feasible
    ? `corr(W, W^mm_${q}) = ${num(a.corr, 4)}, D_${q} = ${num(a.divergence, 4)}`
    : `no l_${q} Att-SVM for this selection (${a.status})`;
  return `First ${a.nSvm} training images: the selection is ${VERDICTS[a.verdict] ?? String(a.verdict).replace(/_/g, ' ')}; ${svm}.`;
}

export function imageDetailText(d, run, names, classA) {
  const T = d.T, g = Math.round(Math.sqrt(T));
  let sel = 0, opt = 0;
  for (let t = 1; t < T; t++) {
    if (d.softmax[t] > d.softmax[sel]) sel = t;
    if (d.gamma[t] > d.gamma[opt]) opt = t;
  }
  const rc = (t) => `(${Math.floor(t / g)}, ${t % g})`;
  const predicted = d.output > 0 ? classA : run.settings.classB;
  return [
    `Test image ${d.index}: ${names[d.label]}; f = ${num(d.output)} → predicted ${names[predicted]} ${predicted === d.label ? '✓' : '✗'}.`,
    `Selected patch ${rc(sel)} with s = ${num(d.softmax[sel])}; optimal patch (argmax γ_t = Y v^T x_t) ${rc(opt)}` +
      (sel === opt ? ': the selection is optimal for this image.' : `: the selection is not the optimal patch (γ = ${num(d.gamma[sel])} vs ${num(d.gamma[opt])}).`),
  ];
}
