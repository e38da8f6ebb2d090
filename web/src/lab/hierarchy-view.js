// The hierarchy preset's view (issue 40, SPEC 5.3 "Two layers"; markup: hierarchy-layout.js): one
// seed of `attnsvm experiment hierarchy` (sphere data n = 4, T = 5, d = 10; W1, W2 from the seed;
// NGD) run through the experiment API on the experiments' worker pool (experiments/runner.js), the
// same numbers as the CLI's for that seed (tests/wasm/experiment-seq.test.mjs), then drawn: per
// layer its softmax sharpness and corr with its own certified SVM over the snapshots, and the run's
// finals. The run is computed in one go (a two-layer stepper is not in the engine): the player
// does not apply, and the view says so.
//
// mountHierarchy({ setState(patch) }) -> { show(state, stale()) -> Promise, hide(), info() }
import { runExperiment, Cancelled } from '../experiments/runner.js';
import { createCurves } from '../plots/curves-svg.js';
import { OKABE_ITO } from '../plots/theme.js';
import { HIER_ID } from './hierarchy-layout.js';

export const HIER_DEFAULT_ITERS = 2000;  // kHierarchyIters (experiment_hierarchy.hpp)
export const HIER_MIN_ITERS = 40;        // kHierarchySnapshots: a snapshot every iters / 40 steps

const SERIES = {
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

const $ = (id) => document.getElementById(id);
const fmt = (v, digits = 3) => (Number.isFinite(v) ? Number(v).toFixed(digits) : '—');
const finite = (a) => Array.from(a, (v) => (Number.isFinite(v) ? v : null));

// A seed or iteration count typed by the reader: an integer in [lo, hi], else why not.
export function checkInt(text, name, lo, hi) {
  const v = Number(text);
  if (String(text).trim() === '' || !Number.isInteger(v)) return { error: `${name} must be a whole number (got "${text}")` };
  if (v < lo || v > hi) return { error: `${name} must be between ${lo} and ${hi} (got ${v})` };
  return { value: v };
}

// The numbers the view draws from one seed's aggregate (experiments/aggregate.js): per layer its
// series, and the finals.
export function hierarchyNumbers(r) {
  const at = (name) => r.values[name]?.[0];
  const label = (name) => r.labels[name]?.[0] ?? '—';
  return {
    seed: r.seeds[0], iters: r.iters, iteration: r.iteration,
    series: Object.fromEntries(Object.values(SERIES).flat().map((s) => [s.key, Array.from(r.series[s.key].mean)])),
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

function readoutHtml(h) {
  const f = h.finals, cert = (c) => (c === 1 ? 'certified' : 'not certified');
  const rows = [
    ['Layer 1 (W1)', `selected softmax ${fmt(f.softmax1)}; corr with the SAtt-SVM ${fmt(f.corrW1Attended, 4)} over the attended units (${h.status.w1Attended}, ${cert(h.certified.w1Attended)}), ${fmt(f.corrW1All, 4)} over all units (${h.status.w1All}, ${cert(h.certified.w1All)})`],
    ['Layer 2 (W2)', `mass on O_i ${fmt(f.softmax2Set)}, largest softmax ${fmt(f.softmax2)}; corr with the Att-SVM of O_i ${fmt(f.corrW2, 4)} (${h.status.w2}, ${cert(h.certified.w2)}); one-token Att-SVM: ${h.status.w2OneToken}`],
    ['Picture holds', `${f.holds === 1 ? 'yes' : 'no'}: both layers' corr >= 0.99 with certified SVMs at the end`],
    ['Selections', `layer 2's largest attention per sequence on row ${h.selections.layer2.join(', ')} of H_i (its one-token verdict: ${h.verdict2.replace(/_/g, ' ')})`],
    ['Optimal tokens', `layer 1: ${fmt(100 * f.layer1Optimal, 0)} % of the units, ${fmt(100 * f.layer1AttendedOptimal, 0)} % of the attended ones; layer 2: ${fmt(100 * f.layer2Optimal, 0)} % of the sequences`],
    ['Training', `accuracy ${fmt(f.accuracy, 2)}; ${h.stopReason && h.stopReason !== '—' ? `stopped early: ${h.stopReason}` : 'ran its full budget'}`],
  ];
  return `<table class="hier-readout"><caption class="sr-only">Seed ${h.seed} after ${h.iters} NGD steps</caption>${rows.map(([k, v]) => `<tr><th scope="row">${k}</th><td>${v}</td></tr>`).join('')}</table>`;
}

export function mountHierarchy({ setState }) {
  let controller = null, result = null, key = null, error = null, ms = null;
  const charts = {};
  const setStatus = (text) => { const el = $('hier-status'); if (el.textContent !== text) el.textContent = text; };

  // The reader's seed and iterations, checked here (the lab's message line is the token view's).
  for (const [id, field, lo, hi, name] of [['hier-seed', 'seed', 0, 2 ** 31 - 1, 'The seed'], ['hier-iters', 'iterations', HIER_MIN_ITERS, 20000, 'Iterations']]) {
    $(id).addEventListener('change', (e) => {
      const c = checkInt(e.target.value, name, lo, hi);
      if (c.error) { setStatus(`Not applied: ${c.error}.`); return; }
      setState({ [field]: c.value });
    });
  }
  $('hier-scenario').addEventListener('change', (e) => setState({ scenario: e.target.value }));

  function chart(id) {
    return charts[id] ??= createCurves($(`hier-body-${id}`), {
      xlabel: 'iteration k', y: { label: 'softmax, corr', log: false }, height: 240,
      series: SERIES[id].map(({ label, color, dash }) => ({ label, color, dash })),
    });
  }
  function draw() {
    const h = hierarchyNumbers(result);
    for (const id of ['layer1', 'layer2']) {
      chart(id).update({ x: h.iteration, ys: SERIES[id].map((s) => finite(h.series[s.key])), xmax: h.iters });
      const body = $(`hier-body-${id}`), last = SERIES[id].map((s) => `${s.label} ${fmt(h.series[s.key].at(-1), 4)}`).join(', ');
      body.setAttribute('role', 'img');
      body.setAttribute('aria-label', `${id === 'layer1' ? 'Layer 1' : 'Layer 2'} over ${h.iters} iterations; at the end: ${last}.`);
    }
    $('hier-body-readout').innerHTML = readoutHtml(h);
    setStatus(`Seed ${h.seed}, ${h.iters} NGD steps, ${h.iteration.length} snapshots: computed in ${(ms / 1000).toFixed(1)} s, in one go (no player).`);
  }

  // Shows the state's run: computed unless it is the one drawn; stale(): a newer restart took over.
  async function show(state, stale) {
    const seed = state.seed ?? 0, iters = state.iterations ?? HIER_DEFAULT_ITERS;
    $('hier-scenario').value = HIER_ID;
    $('hier-seed').value = String(seed);
    $('hier-iters').value = String(iters);
    if (iters < HIER_MIN_ITERS) { error = `Iterations must be at least ${HIER_MIN_ITERS} (a snapshot every iters / 40 steps); got ${iters}`; setStatus(`${error}.`); return; }
    const k = `${seed}/${iters}`;
    if (k === key && result) { draw(); return; }
    controller?.abort();
    const mine = controller = new AbortController();
    error = null;
    setStatus(`Running seed ${seed}: ${iters} NGD steps, both layers' SVMs certified at 41 snapshots…`);
    try {
      const r = await runExperiment({ name: 'hierarchy', seeds: 1, seedBase: seed, iters, workers: 1, settings: [{ label: '', options: {} }] }, { signal: mine.signal });
      if (mine.signal.aborted || stale()) return;
      result = r.settings[0].result; key = k; ms = r.ms;
      draw();
    } catch (e) {
      if (e instanceof Cancelled || mine.signal.aborted) return;
      error = e.message;
      setStatus(`The run failed: ${e.message}`);
    } finally {
      if (controller === mine) controller = null;
    }
  }
  function hide() { controller?.abort(); controller = null; }
  // (the browser tests read the drawn numbers here)
  const info = () => ({ key, error, running: !!controller, numbers: result ? hierarchyNumbers(result) : null });
  return { show, hide, info };
}
