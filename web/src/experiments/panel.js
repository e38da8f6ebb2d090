// "Run the full experiment": a panel that runs one of the seeded experiments at the papers' full
// settings across the worker pool (runner.js), with progress, ETA and cancel, then plots bands over
// iterations (bands.js: mean ± std on linear axes, median and 10-90 % of the seeds on log axes) and
// tabulates the final per-seed values (mean ± std over seeds).
// Also the basin map (beyond the papers) on the same pool, drawn by basin.js, and the rank
// experiment (a grid of cells, rank.js / rankview.js: "seeds" is then the feasible instances per cell).
// Test hook: window.__attnsvmExperiment {run(spec), basin(spec), cancel(), state(), plot(spec), charts()}.
import { EXPERIMENTS } from './catalog.js';
import { runExperiment, runBasinMap, Cancelled, warmPool, resultOfChunks } from './runner.js';
import { describeBands } from './bands.js';
import { drawBasinMap } from './basin.js';
import { runRank } from './rank.js';
import { drawRank } from './rankview.js';
import { drawResult } from './results.js';
import { el, fmtMs } from './dom.js';
import './panel.css';

// The panel's controls and output areas (ids are the test hook's and the page's).
function buildPanel(open) {
  const ui = {
    select: el('select', { id: 'exp-name' }, ...Object.keys(EXPERIMENTS).map((n) => el('option', { value: n, textContent: n }))),
    seedsIn: el('input', { id: 'exp-seeds', type: 'number', min: 1, max: 100000, step: 1 }),
    itersIn: el('input', { id: 'exp-iters', type: 'number', min: 1, max: 100000, step: 1 }),
    runBtn: el('button', { id: 'exp-run', type: 'button', textContent: 'Run the full experiment' }),
    cancelBtn: el('button', { id: 'exp-cancel', type: 'button', textContent: 'Cancel', disabled: true }),
    bar: el('progress', { id: 'exp-progress', max: 1, value: 0 }),
    status: el('span', { id: 'exp-status', className: 'exp-status' }),
    title: el('p', { className: 'exp-title' }),
    plots: el('div', { className: 'exp-plots' }),
    table: el('div', { className: 'exp-table' }),
    gridIn: el('input', { id: 'exp-grid', type: 'number', min: 2, max: 2000, step: 1, value: 200 }),
    basinBtn: el('button', { id: 'exp-basin', type: 'button', textContent: 'Basin map' }),
    basinBox: el('div', { className: 'exp-basin' }),
  };
  ui.details = el('details', { className: 'exp-panel', open },
    el('summary', { textContent: 'Full experiments (all seeds, in the browser)' }),
    el('div', { className: 'exp-controls' },
      el('label', {}, 'experiment ', ui.select), el('label', {}, ' seeds ', ui.seedsIn), el('label', {}, ' iterations ', ui.itersIn),
      ui.runBtn, el('label', {}, ' grid ', ui.gridIn), ui.basinBtn, ui.cancelBtn, ui.bar, ui.status),
    ui.title, ui.plots, ui.table, ui.basinBox);
  return ui;
}

// The selected experiment's defaults into the fields.
function syncDefaults(ui) {
  const e = EXPERIMENTS[ui.select.value];
  ui.seedsIn.value = e.seeds;
  ui.itersIn.value = e.iters ?? '';
  ui.itersIn.disabled = e.iters == null; // rank: no training
  ui.seedsIn.disabled = e.kind === 'single'; // one deterministic run set
  ui.title.textContent = e.title;
}

// Runs job(signal, onProgress) with the shared progress bar, ETA, cancel button and state.
// unit: what progress counts ('' for rank, whose progress units are per-mille of cells).
function createTracker(ui, state) {
  let controller = null;
  const busy = (on) => { ui.runBtn.disabled = ui.basinBtn.disabled = on; ui.cancelBtn.disabled = !on; };
  async function track(total, job, unit = 'runs') {
    const count = (done, all) => (unit ? `${done} / ${all} ${unit} · ` : '');
    if (state.running) throw new Error('an experiment is already running');
    Object.assign(state, { running: true, progress: 0, done: 0, total, etaMs: NaN, result: null, error: null, cancelled: false });
    controller = new AbortController();
    busy(true);
    ui.status.textContent = 'starting workers…';
    try {
      const res = await job(controller.signal, (p) => {
        Object.assign(state, { progress: p.fraction, done: p.done, total: p.total, etaMs: p.etaMs });
        ui.bar.value = p.fraction;
        ui.status.textContent = `${count(p.done, p.total)}${Math.round(100 * p.fraction)} % · ETA ${fmtMs(p.etaMs)}`;
      });
      state.result = res;
      ui.status.textContent = `done${unit ? `: ${state.total} ${unit}` : ''} in ${fmtMs(res.ms)}`;
      return res;
    } catch (err) {
      if (err instanceof Cancelled) state.cancelled = true; else state.error = err.message;
      ui.status.textContent = err instanceof Cancelled ? 'cancelled' : `error: ${err.message}`;
      throw err;
    } finally {
      state.running = false;
      busy(false);
    }
  }
  return { track, cancel: () => controller?.abort() };
}

export function mountExperimentPanel(container, options = {}) {
  if (!container) return null;
  const ui = buildPanel(!!options.open);
  container.append(ui.details);
  ui.select.addEventListener('change', () => syncDefaults(ui));
  syncDefaults(ui);
  const state = { running: false, progress: 0, done: 0, total: 0, etaMs: NaN, result: null, error: null, cancelled: false };
  const { track, cancel } = createTracker(ui, state);

  async function run(spec = {}) {
    const name = spec.name ?? ui.select.value;
    const e = EXPERIMENTS[name];
    if (!e) throw new Error(`unknown experiment '${name}'`);
    // another experiment than the one selected: its own defaults (seeds, iterations), not the fields' values
    if (name !== ui.select.value) { ui.select.value = name; syncDefaults(ui); }
    if (e.kind === 'rank') return runRankEntry(spec);
    const full = {
      name,
      seeds: spec.seeds ?? (Number(ui.seedsIn.value) || e.seeds),
      iters: spec.iters ?? (Number(ui.itersIn.value) || e.iters),
      seedBase: spec.seedBase ?? 0,
      every: spec.every,
      settings: spec.settings ?? e.settings,
      workers: spec.workers,
    };
    const res = await track(full.seeds * full.settings.length,
      (signal, onProgress) => runExperiment(full, { signal, onProgress }));
    drawResult(ui.plots, ui.table, res);
    return res;
  }

  // Rank: spec {seeds? (feasible instances per cell), dims?, configs?, seedBase?, workers?, chunk?}.
  async function runRankEntry(spec) {
    const instances = spec.seeds ?? (Number(ui.seedsIn.value) || EXPERIMENTS.rank.seeds);
    const full = { ...spec, instances };
    const cells = (spec.configs?.length ?? 5) * (spec.dims?.length ?? 8);
    const res = await track(cells * 1000, (signal, onProgress) => runRank(full, { signal, onProgress }), '');
    drawRank(ui.plots, ui.table, res);
    return res;
  }

  // Basin map: {grid?, iters?, seed?}; resolves to {grid, selection, limits, counts, workers, ms}.
  async function basin(spec = {}) {
    const grid = spec.grid ?? (Number(ui.gridIn.value) || 200);
    const res = await track(grid * grid, (signal, onProgress) => runBasinMap({ ...spec, grid }, { signal, onProgress }));
    res.counts = drawBasinMap(ui.basinBox, res);
    return res;
  }

  ui.details.addEventListener('toggle', () => { if (ui.details.open) warmPool(); });
  ui.runBtn.addEventListener('click', () => { ui.details.open = true; run().catch(() => {}); });
  ui.basinBtn.addEventListener('click', () => { ui.details.open = true; basin().catch(() => {}); });
  ui.cancelBtn.addEventListener('click', cancel);
  // Draws seeds computed elsewhere as a run of `name` ({name, settings: [{label, options, chunks}]},
  // chunks shaped as experimentSeeds' results), and what each band chart shows (bands.js describeBands).
  async function plot(spec) {
    if (!EXPERIMENTS[spec.name]) throw new Error(`unknown experiment '${spec.name}'`);
    if (spec.name !== ui.select.value) { ui.select.value = spec.name; syncDefaults(ui); }
    const res = await resultOfChunks(spec.name, spec.settings);
    drawResult(ui.plots, ui.table, res);
    return res;
  }
  const charts = () => [...ui.plots.querySelectorAll('.exp-plot')].map((p) => ({ title: p.querySelector('h4')?.textContent,
    chart: describeBands(p.querySelector('h4 + div')) })).filter((c) => c.chart);
  const api = { run, basin, cancel, state: () => ({ ...state }), plot, charts };
  if (typeof window !== 'undefined') window.__attnsvmExperiment = api;
  return api;
}
