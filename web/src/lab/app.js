// The web lab: one state (state.js) -> a scenario from the engine (in the worker) with the state's
// overrides -> a training run stepped by the player -> panels. The main thread only draws: every
// engine call (scenario, validate, solve, analyze, training steps) runs in the worker.
import katex from 'katex';
import 'katex/dist/katex.min.css';
import '../styles/lab.css';
import { createEngineClient } from './engine-client.js';
import { decodeHash, encodeHash, updateState, roundDataset, datasetShapeError, SCENARIO_IDS } from './state.js';
import { SCENARIO_INFO, REF_LABEL } from './scenarios.js';
import { buildLayout, PANELS } from './layout.js';
import { fro, corr, dot, matVec, transpose, singularValues, principalPlane, allFinite } from './linalg.js';
import { TraceStore } from './trace.js';
import { createTokenPlane } from '../plots/tokenplane.js';
import { createTimeHeatmap, createMatrices } from '../plots/heatmaps.js';
import { createCurves } from '../plots/curves.js';
import { createSpectrum } from '../plots/spectrum.js';
import { createReadout } from '../plots/readout.js';
import { REF_STYLE, OKABE_ITO, themeColors } from '../plots/theme.js';
import { svgString, svgSize, svgToPng, download } from '../plots/export.js';

const t0 = performance.now();
const { $ } = buildLayout(document.getElementById('app'));

// ---------- theme ----------
const THEME_KEY = 'attnsvm-theme';
function applyTheme(theme) {
  const dark = theme === 'dark' || (theme !== 'light' && matchMedia('(prefers-color-scheme: dark)').matches);
  document.documentElement.dataset.theme = dark ? 'dark' : 'light';
}
let themePref = localStorage.getItem(THEME_KEY) ?? 'auto';
applyTheme(themePref);
matchMedia('(prefers-color-scheme: dark)').addEventListener?.('change', () => { applyTheme(themePref); renderAll(true); });

// ---------- messages ----------
const messages = new Map(); // key -> text
function setMessage(key, text) {
  if (text) messages.set(key, text); else messages.delete(key);
  const box = $('messages');
  box.replaceChildren(...[...messages].map(([k, t]) => {
    const div = document.createElement('div');
    div.className = 'msg';
    div.dataset.key = k;
    const span = document.createElement('span');
    span.textContent = t;
    const b = document.createElement('button');
    b.type = 'button'; b.textContent = '×'; b.setAttribute('aria-label', 'Dismiss message');
    b.onclick = () => setMessage(k, null);
    div.append(span, b);
    return div;
  }));
}
function panelMessage(id, text) { $(`msg-${id}`).textContent = text ?? ''; $(`msg-${id}`).hidden = !text; }

// ---------- state ----------
const decoded = decodeHash(location.hash);
let state = decoded.state;
const linkMessage = (errors) => (errors.length ? `The link has problems (defaults used instead):\n• ${errors.join('\n• ')}` : null);
if (decoded.errors.length) setMessage('link', linkMessage(decoded.errors));

function writeHash() {
  const h = encodeHash(state);
  if (h !== location.hash) history.replaceState(null, '', h);
}

// What a change affects: the player speed (nothing), the reference SVMs (re-solve), or the run.
const REF_FIELDS = new Set(['refs', 'svmP', 'selection']);
function setState(patch, { fromUser = true } = {}) {
  const { state: next, errors } = updateState(state, patch);
  if (errors.length) setMessage('input', `Not applied: ${errors.join('; ')}.`);
  else if (fromUser) setMessage('input', null);
  const changed = Object.keys(next).filter((k) => JSON.stringify(next[k]) !== JSON.stringify(state[k]));
  state = next;
  writeHash();
  if (!changed.length) return;
  if (changed.every((k) => k === 'speed')) { syncControls(); return; }
  if (changed.every((k) => k === 'speed' || REF_FIELDS.has(k))) { syncControls(); refreshReferences(); return; }
  restart();
}
addEventListener('hashchange', () => {
  const d = decodeHash(location.hash);
  setMessage('link', linkMessage(d.errors));
  if (encodeHash(d.state) === encodeHash(state)) return;
  state = d.state;
  restart();
});

// ---------- panels ----------
const planeInfo = { projection: null };
const panels = {
  plane: createTokenPlane($('body-plane'), { onDrag }),
  softmax: createTimeHeatmap($('body-softmax')),
  current: createMatrices($('body-current')),
  corr: createCurves($('body-corr'), { xlabel: 'iteration k', y: { label: '1 − corr', log: true }, series: [], height: 220 }),
  norms: createCurves($('body-norms'), {
    xlabel: 'iteration k', y: { label: 'norm of W(k)' }, height: 170,
    series: [
      { label: '‖W‖_F', color: OKABE_ITO.blue },
      { label: '‖W‖_*', color: OKABE_ITO.vermillion, dash: [2, 3] },
      { label: '‖W‖_p', color: OKABE_ITO.green, dash: [8, 3, 2, 3] },
    ],
  }),
  spectrum: createSpectrum($('body-spectrum')),
  weights: createMatrices($('body-weights')),
  readout: createReadout($('body-readout')),
};
const lossChart = createCurves($('body-norms'), {
  xlabel: 'iteration k', y: { label: 'loss L(W(k))' }, height: 150,
  series: [{ label: 'loss', color: themeColors().dark ? '#dddddd' : '#333333' }],
});

// ---------- run state ----------
let client = null;
let gen = 0;                  // bumps on every restart; stale async results are dropped
const run = { id: null, maxIterations: 0, playing: false, inFlight: false, done: false };
let cfg = null;               // { scenario, dataset, model, train, init, iterations }
let baseDataset = null;       // the scenario's own data (projection basis, "scenario data" button)
let scores = null;            // { gamma, optimal, ties }
let trace = new TraceStore();
let refs = {};                // norm -> Solution (current reference selection)
let refSelection = null;      // the selection the references were solved for
let report = null;            // analysis of refSelection (verdict, support tokens)
let headSvm = null;
let refGen = 0;
let solving = 0;
let firstFrameAt = null;
let lastError = null;

function effectiveRefs() {
  const info = SCENARIO_INFO[state.scenario];
  let list = state.refs ?? info.refs;
  if (cfg?.model.param === 'prompt') list = list.filter((r) => r !== 'nuclear');
  return list;
}
function lpP() { return state.svmP ?? (cfg && (cfg.train.optimizer === 'md' || cfg.train.optimizer === 'nmd') ? cfg.train.p : 3); }
const unitsOf = (c) => (c.model.attention === 'seq2seq' || c.model.attention === 'causal' ? c.dataset.X.length * c.dataset.X[0].length : c.dataset.X.length);

async function boot() {
  try {
    client = await createEngineClient();
    $('engine-version').textContent = await client.version();
    const names = await client.scenarioNames();
    window.__lab.engineScenarios = names;
    const missing = SCENARIO_IDS.filter((s) => !names.includes(s));
    if (missing.length) setMessage('engine', `The engine lacks the scenarios ${missing.join(', ')}.`);
  } catch (e) {
    fatal(`The WebAssembly engine could not start: ${e.message}`);
    return;
  }
  const query = new URLSearchParams(location.search);
  const autoplay = query.get('autoplay') !== '0' && !matchMedia('(prefers-reduced-motion: reduce)').matches;
  await restart({ autoplay });
}

function fatal(text) {
  setMessage('fatal', text);
  window.__error = text;
}

// ---------- building the configuration ----------
function scenarioOptions() {
  const o = { seed: state.seed };
  for (const k of ['n', 'T', 'd', 'C', 'start', 'localCase', 'variant']) if (state[k] !== null) o[k] = state[k];
  const allowed = new Set(SCENARIO_INFO[state.scenario].options);
  if (state.generator === 'sphere') for (const k of ['n', 'T', 'd']) allowed.delete(k);
  for (const k of Object.keys(o)) if (!allowed.has(k) && k !== 'seed') delete o[k];
  return o;
}

function identity(d) { return Array.from({ length: d }, (_, i) => Array.from({ length: d }, (_, j) => (i === j ? 1 : 0))); }

function buildConfig(base) {
  const dataset = state.data ?? base.dataset;
  const d = dataset.X[0][0].length, baseD = base.dataset.X[0][0].length;
  const model = { ...base.model };
  for (const k of ['attention', 'param', 'head', 'loss']) if (state[k] !== null) model[k] = state[k];
  if (model.param === 'prompt' && (!model.Wk || model.Wk.length !== d)) model.Wk = identity(d);
  if (model.head === 'relu' && (!model.V || model.V.length !== d)) model.V = identity(d);
  if (model.param !== 'prompt') delete model.Wk;
  if (model.head !== 'relu') delete model.V;
  const train = { ...base.train, ...(SCENARIO_INFO[state.scenario].train ?? {}) };
  if (state.optimizer !== null) train.optimizer = state.optimizer;
  if (state.lr !== null) train.lr = state.lr;
  if (state.p !== null) train.p = state.p;
  if (state.joint !== null) train.trainHead = state.joint;
  if (state.headLr !== null) train.headLr = state.headLr;
  if ((train.optimizer === 'md' || train.optimizer === 'nmd') && !(train.p > 1)) train.p = 3;
  const iterations = state.iterations ?? base.iterations;
  train.traceEvery = Math.max(1, Math.ceil(iterations / 1500));
  train.traceSoftmax = true;
  train.traceP = (train.optimizer === 'md' || train.optimizer === 'nmd') ? train.p : lpPFor(train);
  // initial parameters: the scenario's, unless the shapes changed
  let init = base.init;
  const g = init?.given ?? {};
  const fits = d === baseD && ((model.param === 'W' && g.W) || (model.param === 'KQ' && g.K && g.Q) || (model.param === 'prompt' && g.p));
  if (!fits) {
    init = model.param === 'KQ' ? { kind: 'random', seed: state.seed, scale: 0.1 } : { kind: 'zero' };
  } else if (init.kind === 'given') {
    init = { kind: 'given', given: { ...g, v: dataset.v } };
  }
  return { scenario: state.scenario, dataset, model, train, init, iterations };
}
function lpPFor(train) { return state.svmP ?? 3; }

function effectiveWeightsOf(config) {
  const g = config.init.kind === 'given' ? config.init.given : null;
  const d = config.dataset.X[0][0].length;
  if (!g) return null;
  if (config.model.param === 'W') return g.W ?? null;
  if (config.model.param === 'KQ' && g.K && g.Q) return g.K.map((row) => transpose(g.Q).map((col) => dot(row, col)));
  if (config.model.param === 'prompt' && g.p) return g.p.map((x) => [x]);
  return Array.from({ length: d }, () => Array(d).fill(0));
}

// The 2-D view of the tokens.
function computeProjection(config, base) {
  const d = config.dataset.X[0][0].length;
  const e = (k) => Array.from({ length: d }, (_, j) => (j === k ? 1 : 0));
  if (d === 1) return { axes: [e(0), Array(1).fill(0)], labels: ['x₁', '(d = 1: one coordinate)'], note: 'd = 1: tokens on a line' };
  if (d === 2) return { axes: [e(0), e(1)], labels: ['x₁', 'x₂'], note: null };
  const Wk = config.model.param === 'prompt' ? config.model.Wk : null;
  if (Wk) {
    const diag = Wk.every((row, i) => row.every((v, j) => i === j || v === 0));
    const nz = Wk.map((row, i) => row[i]).map((v, i) => [v, i]).filter(([v]) => v !== 0);
    if (diag && nz.length === 2) {
      const [a, b] = nz.map(([, i]) => i);
      return { axes: [e(a), e(b)], labels: [`x${sub(a + 1)}`, `x${sub(b + 1)}`],
        note: `Plane of coordinates ${a + 1} and ${b + 1}: the only ones W_k passes to the scores, so the view is exact.` };
    }
  }
  const pts = (base ?? config.dataset).X.flat();
  const pc = principalPlane(pts);
  const pct = (f) => `${Math.round(f * 100)}%`;
  return { axes: pc.axes, labels: [`PC1 (${pct(pc.explained[0])} of variance)`, `PC2 (${pct(pc.explained[1])})`],
    note: `d = ${d}: a projection on the top-2 principal directions of the scenario's tokens.` };
}
const sub = (k) => String(k).split('').map((ch) => '₀₁₂₃₄₅₆₇₈₉'[ch]).join('');

// ---------- restart: scenario -> config -> validate -> run ----------
async function restart({ autoplay = false } = {}) {
  const my = ++gen;
  const wasPlaying = run.playing || autoplay;
  stopPlayer();
  if (run.id !== null) client.cancel(run.id);
  run.id = null; run.done = false;
  trace = new TraceStore();
  refs = {}; report = null; refSelection = null; headSvm = null;
  followWanted = null; followBusy = false;
  setMessage('data', null); setMessage('engine-run', null);
  syncControls();
  writeHash();
  let base;
  try {
    base = await client.scenario(state.scenario, scenarioOptions());
  } catch (e) {
    if (my !== gen) return;
    setMessage('data', `Scenario "${state.scenario}": ${e.message}`);
    renderAll();
    return;
  }
  if (my !== gen) return;
  if (state.generator === 'sphere') {
    try {
      const sd = base.dataset;
      base = { ...base, dataset: await client.sphere(state.n ?? sd.X.length, state.T ?? sd.X[0].length, state.d ?? sd.X[0][0].length, state.seed) };
    } catch (e) {
      if (my !== gen) return;
      setMessage('data', `Sphere generator: ${e.message}`);
      markReady();
      return;
    }
    if (my !== gen) return;
  }
  if (state.data) {
    const err = datasetShapeError(state.data);
    if (err) {
      setMessage('data', `The dataset cannot be used: ${err}. Showing the scenario's data instead.`);
      state = { ...state, data: null };
      writeHash();
    }
  }
  let config = buildConfig(base);
  const validateAs = (c) => (c.model.param === 'prompt' ? 'seq2seq' : c.model.attention);  // prompts use no query
  try {
    await client.validate(config.dataset, validateAs(config));
  } catch (e) {
    if (my !== gen) return;
    if (state.data) {
      setMessage('data', `The dataset cannot be used: ${e.message}. Showing the scenario's data instead.`);
      state = { ...state, data: null };
      writeHash();
      config = buildConfig(base);
    } else {
      setMessage('data', `The scenario's data cannot be used with these settings: ${e.message}`);
      cfg = null; baseDataset = base.dataset;
      renderAll();
      markReady();
      return;
    }
  }
  cfg = config;
  baseDataset = base.dataset;
  planeInfo.projection = computeProjection(cfg, baseDataset);
  syncControls();
  try {
    scores = await client.scores(cfg.dataset);
  } catch (e) { scores = null; }
  if (my !== gen) return;
  try {
    const id = await client.startRun({ dataset: cfg.dataset, model: cfg.model, train: cfg.train, init: cfg.init }, cfg.iterations);
    if (my !== gen) { client.cancel(id); return; }
    run.id = id; run.maxIterations = cfg.iterations;
    trace.setInitial(effectiveWeightsOf(cfg));
    const f0 = await client.step(id, 0);
    if (my !== gen) return;
    trace.ingest(f0);
  } catch (e) {
    if (my !== gen) return;
    setMessage('engine-run', `Training could not start: ${e.message}`);
    renderAll();
    markReady();
    return;
  }
  await refreshReferences();
  if (my !== gen) return;
  renderAll();
  markReady();
  if (wasPlaying) play();
}

// ---------- reference SVMs ----------
function currentSelection() {
  const units = cfg ? unitsOf(cfg) : 0;
  const last = trace.last();
  if (!last || state.selection === 'optimal') return null;
  const decided = last.selectedProbability.every((p) => p >= 0.5);
  return decided && last.selected.length === units ? Array.from(last.selected) : null;
}
function defaultSelection() {
  if (!cfg) return null;
  if (cfg.model.attention === 'seq2seq' || cfg.model.attention === 'causal') return null;
  return cfg.dataset.alpha ?? scores?.optimal ?? null;
}

async function refreshReferences(selection = currentSelection() ?? defaultSelection(), dataset = cfg?.dataset) {
  if (!cfg || !dataset) return;
  const my = gen, mine = ++refGen;
  const list = effectiveRefs();
  const prompt = cfg.model.param === 'prompt';
  const common = { dataset, attention: cfg.model.attention, ...(selection ? { selection } : {}) };
  solving++;
  try {
    const jobs = {};
    let headSupport = null;
    if (prompt && cfg.train.trainHead) {
      try {
        const h = await client.solve({ dataset, problem: 'head', norm: 'fro', ...(selection ? { selection } : {}) });
        jobs.head = h;
        if (h.status === 'optimal') headSupport = [...new Set(h.support.map(([i]) => i))];
      } catch (e) { jobs.head = { status: 'error', message: e.message }; }
    }
    await Promise.all(list.map(async (norm) => {
      const req = { ...common, norm: norm === 'nuclear' ? 'nuclear' : norm, ...(norm === 'lp' ? { p: lpP() } : {}) };
      if (prompt) {
        req.problem = headSupport ? 'relaxed-prompt' : 'prompt';
        req.Wk = cfg.model.Wk;
        if (headSupport) req.headSupport = headSupport;
      }
      try { jobs[norm] = await client.solve(req); } catch (e) { jobs[norm] = { status: 'error', message: e.message }; }
    }));
    let rep = null;
    if (!prompt && (cfg.model.attention === 'cross' || cfg.model.attention === 'self')) {
      try { rep = await client.analyze(common); } catch (e) { rep = { error: e.message }; }
    }
    if (my !== gen || mine !== refGen) return;
    headSvm = jobs.head ?? null;
    delete jobs.head;
    refs = jobs;
    refSelection = selection ?? rep?.selection ?? scores?.optimal ?? null;
    report = rep;
    trace.setReferences(Object.fromEntries(Object.entries(refs).filter(([, s]) => s.status === 'optimal' || s.status === 'max_iterations').map(([k, s]) => [k, s.W])));
    const bad = Object.entries(refs).find(([, s]) => s.status === 'infeasible' || s.status === 'error');
    setMessage('svm', bad ? `The ${REF_LABEL[bad[0]]} SVM has no solution for this selection: ${bad[1].message || bad[1].status}` : null);
    scheduleRender();
  } finally {
    solving--;
  }
}

// At most one re-solve for the run's selection in flight; the latest wanted selection wins.
let followWanted = null, followBusy = false;
function followSelection(sel) {
  const key = sel.join(',');
  if (refSelection && refSelection.join(',') === key && !followBusy) return;
  followWanted = sel;
  if (followBusy) return;
  const my = gen;
  const next = () => {
    if (my !== gen || !followWanted) { followBusy = false; return; }
    const want = followWanted;
    followWanted = null;
    if (refSelection && refSelection.join(',') === want.join(',')) { next(); return; }
    followBusy = true;
    refreshReferences(want).finally(next);
  };
  next();
}

// ---------- player ----------
function play() {
  if (!run.id || run.done) return;
  run.playing = true;
  updatePlayerUI();
  requestAnimationFrame(tick);
}
function stopPlayer() { run.playing = false; updatePlayerUI(); }
function tick() {
  if (!run.playing) return;
  if (!run.inFlight) advance(state.speed);
  requestAnimationFrame(tick);
}
async function advance(k) {
  if (!run.id || run.inFlight || run.done) return;
  const my = gen;
  run.inFlight = true;
  try {
    const frame = await client.step(run.id, k);
    if (my !== gen) return;
    trace.ingest(frame);
    if (frame.done) {
      run.done = true;
      if (frame.stopped && frame.stopReason) setMessage('engine-run', `The run stopped at k = ${trace.iterationNow()}: ${frame.stopReason}`);
      stopPlayer();
    }
    // the references follow the run's selection once it is decided
    const sel = currentSelection();
    if (sel) followSelection(sel);
    scheduleRender();
  } catch (e) {
    if (my === gen) { setMessage('engine-run', `Training failed: ${e.message}`); stopPlayer(); }
  } finally {
    if (my === gen) run.inFlight = false;
  }
}

function updatePlayerUI() {
  const b = $('btn-play');
  b.textContent = run.playing ? '❚❚ Pause' : (run.done ? '▶ Done' : '▶ Play');
  b.setAttribute('aria-label', run.playing ? 'Pause' : 'Play');
  b.setAttribute('aria-pressed', String(run.playing));
  b.disabled = !run.id || (run.done && !run.playing);
  $('btn-step').disabled = !run.id || run.done || run.playing;
  $('iter-out').textContent = `k = ${trace.iterationNow()} / ${cfg?.iterations ?? '—'}`;
}

$('btn-play').onclick = () => (run.playing ? stopPlayer() : play());
$('btn-step').onclick = () => advance(state.speed);
$('btn-reset').onclick = () => restart();
$('ctl-speed').onchange = (e) => setState({ speed: Number(e.target.value) });

// ---------- dragging tokens ----------
let dragData = null;
let dragSolveBusy = false;
function onDrag(i, t, xy, phase) {
  if (!cfg || !planeInfo.projection) return;
  const base = dragData ?? structuredClone(cfg.dataset);
  const [e1, e2] = planeInfo.projection.axes;
  const x = base.X[i][t];
  const p1 = dot(x, e1), p2 = dot(x, e2);
  const moved = x.map((v, k) => v + (xy[0] - p1) * e1[k] + (xy[1] - p2) * e2[k]);
  if (!moved.every(Number.isFinite)) return;
  base.X[i][t] = moved;
  delete base.alpha;
  dragData = base;
  if (phase === 'move') {
    if (run.playing) stopPlayer();
    renderPlane();
    if (!dragSolveBusy) {
      dragSolveBusy = true;
      refreshReferences(null, dragData).finally(() => { dragSolveBusy = false; });
    }
  } else {
    const data = roundDataset(dragData);
    dragData = null;
    setState({ data });
  }
}

// ---------- controls ----------
const CONTROL_IDS = ['seed', 'n', 'T', 'd', 'C', 'start', 'variant', 'attention', 'param', 'head', 'loss', 'optimizer', 'lr', 'p', 'iterations', 'headLr', 'svmP', 'selection'];
function syncControls() {
  const info = SCENARIO_INFO[state.scenario];
  $('ctl-scenario').value = state.scenario;
  $('ctl-speed').value = String(state.speed);
  const base = cfg && cfg.scenario === state.scenario ? cfg : null;
  const eff = {
    seed: state.seed, n: state.n ?? base?.dataset.X.length, T: state.T ?? base?.dataset.X[0].length,
    d: state.d ?? base?.dataset.X[0][0].length, C: state.C ?? 1, start: state.start ?? 0, variant: state.variant ?? 0,
    attention: state.attention ?? base?.model.attention ?? 'cross', param: state.param ?? base?.model.param ?? 'W',
    head: state.head ?? base?.model.head ?? 'linear', loss: state.loss ?? base?.model.loss ?? 'logistic',
    optimizer: state.optimizer ?? base?.train.optimizer ?? 'ngd', lr: state.lr ?? base?.train.lr ?? 0.1,
    p: state.p ?? base?.train.p ?? 2, iterations: state.iterations ?? base?.iterations ?? 2000,
    headLr: state.headLr ?? base?.train.headLr ?? 0.1, svmP: lpP(), selection: state.selection,
  };
  for (const k of CONTROL_IDS) {
    const el = $(`ctl-${k}`);
    if (el && document.activeElement !== el && eff[k] !== undefined) el.value = String(eff[k]);
  }
  $('ctl-localCase').checked = !!state.localCase;
  $('ctl-joint').checked = state.joint ?? base?.train.trainHead ?? false;
  const refList = effectiveRefs();
  for (const r of ['fro', 'nuclear', 'lp']) $(`ref-${r}`).checked = refList.includes(r);
  // options that apply to this scenario
  const custom = !!state.data;
  document.querySelectorAll('[data-opt]').forEach((el) => {
    const k = el.dataset.opt;
    el.hidden = !(info.options.includes(k) || (state.generator === 'sphere' && ['n', 'T', 'd', 'seed'].includes(k)));
  });
  const optimizer = eff.optimizer;
  document.querySelector('[data-show="md"]').hidden = !(optimizer === 'md' || optimizer === 'nmd');
  document.querySelector('[data-show="joint"]').hidden = !$('ctl-joint').checked;
  $('ctl-generator').value = state.generator;
  $('data-hint').textContent = custom ? 'Custom tokens (dragged or edited); "Generator data" below restores the generated ones.'
    : state.generator === 'sphere' ? 'Unit Gaussian tokens, queries and head; labels ±1; seeded (same data natively and in the browser).'
      : (['local-convergence', 'rank', 'mirror-descent', 'overparam', 'sphere', 'multitoken'].includes(state.scenario) ? 'This scenario draws sphere data from the seed.' : 'This scenario uses the papers\' hand-made tokens.');
  const variantSel = $('ctl-variant');
  if (state.scenario === 'loss-function') { variantSel.options[0].text = 'logistic loss'; variantSel.options[1].text = 'correlation −u'; } else { variantSel.options[0].text = 'token (0.5, 1)'; variantSel.options[1].text = 'token (0.5, 1.5)'; }
  if (document.activeElement !== $('ctl-json') && cfg) $('ctl-json').value = datasetText(cfg.dataset);
  // caption
  $('sc-title').textContent = info.title;
  $('sc-caption').textContent = info.caption;
  const dn = state.data ? 'Note: custom tokens (dragged or edited) replace the scenario\'s data; the caption describes the original.'
    : state.generator === 'sphere' ? 'Note: sphere data replaces the scenario\'s own; the caption describes the original.' : '';
  $('sc-datanote').textContent = dn;
  $('sc-datanote').hidden = !dn;
  const fdiv = $('sc-formulas');
  if (fdiv.dataset.for !== state.scenario) {
    fdiv.dataset.for = state.scenario;
    fdiv.replaceChildren(...info.formulas.map((f) => {
      const span = document.createElement('div');
      span.className = 'formula';
      katex.render(f, span, { displayMode: true, throwOnError: false, output: 'htmlAndMathml' });
      return span;
    }));
  }
  updatePlayerUI();
}

function datasetText(ds) {
  const rows = (m) => m.map((r) => JSON.stringify(r)).join(',\n    ');
  const parts = [`  "X": [\n    ${ds.X.map((seq) => '[' + seq.map((t) => JSON.stringify(t)).join(', ') + ']').join(',\n    ')}\n  ]`];
  if (ds.Z) parts.push(`  "Z": [\n    ${rows(ds.Z)}\n  ]`);
  parts.push(`  "Y": ${JSON.stringify(ds.Y)}`, `  "v": ${JSON.stringify(ds.v)}`);
  if (ds.query) parts.push(`  "query": ${ds.query}`);
  return `{\n${parts.join(',\n')}\n}`;
}

function bindControls() {
  $('ctl-scenario').onchange = (e) => setState({ scenario: e.target.value });
  const numeric = { seed: 'int', n: 'int', T: 'int', d: 'int', C: 'num', lr: 'num', p: 'num', iterations: 'int', headLr: 'num', svmP: 'num' };
  for (const [k] of Object.entries(numeric)) {
    const el = $(`ctl-${k}`);
    el.addEventListener('change', () => {
      const raw = el.value.trim();
      const { errors } = updateState(state, { [k]: raw === '' ? null : raw });
      el.setAttribute('aria-invalid', errors.length ? 'true' : 'false');
      setState({ [k]: raw === '' ? null : raw });
    });
  }
  for (const k of ['generator', 'attention', 'param', 'head', 'loss', 'optimizer', 'selection']) {
    $(`ctl-${k}`).onchange = (e) => setState({ [k]: e.target.value });
  }
  $('ctl-start').onchange = (e) => setState({ start: Number(e.target.value) });
  $('ctl-variant').onchange = (e) => setState({ variant: Number(e.target.value) });
  $('ctl-localCase').onchange = (e) => setState({ localCase: e.target.checked });
  $('ctl-joint').onchange = (e) => setState({ joint: e.target.checked });
  for (const r of ['fro', 'nuclear', 'lp']) {
    $(`ref-${r}`).onchange = () => setState({ refs: ['fro', 'nuclear', 'lp'].filter((x) => $(`ref-${x}`).checked) });
  }
  $('btn-json-apply').onclick = applyJson;
  $('btn-json-reset').onclick = () => { $('json-msg').textContent = ''; setState({ data: null }); };
  $('btn-copy').onclick = async () => {
    writeHash();
    try { await navigator.clipboard.writeText(location.href); flash($('btn-copy'), 'Copied'); } catch { flash($('btn-copy'), 'Copy failed'); setMessage('copy', `Copy this link: ${location.href}`); }
  };
  $('btn-theme').onclick = () => {
    const dark = document.documentElement.dataset.theme === 'dark';
    themePref = dark ? 'light' : 'dark';
    localStorage.setItem(THEME_KEY, themePref);
    applyTheme(themePref);
    renderAll(true);
  };
  $('btn-csv').onclick = () => download(`attnsvm-${state.scenario}-trace.csv`, trace.toCSV(refNames()), 'text/csv');
  $('btn-trace-json').onclick = () => download(`attnsvm-${state.scenario}-trace.json`, JSON.stringify(traceJSON()), 'application/json');
  $('btn-data-json').onclick = () => cfg && download(`attnsvm-${state.scenario}-dataset.json`, datasetText(cfg.dataset), 'application/json');
  document.querySelectorAll('[data-export]').forEach((b) => {
    b.onclick = async () => {
      const id = b.dataset.panel, fmt = b.dataset.export;
      try {
        const out = await exportPanel(id, fmt);
        if (fmt === 'svg') download(`attnsvm-${state.scenario}-${id}.svg`, out, 'image/svg+xml');
        else download(`attnsvm-${state.scenario}-${id}.png`, out);
      } catch (e) { setMessage('export', `Export of ${id} failed: ${e.message}`); }
    };
  });
}

async function applyJson() {
  const text = $('ctl-json').value;
  let obj;
  try { obj = JSON.parse(text); } catch (e) {
    $('json-msg').textContent = `Not valid JSON: ${e.message}`;
    setMessage('json', `Dataset JSON: not valid JSON (${e.message}). The previous data is kept.`);
    return;
  }
  const err = datasetShapeError(obj);
  if (err) {
    $('json-msg').textContent = `Dataset JSON: ${err}`;
    setMessage('json', `Dataset JSON: ${err}. The previous data is kept.`);
    return;
  }
  try { await client.validate(obj, cfg?.model.param === 'prompt' ? 'seq2seq' : (cfg?.model.attention ?? 'cross')); } catch (e) {
    $('json-msg').textContent = `Dataset JSON: ${e.message}`;
    setMessage('json', `Dataset JSON: ${e.message}. The previous data is kept.`);
    return;
  }
  $('json-msg').textContent = 'Applied.';
  setMessage('json', null);
  setState({ data: roundDataset(obj, 6) });
}

function flash(btn, text) { const old = btn.textContent; btn.textContent = text; setTimeout(() => { btn.textContent = old; }, 1200); }

// ---------- exports ----------
function refNames() { return Object.keys(trace.refs); }
function traceJSON() {
  return { state, scenario: state.scenario, config: cfg && { model: cfg.model, train: cfg.train, iterations: cfg.iterations },
    dataset: cfg?.dataset, references: Object.fromEntries(Object.entries(refs).map(([k, s]) => [k, { status: s.status, W: s.W, objective: s.objective, gap: s.gap, support: s.support }])),
    trace: trace.toJSON() };
}
async function exportPanel(id, fmt) {
  renderAll(true);
  let svgEl;
  if (id === 'norms') svgEl = stackSvgs([panels.norms.svg(), lossChart.svg()]);
  else svgEl = panels[id].svg();
  const title = PANELS.find((p) => p.id === id)?.title ?? id;
  if (!svgEl.parentNode) { svgEl.style.position = 'absolute'; svgEl.style.left = '-10000px'; document.body.append(svgEl); }
  const text = svgString(svgEl, { title: `attnsvm — ${title}` });
  const { width, height } = svgSize(svgEl);
  if (svgEl.style.left === '-10000px') svgEl.remove();
  if (fmt === 'svg') return text;
  return svgToPng(text, width, height, 2);
}
function stackSvgs(list) {
  const NS = 'http://www.w3.org/2000/svg';
  const out = document.createElementNS(NS, 'svg');
  let y = 0, w = 0;
  for (const s of list) {
    const ww = Number(s.getAttribute('width')), hh = Number(s.getAttribute('height'));
    const g = document.createElementNS(NS, 'g');
    g.setAttribute('transform', `translate(0,${y})`);
    g.append(...[...s.childNodes].map((n) => n.cloneNode(true)));
    out.append(g);
    y += hh; w = Math.max(w, ww);
  }
  out.setAttribute('width', w); out.setAttribute('height', y);
  return out;
}

// ---------- rendering ----------
let renderQueued = false;
function scheduleRender() {
  if (renderQueued) return;
  renderQueued = true;
  requestAnimationFrame(() => { renderQueued = false; renderAll(); });
}

function scoreVector(W, i, ds = cfg.dataset) {
  const d = ds.X[0][0].length;
  if (cfg.model.param === 'prompt') {
    const p = W.map((r) => r[0]);
    return transpose(cfg.model.Wk).map((row) => dot(row, p));   // Wk^T p
  }
  const z = cfg.model.attention === 'cross' ? ds.Z?.[i] : ds.X[i][ds.query ?? 0];
  if (!z || z.length !== d) return null;
  return matVec(W, z);
}

function renderPlane() {
  if (!cfg) return;
  const ds = dragData ?? cfg.dataset;
  const proj = planeInfo.projection;
  const [e1, e2] = proj.axes;
  const P = (v) => [dot(v, e1), dot(v, e2)];
  const tokens = ds.X.map((seq) => seq.map(P));
  const n = ds.X.length;
  const perUnit = cfg.model.attention === 'cross' || cfg.model.attention === 'self';
  const radius = 0.9 * Math.max(0.25, ...tokens.flat().map(([a, b]) => Math.hypot(a, b)));
  const paths = [], arrows = [], lines = [];
  const units = cfg.model.param === 'prompt' ? [0] : (perUnit ? [...Array(n).keys()] : []);
  const seqOf = (i) => (cfg.model.param === 'prompt' ? -1 : i);
  const snaps = trace.snapshots;
  let maxNorm = 0;
  for (const snap of snaps) maxNorm = Math.max(maxNorm, fro(snap.W));
  if (!(maxNorm > 0)) maxNorm = Infinity;
  const stride = Math.max(1, Math.ceil(snaps.length / 400));
  for (const i of units) {
    const pts = [];
    for (let s = 0; s < snaps.length; s += stride) pts.push(snaps[s]);
    if (snaps.length && pts.at(-1) !== snaps.at(-1)) pts.push(snaps.at(-1));
    const points = [];
    for (const snap of pts) {
      const u = scoreVector(snap.W, i, ds);
      if (!u) continue;
      const q = P(u);
      const pt = [q[0] / maxNorm * radius, q[1] / maxNorm * radius];
      if (pt.every(Number.isFinite)) points.push(pt);
    }
    paths.push({ seq: seqOf(i), points });
  }
  for (const [norm, sol] of Object.entries(refs)) {
    if (sol.status !== 'optimal' && sol.status !== 'max_iterations') continue;
    const nW = fro(sol.W);
    if (!(nW > 0)) continue;
    for (const i of units) {
      const u = scoreVector(sol.W, i, ds);
      if (!u) continue;
      const q = P(u);
      arrows.push({ seq: seqOf(i), ref: norm, to: [q[0] / nW * radius, q[1] / nW * radius] });
    }
  }
  // margin lines of the Frobenius SVM: {x : x.u = x_alpha.u - 1}, exact when u lies in the view plane
  const sol = refs.fro;
  const sel = refSelection;
  if (sol && sol.status === 'optimal' && sel) {
    for (let i = 0; i < n; i++) {
      const u = scoreVector(sol.W, cfg.model.param === 'prompt' ? 0 : i, ds);
      if (!u || sel[i] === undefined) continue;
      const q = P(u);
      const inPlane = Math.abs(dot(u, u) - (q[0] * q[0] + q[1] * q[1])) <= 1e-9 * Math.max(1, dot(u, u));
      if (!inPlane || ds.X[0][0].length === 1) continue;
      lines.push({ seq: i, normal: q, offset: dot(ds.X[i][sel[i]], u) - 1 });
    }
  }
  const last = trace.last();
  const selected = last && last.selected.length === n ? Array.from(last.selected) : null;
  const support = report?.supportTokens ?? supportFromSolution(refs.fro, n);
  panels.plane.update({
    tokens, selected, optimal: scores?.optimal ?? null, support, paths, arrows, lines,
    xlabel: proj.labels[0], ylabel: proj.labels[1], draggable: true, domainKey: `${state.scenario}|${gen}`,
  });
  const noteParts = [];
  noteParts.push('★ selected by the softmax now; ○ optimal token; shaded: support tokens of the Frobenius SVM.');
  if (units.length) noteParts.push(cfg.model.param === 'prompt'
    ? 'Path: W_kᵀp(k) for k = 0…now (shared by all sequences; divided by max_k ‖p(k)‖); arrows: W_kᵀp^mm / ‖p^mm‖.'
    : `Paths: W(k) z_i for k = 0…now, divided by max_k ‖W(k)‖_F (one factor for the whole path); arrows: W^mm z_i / ‖W^mm‖_F (${effectiveRefs().map((r) => `${REF_LABEL[r]} ${r === 'fro' ? 'dashed' : r === 'nuclear' ? 'dotted' : 'dash-dot'}`).join(', ')}); lines: each sequence's margin.`);
  else noteParts.push('Sequence-to-sequence attention: one query per position, so no per-sequence paths are drawn.');
  if (proj.note) noteParts.push(proj.note);
  noteParts.push('Drag a token (or focus it and use the arrow keys) to move it.');
  $('sub-plane').textContent = noteParts.join(' ');
  const svmBad = Object.values(refs).find((s) => s.status === 'infeasible');
  panelMessage('plane', svmBad ? `Infeasible: ${svmBad.message}` : null);
}

function supportFromSolution(sol, n) {
  if (!sol || sol.status !== 'optimal') return null;
  const out = Array.from({ length: n }, () => []);
  for (const [i, t] of sol.support ?? []) if (out[i] && !out[i].includes(t)) out[i].push(t);
  return out;
}

let lastSlowRender = 0;
let renders = 0;
function renderAll(force = false) {
  if (!cfg) { updatePlayerUI(); return; }
  renders++;
  const now = performance.now();
  const show = (id) => force || visible.has(id);
  if (show('plane')) renderPlane();
  const units = unitsOf(cfg);
  const n = cfg.dataset.X.length, T = cfg.dataset.X[0].length;
  const seq2 = units !== n;
  const unitSeq = Array.from({ length: units }, (_, u) => (seq2 ? Math.floor(u / T) : u));
  const unitLabel = Array.from({ length: units }, (_, u) => (seq2 ? `${Math.floor(u / T)}·q${u % T}` : `seq ${u}`));
  // softmax over iterations
  const sm = trace.softmaxSeries();
  if (show('softmax')) panels.softmax.update({ iterations: sm.iterations, T, units, unitSeq, unitLabel, values: sm.values });
  $('sub-softmax').textContent = 'Colour: softmax probability s_it of each token (rows, grouped by sequence; left strip = sequence colour). Selection shows as one bright row per sequence.';
  // current softmax
  const last = trace.last();
  if (last && last.softmax && show('current')) {
    const M = Array.from({ length: units }, (_, u) => Array.from(last.softmax.subarray(u * T, (u + 1) * T)));
    const marks = [];
    for (let u = 0; u < units; u++) {
      marks.push({ r: u, c: last.selected[u], kind: 'selected' });
      if (!seq2 && scores?.optimal) marks.push({ r: u, c: scores.optimal[u], kind: 'optimal' });
    }
    panels.current.update({ items: [{ label: `k = ${last.iteration}`, M, marks }], scheme: 'seq', domain: [0, 1], showValues: true,
      rowNames: unitLabel, rowSeq: unitSeq, colorLabel: 's_it' });
    $('sub-current').textContent = 'Rows: sequences; columns: tokens t = 0…T−1. Solid box: the selected token; dashed: the optimal token.';
  }
  // correlation
  const names = Object.keys(trace.refs);
  const corrKey = names.join(',');
  if (panels.corr.__key !== corrKey) {
    panels.corr.__key = corrKey;
    panels.corr.setSeries(names.map((r) => ({ label: `vs ${REF_STYLE[r].label}`, color: REF_STYLE[r].color, dash: REF_STYLE[r].dash.split(' ').map(Number) })));
  }
  const cs = trace.corrSeries();
  if (show('corr')) panels.corr.update({ x: cs.x, ys: names.map((r) => cs.series[r].map((c) => (c === null ? null : Math.max(1e-16, 1 - c)))) });
  const cNow = trace.correlations();
  $('sub-corr').textContent = names.length
    ? `Log scale; 0 means W(k) points exactly along the SVM direction. Now: ${names.map((r) => `${REF_LABEL[r]} corr = ${fmt(cNow[r], 5)}`).join(', ')}.` +
      (refSelection ? ` SVMs of the selection (${refSelection.join(', ')})${state.selection === 'auto' ? ', followed as the run decides' : ''}.` : '')
    : 'No reference SVM (none selected, or infeasible).';
  // norms and loss
  const tr = trace.series();
  if (show('norms')) {
    panels.norms.update({ x: tr.iteration, ys: [tr.normFro, tr.normNuc, tr.normLp] });
    lossChart.update({ x: tr.iteration, ys: [tr.loss] });
  }
  $('sub-norms').textContent = `‖W(k)‖ grows without bound (the direction is what converges); p = ${fmt(cfg.train.traceP, 3)} for ‖·‖_p. The loss decreases toward its infimum.`;
  // spectrum + weights (at most ~15 Hz while playing)
  if (force || !run.playing || now - lastSlowRender > 66) {
    lastSlowRender = now;
    renderSlow(show);
  }
  updatePlayerUI();
  if (firstFrameAt === null && trace.frames() > 0) firstFrameAt = performance.now() - t0;
}

function renderSlow(show = () => true) {
  const Wk = trace.currentWeights();
  const normalized = (W) => { const f = fro(W); return f > 0 ? W.map((r) => r.map((x) => x / f)) : null; };
  const series = [];
  const Wn = Wk ? normalized(Wk) : null;
  if (Wn) series.push({ label: 'W(k)', color: themeColors().fg, values: singularValues(Wn), width: 1.5 });
  for (const r of ['fro', 'nuclear', 'lp']) {
    const s = refs[r];
    if (!s || s.status !== 'optimal') continue;
    const n = normalized(s.W);
    if (n) series.push({ label: REF_STYLE[r].label, color: REF_STYLE[r].color, dash: REF_STYLE[r].dash, values: singularValues(n), hollow: true });
  }
  if (show('spectrum')) panels.spectrum.update({ series });
  const isPrompt = cfg.model.param === 'prompt';
  $('sub-spectrum').textContent = isPrompt ? 'A prompt is a vector: its "spectrum" is one value (1 after normalization).'
    : 'Singular values after dividing by the Frobenius norm. The nuclear solution (the (K,Q) limit) has few non-zero values: low rank.';
  const items = [];
  if (Wn) items.push({ label: `W(k), k = ${trace.iterationNow()}`, M: Wn });
  for (const r of ['fro', 'nuclear', 'lp']) {
    const s = refs[r];
    if (!s || s.status !== 'optimal') continue;
    const n = normalized(s.W);
    if (n) items.push({ label: { fro: 'Frobenius', nuclear: 'nuclear', lp: `l_p, p = ${fmt(lpP(), 3)}` }[r], M: n });
  }
  if (show('weights')) panels.weights.update({ items, scheme: 'div', colorLabel: 'W/‖W‖_F' });
  $('sub-weights').textContent = `${isPrompt ? 'p(k) and p^mm as columns' : 'W(k) and the SVM solutions W^mm (d × d)'}, each divided by its Frobenius norm, on one diverging scale (purple > 0, orange < 0). Under l_p mirror descent with small p, W(k) and W^mm_p share their sparsity.`;
  if (show('readout')) renderReadout();
}

function renderReadout() {
  const rows = Object.entries(refs).map(([k, s]) => ({ label: REF_LABEL[k] + (k === 'lp' ? ` (p = ${fmt(lpP(), 3)})` : ''), ...s }));
  if (headSvm) rows.push({ label: 'head v^mm', ...headSvm });
  const n = cfg.dataset.X.length;
  let verdict = null;
  if (report && !report.error) {
    const labels = { globally_optimal: 'Globally optimal selection', locally_optimal: 'Locally optimal selection', neither: 'Neither globally nor locally optimal', infeasible: 'Infeasible selection' };
    const kind = { globally_optimal: 'global', locally_optimal: 'local', neither: 'neither', infeasible: 'infeasible' }[report.verdict];
    verdict = { label: labels[report.verdict] ?? report.verdict, kind, explanation: report.explanation };
  } else if (refs.fro && cfg.model.param === 'prompt' && scores && refSelection) {
    verdict = promptVerdict();
  } else if (report?.error) {
    verdict = { label: 'No verdict', kind: 'none', explanation: report.error };
  }
  const support = report?.supportTokens ?? supportFromSolution(refs.fro, n);
  const last = trace.last();
  panels.readout.update({
    rows, verdict, selection: refSelection ?? (last ? Array.from(last.selected).slice(0, n) : []), optimal: scores?.optimal, support,
    selectionLabel: refSelection ? `the selection (${refSelection.join(', ')})` : null,
    note: cfg.model.head === 'relu' ? 'ReLU head: several tokens can keep weight; the one-token SVM above is only a partial reference (the generalized SVM is not exposed by the engine API yet).' : null,
  });
}

function promptVerdict() {
  const sol = refs.fro;
  if (sol.status === 'infeasible') return { label: 'Infeasible selection', kind: 'infeasible', explanation: sol.message };
  const opt = scores.optimal;
  if (refSelection.every((a, i) => a === opt[i])) return { label: 'Globally optimal selection', kind: 'global', explanation: 'every sequence selects its highest-scoring token.' };
  const sup = supportFromSolution(sol, refSelection.length) ?? [];
  const ok = refSelection.every((a, i) => (sup[i] ?? []).every((t) => scores.gamma[i][a] > scores.gamma[i][t]));
  return ok ? { label: 'Locally optimal selection', kind: 'local', explanation: 'every support token scores lower than the selected one.' }
    : { label: 'Neither globally nor locally optimal', kind: 'neither', explanation: 'a support token scores at least as high as the selected one.' };
}

const fmt = (v, digits = 4) => (Number.isFinite(v) ? Number(v.toPrecision(digits)).toString() : '—');

// ---------- visibility: panels off screen are not redrawn while playing ----------
const visible = new Set(PANELS.map((p) => p.id));
const io = new IntersectionObserver((entries) => {
  for (const e of entries) {
    const id = e.target.id.replace(/^panel-/, '');
    if (e.isIntersecting) visible.add(id); else visible.delete(id);
  }
  scheduleRender();
}, { rootMargin: '200px' });
document.querySelectorAll('.panel').forEach((p) => io.observe(p));

// ---------- resize ----------
let resizes = 0;
const ro = new ResizeObserver(() => {
  resizes++;
  for (const p of Object.values(panels)) p.resize?.();
  lossChart.resize();
  scheduleRender();
});
document.querySelectorAll('.panel .body').forEach((b) => ro.observe(b));

// ---------- test hook ----------
function markReady() {
  if (window.__lab.ready) return;
  window.__lab.ready = true;
  window.__ready = true;
  performance.mark('lab-first-frame');
}
window.__lab = {
  ready: false,
  get state() { return structuredClone(state); },
  get lastFrame() {
    const l = trace.last();
    return l && { iteration: l.iteration, selected: Array.from(l.selected), selectedProbability: Array.from(l.selectedProbability), loss: l.loss, normFro: l.normFro };
  },
  get playing() { return run.playing; },
  get done() { return run.done; },
  get busy() { return run.inFlight || solving > 0; },
  get iteration() { return trace.iterationNow(); },
  get maxIterations() { return cfg?.iterations ?? null; },
  get firstFrameMs() { return firstFrameAt; },
  get renders() { return renders; },
  get resizes() { return resizes; },
  redraw: () => renderAll(true),
  _panels: panels,
  correlations: () => trace.correlations(),
  solution: (norm = 'fro') => refs[norm] && structuredClone({ status: refs[norm].status, W: refs[norm].W, objective: refs[norm].objective, gap: refs[norm].gap, support: refs[norm].support, message: refs[norm].message }),
  referenceSelection: () => refSelection && [...refSelection],
  verdict: () => report?.verdict ?? (cfg?.model.param === 'prompt' && refs.fro && scores && refSelection ? promptVerdict().kind : null),
  scenarioNames: () => [...SCENARIO_IDS],
  messages: () => [...messages.values()],
  set: (patch) => setState(patch),
  play, pause: stopPlayer, step: (k) => advance(k ?? state.speed), reset: () => restart(),
  exportPanel: async (id, fmt) => {
    const out = await exportPanel(id, fmt);
    if (fmt === 'svg') return out;
    const buf = new Uint8Array(await out.arrayBuffer());
    let bin = ''; for (const b of buf) bin += String.fromCharCode(b);
    return `data:image/png;base64,${btoa(bin)}`;
  },
  panels: PANELS.map((p) => p.id),
  tokenClientPosition: (i, t) => panels.plane.tokenClientPosition(i, t),
  plotted: () => plottedData(),
  dataset: () => cfg && structuredClone(cfg.dataset),
};

function plottedData() {
  const tr = trace.series();
  const cs = trace.corrSeries();
  return {
    loss: Array.from(tr.loss), normFro: Array.from(tr.normFro), normNuc: Array.from(tr.normNuc), normLp: Array.from(tr.normLp),
    corr: Object.fromEntries(Object.entries(cs.series).map(([k, v]) => [k, v.filter((c) => c !== null)])),
    softmax: Array.from(trace.softmaxSeries().values),
    weights: trace.currentWeights(),
    finite: allFinite([tr.loss, tr.normFro, trace.currentWeights(), ...Object.values(cs.series).map((v) => v.filter((c) => c !== null))]),
  };
}

if (innerWidth < 760) $('controls-details').open = false;
bindControls();
syncControls();
boot();
