// "Run the full experiment": a panel that runs one of the seeded experiments at the papers' full
// settings across the worker pool (runner.js), with progress, ETA and cancel, then plots mean ± std
// bands over iterations (bands.js) and tabulates the final per-seed values (mean ± std over seeds).
// Also the basin map (beyond the papers) on the same pool, drawn by basin.js, and the rank
// experiment (a grid of cells, rank.js / rankview.js: "seeds" is then the feasible instances per cell).
// Test hook: window.__attnsvmExperiment {run(spec), basin(spec), cancel(), state()}.
import { EXPERIMENTS } from './catalog.js';
import { runExperiment, runBasinMap, Cancelled, warmPool } from './runner.js';
import { drawBasinMap } from './basin.js';
import { drawBands } from './bands.js';
import { runRank } from './rank.js';
import { drawRank } from './rankview.js';
import './panel.css';

const el = (tag, props = {}, ...children) => {
  const e = Object.assign(document.createElement(tag), props);
  e.append(...children);
  return e;
};

const fmt = (x) => (Number.isFinite(x) ? (Math.abs(x) >= 1e-3 && Math.abs(x) < 1e4 ? x.toFixed(4) : x.toExponential(3)) : '–');
const fmtMs = (ms) => (Number.isFinite(ms) ? (ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`) : '…');

export function mountExperimentPanel(container, options = {}) {
  if (!container) return null;
  const select = el('select', { id: 'exp-name' }, ...Object.keys(EXPERIMENTS).map((n) => el('option', { value: n, textContent: n })));
  const seedsIn = el('input', { id: 'exp-seeds', type: 'number', min: 1, max: 100000, step: 1 });
  const itersIn = el('input', { id: 'exp-iters', type: 'number', min: 1, max: 100000, step: 1 });
  const runBtn = el('button', { id: 'exp-run', type: 'button', textContent: 'Run the full experiment' });
  const cancelBtn = el('button', { id: 'exp-cancel', type: 'button', textContent: 'Cancel', disabled: true });
  const bar = el('progress', { id: 'exp-progress', max: 1, value: 0 });
  const status = el('span', { id: 'exp-status', className: 'exp-status' });
  const title = el('p', { className: 'exp-title' });
  const plots = el('div', { className: 'exp-plots' });
  const table = el('div', { className: 'exp-table' });
  const gridIn = el('input', { id: 'exp-grid', type: 'number', min: 2, max: 2000, step: 1, value: 200 });
  const basinBtn = el('button', { id: 'exp-basin', type: 'button', textContent: 'Basin map' });
  const basinBox = el('div', { className: 'exp-basin' });
  const details = el('details', { className: 'exp-panel', open: !!options.open },
    el('summary', { textContent: 'Full experiments (all seeds, in the browser)' }),
    el('div', { className: 'exp-controls' },
      el('label', {}, 'experiment ', select), el('label', {}, ' seeds ', seedsIn), el('label', {}, ' iterations ', itersIn),
      runBtn, el('label', {}, ' grid ', gridIn), basinBtn, cancelBtn, bar, status),
    title, plots, table, basinBox);
  container.append(details);

  const syncDefaults = () => {
    const e = EXPERIMENTS[select.value];
    seedsIn.value = e.seeds;
    itersIn.value = e.iters ?? '';
    itersIn.disabled = e.iters == null; // rank: no training
    seedsIn.disabled = e.kind === 'single'; // one deterministic run set
    title.textContent = e.title;
  };
  select.addEventListener('change', syncDefaults);
  syncDefaults();

  const state = { running: false, progress: 0, done: 0, total: 0, etaMs: NaN, result: null, error: null, cancelled: false };
  let controller = null;

  // Titles of the plotted metrics (the core's series names), as the papers label their panels.
  const METRIC_TITLES = {
    softmax: 'softmax probability of the selected token',
    corr_fro: 'corr(W(k), W^mm): Frobenius SVM of the final selection',
    corr_nuclear: 'corr(W(k), W^mm_*): nuclear-norm SVM of the final selection',
    corr_lp: 'corr(W(k), W^mm_p): ℓp SVM of the final selection',
    one_minus_corr: '1 − corr(W(k), SVM of the final selection)',
    one_minus_corr_generalized: '1 − corr with the generalized-SVM prediction',
    one_minus_corr_wmm: '1 − corr with W^mm (optimal tokens)',
    one_minus_corr_one_token: '1 − corr with the one-token SVM of the final selection',
    min_softmax: 'smallest selected softmax probability',
    sparsity: 'sparsity of W(k)',
    corr_p_relaxed: 'corr(p(k), relaxed prompt SVM)',
    corr_p_plain: 'corr(p(k), prompt SVM of the final selection)',
    corr_v_head: 'corr(v(k), head SVM v^mm)',
    mean_softmax: 'mean softmax probability of the selected tokens',
    mean_logistic: 'mean logistic probability 1 / (1 + exp(−Y f))',
    corr_W: 'corr(W(k), W^mm_p): ℓp Att-SVM of the final selection',
    div_W: 'D_p(W^mm_p, W(k)): Bregman divergence of the directions (log)',
    corr_v: 'corr(v(k), v^mm_p): ℓp head SVM of the selected tokens',
    div_v: 'D_p(v^mm_p, v(k)) (log)',
  };

  // One plot per metric; runs of one seed that differ by parameterization ("W_corr_fro",
  // "KQ_corr_fro") share the plot of their metric, as in the papers' figures.
  // A single-run experiment's catalog entry groups its runs' series itself (e.group).
  const byParam = (n) => {
    const m = /^(W|KQ)_(.+)$/.exec(n);
    return { key: m ? m[2] : n, label: m ? m[1] : '' };
  };
  function groups(names, group = byParam) {
    const out = new Map();
    for (const n of names) {
      const { key, label, color } = group(n);
      if (!out.has(key)) out.set(key, []);
      out.get(key).push({ name: n, label, color });
    }
    return out;
  }
  const plotBox = (heading, tip) => {
    const holder = el('div');
    plots.append(el('div', { className: 'exp-plot' }, el('h4', { textContent: heading, title: tip ?? heading }), holder));
    return holder;
  };

  function render(res) {
    const e = EXPERIMENTS[res.name];
    plots.replaceChildren();
    const first = res.settings[0].result;
    for (const p of e.summary?.(first) ?? []) drawBands(plotBox(p.title), p.x, p.curves, p.opts);
    e.draw?.(plotBox, first, res);
    // (paths2d: its series are path coordinates, drawn by e.draw, not curves over iterations)
    for (const [metric, members] of e.series === false ? [] : groups(Object.keys(first.series), e.group)) {
      if (metric === null) continue;  // (joint-wv: token-plane coordinates, drawn by e.draw)
      const holder = plotBox(METRIC_TITLES[metric] ?? metric, metric);
      const curves = res.settings.flatMap((s) => members.map((m) => ({
        label: [s.label, m.label].filter(Boolean).join(' ') || metric, color: m.color, ...s.result.series[m.name] })));
      drawBands(holder, first.iteration, curves, { x: e.x, y: /^div_/.test(metric) ? { label: 'D_p', log: true } : e.y });
    }
    // Final values: one row per value, one column per setting (mean ± std over seeds).
    // (paths2d: its tokens and arrow coordinates are values for e.draw, not results to list)
    const names = Object.keys(first.finals).filter((n) => !/^x_\d|_(fro|nuclear|wmm)_z\d|_vmm_\d/.test(n));
    const head = el('tr', {}, el('th', { textContent: 'final value' }),
      ...res.settings.map((s) => el('th', { textContent: s.label || res.name })));
    const rows = names.map((n) => el('tr', {}, el('td', { textContent: n }),
      ...res.settings.map((s) => el('td', { textContent: first.seeds.length === 1 ? fmt(s.result.finals[n].mean)
        : `${fmt(s.result.finals[n].mean)} ± ${fmt(s.result.finals[n].std)}` }))));
    table.replaceChildren(el('table', {}, el('thead', {}, head), el('tbody', {}, ...rows)),
      el('p', { textContent: `${res.settings.length} setting(s) × ${first.seeds.length} seeds, ${res.workers} workers, ${fmtMs(res.ms)}` }));
  }

  // Runs job(signal, onProgress) with the shared progress bar, ETA, cancel button and state.
  // unit: what progress counts ('' for rank, whose progress units are per-mille of cells).
  async function track(total, job, unit = 'runs') {
    const count = (done, all) => (unit ? `${done} / ${all} ${unit} · ` : '');
    if (state.running) throw new Error('an experiment is already running');
    Object.assign(state, { running: true, progress: 0, done: 0, total, etaMs: NaN, result: null, error: null, cancelled: false });
    controller = new AbortController();
    runBtn.disabled = basinBtn.disabled = true;
    cancelBtn.disabled = false;
    status.textContent = 'starting workers…';
    try {
      const res = await job(controller.signal, (p) => {
        Object.assign(state, { progress: p.fraction, done: p.done, total: p.total, etaMs: p.etaMs });
        bar.value = p.fraction;
        status.textContent = `${count(p.done, p.total)}${Math.round(100 * p.fraction)} % · ETA ${fmtMs(p.etaMs)}`;
      });
      state.result = res;
      status.textContent = `done${unit ? `: ${state.total} ${unit}` : ''} in ${fmtMs(res.ms)}`;
      return res;
    } catch (err) {
      if (err instanceof Cancelled) {
        state.cancelled = true;
        status.textContent = 'cancelled';
      } else {
        state.error = err.message;
        status.textContent = `error: ${err.message}`;
      }
      throw err;
    } finally {
      state.running = false;
      runBtn.disabled = basinBtn.disabled = false;
      cancelBtn.disabled = true;
    }
  }

  async function run(spec = {}) {
    const name = spec.name ?? select.value;
    const e = EXPERIMENTS[name];
    if (!e) throw new Error(`unknown experiment '${name}'`);
    // another experiment than the one selected: its own defaults (seeds, iterations), not the fields' values
    if (name !== select.value) { select.value = name; syncDefaults(); }
    if (e.kind === 'rank') return runRankEntry(spec);
    const full = {
      name,
      seeds: spec.seeds ?? (Number(seedsIn.value) || e.seeds),
      iters: spec.iters ?? (Number(itersIn.value) || e.iters),
      seedBase: spec.seedBase ?? 0,
      every: spec.every,
      settings: spec.settings ?? e.settings,
      workers: spec.workers,
    };
    const res = await track(full.seeds * full.settings.length,
      (signal, onProgress) => runExperiment(full, { signal, onProgress }));
    render(res);
    return res;
  }

  // Rank: spec {seeds? (feasible instances per cell), dims?, configs?, seedBase?, workers?, chunk?}.
  async function runRankEntry(spec) {
    const instances = spec.seeds ?? (Number(seedsIn.value) || EXPERIMENTS.rank.seeds);
    const full = { ...spec, instances };
    const cells = (spec.configs?.length ?? 5) * (spec.dims?.length ?? 8);
    const res = await track(cells * 1000, (signal, onProgress) => runRank(full, { signal, onProgress }), '');
    drawRank(plots, table, res);
    return res;
  }

  // Basin map: {grid?, iters?, seed?}; resolves to {grid, selection, limits, counts, workers, ms}.
  async function basin(spec = {}) {
    const grid = spec.grid ?? (Number(gridIn.value) || 200);
    const res = await track(grid * grid, (signal, onProgress) => runBasinMap({ ...spec, grid }, { signal, onProgress }));
    res.counts = drawBasinMap(basinBox, res);
    return res;
  }

  const cancel = () => controller?.abort();
  details.addEventListener('toggle', () => { if (details.open) warmPool(); });
  runBtn.addEventListener('click', () => { details.open = true; run().catch(() => {}); });
  basinBtn.addEventListener('click', () => { details.open = true; basin().catch(() => {}); });
  cancelBtn.addEventListener('click', cancel);
  const api = { run, basin, cancel, state: () => ({ ...state }) };
  if (typeof window !== 'undefined') window.__attnsvmExperiment = api;
  return api;
}
