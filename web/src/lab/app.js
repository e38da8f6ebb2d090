// The web lab: one state (state.js) -> a scenario from the engine (in the worker) with the state's
// overrides -> a training run stepped by the player -> panels. The main thread only draws: every
// engine call (scenario, validate, solve, analyze, training steps) runs in the worker.
// This file holds the lab's state and wiring; the loop is player.js, a frame's drawing render.js,
// what the controls show controls.js, the panel exports lab-export.js, the panels in words describe.js.
// The page's markup comes with the HTML (layout.js, written at build time): this module wires it.
// First import: the engine's worker starts (and fetches and compiles the wasm) while the rest of the
// lab's code is evaluated.
import { earlyEngine } from './engine-early.js';
import '../styles/lab.css';
import '../real/real.css';
import { decodeHash, encodeHash, updateState, roundDataset, datasetShapeError, SCENARIO_IDS } from './state.js';
import { SCENARIO_INFO, REF_LABEL } from './scenarios.js';
import { buildLayout, PANELS, formulaSlot } from './layout.js';
import { dot, allFinite } from './linalg.js';
import { scenarioOptions, sphereArgs, buildConfig, initialWeights, validationKind, lpP as configLpP,
  effectiveRefs as configEffectiveRefs, isMD } from './config.js';
import { computeProjection, verdictOf, NORM_SERIES } from './views.js';
import { createLabRenderer } from './render.js';
import { createPlayer } from './player.js';
import { createFrameQueue } from './frame-queue.js';
import { setText, setDisabled } from './dom-write.js';
import { CONTROL_IDS, controlValues, jointChecked, optionShown, dataHint, dataNote, variantLabels } from './controls.js';
import { TraceStore } from './trace.js';
import { currentSelection, defaultSelection, solveReferences, createFollower } from './reference-follower.js';
import { createTokenPlane } from '../plots/tokenplane.js';
import { createTimeHeatmap, createMatrices } from '../plots/heatmaps.js';
import { createCurves } from '../plots/curves.js';
import { createSpectrum } from '../plots/spectrum.js';
import { createReadout } from '../plots/readout.js';
import { download } from '../plots/export.js';
import { panelImage, panelSvg, datasetText } from './lab-export.js';
import { describePanel, runSummary } from './describe.js';
import { registerFigure, announce, onPrint } from '../access/figure-access.js';

const t0 = performance.now();
// Scenarios with a view of their own (SPEC section 6, web/src/real/) are not engine scenarios.
const ENGINE_SCENARIOS = SCENARIO_IDS.filter((s) => !SCENARIO_INFO[s].own);
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
  corr: createCurves($('body-corr'), { xlabel: 'iteration k', y: { label: '1 − corr · D_p (dotted)', log: true }, series: [], height: 220 }),
  norms: createCurves($('body-norms'), { xlabel: 'iteration k', y: { label: 'norm' }, height: 170, series: NORM_SERIES }),
  spectrum: createSpectrum($('body-spectrum')),
  weights: createMatrices($('body-weights')),
  readout: createReadout($('body-readout')),
};
const lossChart = createCurves($('body-norms'), {
  xlabel: 'iteration k', y: { label: 'loss L(W(k))' }, height: 150,
  series: [{ label: 'loss', color: 'fg' }],
});
const renderer = createLabRenderer({ $, panels, lossChart });

// Each drawn panel says what it shows now (its text alternative) and prints as a picture of it
// (access/figure-access.js); the readout is text already.
const figures = Object.fromEntries(PANELS.filter((p) => p.id !== 'readout').map((p) => [p.id, registerFigure($(`body-${p.id}`), {
  title: p.title,
  describe: () => (cfg ? describePanel(p.id, viewContext()) : 'Loading.'),
  snapshot: () => (cfg ? panelSvg(p.id, panels, lossChart) : null),
  interactive: p.id === 'plane',
})]));
const describeFigures = (now = false) => { for (const f of Object.values(figures)) f.update(now); };
// Printing: every panel drawn as of now, in the light theme (paper is white), then back.
let printTheme = null;
onPrint({
  before() {
    $('print-link').textContent = location.href;
    printTheme = document.documentElement.dataset.theme;
    if (printTheme !== 'light') document.documentElement.dataset.theme = 'light';
    renderAll(true);
  },
  after() {
    if (printTheme && printTheme !== 'light') { document.documentElement.dataset.theme = printTheme; renderAll(true); }
    printTheme = null;
  },
});

// ---------- run state ----------
let client = null;
let gen = 0;                  // bumps on every restart; stale async results are dropped
const run = { id: null, maxIterations: 0, done: false }; // (playing, inFlight: the player's)
let cfg = null;               // { scenario, dataset, model, train, init, iterations }
let baseDataset = null;       // the scenario's own data (projection basis, "scenario data" button)
let scores = null;            // { gamma, optimal, ties }
let trace = new TraceStore();
let refs = {};                // norm -> Solution (current reference selection)
let refSelection = null;      // the selection the references were solved for
let report = null;            // analysis of refSelection (verdict, support tokens)
let headSvm = null;
let generalizedRef = null;    // ReLU heads: the generalized SVM's prediction W_fin + R W_dir (as a reference)
let refGen = 0;
let solving = 0;
let firstFrameAt = null;
let firstFrameDone;
const firstFrame = new Promise((resolve) => { firstFrameDone = resolve; });
// After the browser has painted and is idle (work the first frame does not need).
const idleThen = (f) => (typeof requestIdleCallback === 'function' ? requestIdleCallback(() => f(), { timeout: 1500 }) : setTimeout(f, 200));

const effectiveRefs = () => configEffectiveRefs(state, cfg);
const lpP = () => configLpP(state, cfg);

async function boot() {
  try {
    client = await earlyEngine;
    $('engine-version').textContent = await client.version();
    const names = await client.scenarioNames();
    window.__lab.engineScenarios = names;
    const missing = ENGINE_SCENARIOS.filter((s) => !names.includes(s));
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

// ---------- restart: drop the run -> scenario -> config (validated) -> run -> first drawing ----------
let restarting = 0;
async function restart(options = {}) {
  restarting++;
  try { await restartInner(options); } finally { restarting--; }
}
async function restartInner({ autoplay = false } = {}) {
  const my = ++gen;
  const wasPlaying = player.playing || autoplay || resumeAfterDrag;
  dropRun();
  if (state.scenario === 'real-images') { await showRealImages(my); return; }
  hideRealImages();
  syncControls();
  writeHash();
  // each phase returns null (or false) when the restart ends there: a newer one took over, or it
  // failed and said why
  const base = await scenarioBase(my);
  if (!base) return;
  if (state.data) {
    const err = datasetShapeError(state.data);
    if (err) dropCustomData(`The dataset cannot be used: ${err}. Showing the scenario's data instead.`);
  }
  const config = await usableConfig(my, base);
  if (!config) return;
  cfg = config;
  baseDataset = base.dataset;
  planeInfo.projection = computeProjection(cfg, baseDataset);
  syncControls();
  try {
    scores = await client.scores(cfg.dataset);
  } catch (e) { scores = null; }
  if (my !== gen) return;
  if (!await startTraining(my)) return;
  await firstDraw(my, wasPlaying);
}

// The previous run ends: its engine run, trace, references and messages.
function dropRun() {
  resumeAfterDrag = false;
  stopPlayer();
  if (run.id !== null) client.cancel(run.id);
  run.id = null; run.done = false;
  trace = new TraceStore();
  refs = {}; report = null; refSelection = null; headSvm = null; generalizedRef = null;
  follower.reset();
  setMessage('data', null); setMessage('engine-run', null);
}

// The scenario from the engine, with the sphere generator's data if the state asks for it.
async function scenarioBase(my) {
  let base;
  try {
    base = await client.scenario(state.scenario, scenarioOptions(state));
  } catch (e) {
    if (my !== gen) return null;
    setMessage('data', `Scenario "${state.scenario}": ${e.message}`);
    renderAll();
    return null;
  }
  if (my !== gen) return null;
  if (state.generator !== 'sphere') return base;
  try {
    base = { ...base, dataset: await client.sphere(...sphereArgs(state, base.dataset)) };
  } catch (e) {
    if (my !== gen) return null;
    setMessage('data', `Sphere generator: ${e.message}`);
    markReady();
    return null;
  }
  return my !== gen ? null : base;
}

// The link's or the user's dataset is dropped (the scenario's data is shown instead).
function dropCustomData(text) {
  setMessage('data', text);
  state = { ...state, data: null };
  writeHash();
}

// The state's configuration once the engine accepts its data; custom data it rejects gives way to
// the scenario's; null when the scenario's own data does not fit the settings.
async function usableConfig(my, base) {
  const config = buildConfig(state, base);
  try {
    await client.validate(config.dataset, validationKind(config));
    return config;
  } catch (e) {
    if (my !== gen) return null;
    if (state.data) {
      dropCustomData(`The dataset cannot be used: ${e.message}. Showing the scenario's data instead.`);
      return buildConfig(state, base);
    }
    setMessage('data', `The scenario's data cannot be used with these settings: ${e.message}`);
    cfg = null; baseDataset = base.dataset;
    renderAll();
    markReady();
    return null;
  }
}

// Starts the training run and takes its first frame (k = 0).
async function startTraining(my) {
  try {
    const id = await client.startRun({ dataset: cfg.dataset, model: cfg.model, train: cfg.train, init: cfg.init }, cfg.iterations);
    if (my !== gen) { client.cancel(id); return false; }
    run.id = id; run.maxIterations = cfg.iterations;
    trace.setInitial(initialWeights(cfg));
    const f0 = await client.step(id, 0);
    if (my !== gen) return false;
    trace.ingest(f0);
    return true;
  } catch (e) {
    if (my !== gen) return false;
    setMessage('engine-run', `Training could not start: ${e.message}`);
    renderAll();
    markReady();
    return false;
  }
}

// The first drawing (tokens, softmax, curves) does not wait for the SVM solves in the worker;
// arrows, margins and the readout follow when they arrive.
async function firstDraw(my, wasPlaying) {
  const solved = refreshReferences();
  await new Promise((resolve) => renderStaggered(resolve));
  if (my !== gen) return;
  if (firstFrameAt === null) {
    firstFrameAt = performance.now() - t0;
    performance.mark('lab-first-frame');
    firstFrameDone();
  }
  await solved;
  if (my !== gen) return;
  renderAll(true);
  describeFigures(true);
  markReady();
  if (wasPlaying) play();
}

// ---------- real images (web/src/real/lab-real.js): a view of its own, loaded when opened ----------
let realView = null;
async function showRealImages(my) {
  document.documentElement.dataset.view = 'real-images';
  cfg = null;
  writeHash();
  try {
    const { mountRealImages } = await import('../real/lab-real.js');
    if (my !== gen) return;
    realView ??= mountRealImages({ layout: document.querySelector('.layout'), scenarioOptions: $('ctl-scenario').innerHTML, setState });
    realView.show(state);
  } catch (e) {
    setMessage('engine-run', `The real-images view could not load: ${e.message}`);
  }
  markReady();
}
function hideRealImages() {
  delete document.documentElement.dataset.view;  // (set by prepaint.js for a page opened on the view)
  if (realView) { realView.hide(); return; }
  // opened on the view, left before its module came: the markup's attributes as prepaint.js set them
  document.getElementById('real-images')?.setAttribute('hidden', '');
  document.querySelector('.layout').hidden = false;
  document.querySelector('.topbar .player').hidden = false;
}

// ---------- reference SVMs (reference-follower.js, shared with the embedded figures) ----------
async function refreshReferences(selection = currentSelection(cfg, trace, state.selection) ?? defaultSelection(cfg, scores), dataset = cfg?.dataset) {
  if (!cfg || !dataset) return;
  const my = gen, mine = ++refGen;
  solving++;
  try {
    const out = await solveReferences(client, { cfg, dataset, selection, refList: effectiveRefs(), lpP: lpP() });
    if (my !== gen || mine !== refGen) return;
    headSvm = out.headSvm;
    refs = out.refs;
    refSelection = selection ?? out.report?.selection ?? scores?.optimal ?? null;
    report = out.report;
    applyTraceReferences();
    const bad = Object.entries(refs).find(([, s]) => s.status === 'infeasible' || s.status === 'boundary' || s.status === 'error');
    setMessage('svm', bad ? `The ${REF_LABEL[bad[0]]} SVM has no solution for this selection: ${bad[1].message || bad[1].status}` : null);
    scheduleRender();
  } finally {
    solving--;
  }
}

function allRefs() { return generalizedRef ? { ...refs, gen: generalizedRef } : refs; }
function applyTraceReferences() {
  trace.setReferences(Object.fromEntries(Object.entries(allRefs())
    .filter(([, s]) => s.status === 'optimal' || s.status === 'max_iterations' || s.status === 'boundary').map(([k, s]) => [k, s.W])), headVector(headSvm),
    cfg?.train.traceP);
}
// The head SVM's solution as a vector (its W is d x 1), or null.
function headVector(h) {
  if (!h || !(h.status === 'optimal' || h.status === 'max_iterations' || h.status === 'boundary') || !h.W) return null;
  return h.W.flat();
}

// ReLU heads keep several tokens: the generalized SVM (SPEC section 3) of the current softmax,
// with W_fin + R W_dir (R fitted to the current W) as an extra reference. Solved when the run
// pauses or ends (the kept sets are only meaningful once the softmax has settled).
async function refreshGeneralized() {
  if (!cfg || cfg.model.head !== 'relu' || cfg.model.param === 'prompt' || !['cross', 'self'].includes(cfg.model.attention)) return;
  const last = trace.last();
  const W = trace.currentWeights();
  if (!last?.softmax || !W || trace.iterationNow() === 0) return;
  const my = gen;
  const T = cfg.dataset.X[0].length;
  const softmax = Array.from({ length: last.selected.length }, (_, u) => Array.from(last.softmax.subarray(u * T, (u + 1) * T)));
  solving++;
  try {
    // the softmax carries the queries: generalized takes no attention kind
    const g = await client.generalized({ dataset: cfg.dataset, softmax, threshold: 1e-3, norm: 'fro', W });
    if (my !== gen) return;
    if (g.direction.status !== 'optimal') { generalizedRef = null; return; }
    const R = g.radius ?? 0;
    const P = g.finite.map((row, a) => row.map((x, b) => x + R * g.direction.W[a][b]));
    generalizedRef = { ...g.direction, W: P, sets: g.selectedSets, radius: R };
    applyTraceReferences();
    scheduleRender();
  } catch (e) {
    if (my === gen) generalizedRef = null;
  } finally {
    solving--;
  }
}

const follower = createFollower({ refresh: (sel) => refreshReferences(sel), solvedFor: () => refSelection, generation: () => gen });

// ---------- player (player.js runs the loop; these are the lab's rules) ----------
const player = createPlayer({
  canStep: () => !!run.id && !run.done,
  step: (k) => client.step(run.id, k),
  onFrame,
  onError: (e) => { setMessage('engine-run', `Training failed: ${e.message}`); stopPlayer(); },
  onChange: () => updatePlayerUI(),
  speed: () => state.speed,
  generation: () => gen,
});
const play = () => { player.play(); };
const stopPlayer = () => player.stop();
const advance = (k) => player.advance(k);

// One engine frame: into the trace; the references follow the run's selection once it is decided;
// the generalized SVM is solved once the run pauses or ends; a redraw is queued.
function onFrame(frame) {
  trace.ingest(frame);
  if (frame.done) {
    run.done = true;
    if (frame.stopped && frame.stopReason) setMessage('engine-run', `The run stopped at k = ${trace.iterationNow()}: ${frame.stopReason}`);
    stopPlayer();
    announce($('btn-play'), runSummary(viewContext(), 'The run ended'));
  }
  const sel = currentSelection(cfg, trace, state.selection);
  if (sel) follower.follow(sel);
  if (!player.playing) refreshGeneralized();
  scheduleRender();
}

// Called on every frame (dom-write.js: only what changed is written).
// The play button's visible label is its name (the icon is hidden from screen readers).
function updatePlayerUI() {
  const b = $('btn-play');
  const playing = player.playing;
  setText(b.querySelector('.ico'), playing ? '❚❚' : (run.done ? '✓' : '▶'));
  setText(b.querySelector('.lbl'), playing ? 'Pause' : (run.done ? 'Done' : 'Play'));
  setDisabled(b, !run.id || (run.done && !playing));
  setDisabled($('btn-step'), !run.id || run.done || playing);
  setText($('iter-out'), `k = ${trace.iterationNow()} / ${cfg?.iterations ?? '—'}`);
}

$('btn-play').onclick = () => {
  if (player.playing) {
    stopPlayer(); refreshGeneralized();
    describeFigures(true);
    announce($('btn-play'), runSummary(viewContext(), 'Paused'));
  } else play();
};
$('btn-step').onclick = () => advance(state.speed);
$('btn-reset').onclick = () => restart();
$('ctl-speed').onchange = (e) => setState({ speed: Number(e.target.value) });

// ---------- dragging tokens ----------
let dragData = null;
let resumeAfterDrag = false;   // a drag pauses the player; the restarted run plays on
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
    if (player.playing) { resumeAfterDrag = true; stopPlayer(); }
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

// ---------- controls (controls.js: what they show for the state) ----------
function syncControls() {
  const info = SCENARIO_INFO[state.scenario];
  $('ctl-scenario').value = state.scenario;
  $('ctl-speed').value = String(state.speed);
  const eff = controlValues(state, cfg, lpP());
  syncInputs(eff);
  syncOptions(info, eff);
  if (document.activeElement !== $('ctl-json') && cfg) $('ctl-json').value = datasetText(cfg.dataset);
  syncCaption(info);
  updatePlayerUI();
}

// The fields (except the one being edited), the check boxes and the reference norms.
function syncInputs(eff) {
  for (const k of CONTROL_IDS) {
    const el = $(`ctl-${k}`);
    if (el && document.activeElement !== el && eff[k] !== undefined) el.value = String(eff[k]);
  }
  $('ctl-localCase').checked = !!state.localCase;
  $('ctl-joint').checked = jointChecked(state, cfg);
  const refList = effectiveRefs();
  for (const r of ['fro', 'nuclear', 'lp']) $(`ref-${r}`).checked = refList.includes(r);
}

// The options that apply to this scenario, the data's hint and the variant's labels.
function syncOptions(info, eff) {
  document.querySelectorAll('[data-opt]').forEach((el) => { el.hidden = !optionShown(info, state, el.dataset.opt); });
  document.querySelector('[data-show="md"]').hidden = !isMD(eff.optimizer);
  document.querySelector('[data-show="joint"]').hidden = !$('ctl-joint').checked;
  $('ctl-generator').value = state.generator;
  $('data-hint').textContent = dataHint(state);
  const variantSel = $('ctl-variant');
  [variantSel.options[0].text, variantSel.options[1].text] = variantLabels(state.scenario);
}

function syncCaption(info) {
  $('sc-title').textContent = info.title;
  $('sc-caption').textContent = info.caption;
  const dn = dataNote(state);
  $('sc-datanote').textContent = dn;
  $('sc-datanote').hidden = !dn;
  const fdiv = $('sc-formulas');
  if (fdiv.dataset.for !== state.scenario) {
    fdiv.dataset.for = state.scenario;
    renderFormulas(fdiv, state.scenario);
  }
}

// KaTeX (its code, CSS and fonts) loads after the first frame, in a chunk of its own; the formulas
// are typeset off screen and moved into the intro's fixed-height slots once their fonts have loaded,
// so typesetting moves nothing on the page (katex-render.js).
let katexRender = null;
function renderFormulas(div, scenario) {
  const formulas = SCENARIO_INFO[scenario].formulas;
  if (div.children.length !== formulas.length) div.innerHTML = formulaSlot.repeat(formulas.length);
  div.hidden = !formulas.length;
  const typeset = () => {
    katexRender ??= import('./katex-render.js');
    katexRender.then(({ typesetInto }) => typesetInto(div, formulas, () => div.dataset.for === scenario)).catch(() => {});
  };
  if (firstFrameAt === null) firstFrame.then(() => idleThen(typeset)); else typeset();
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
  const reject = (message) => {
    $('json-msg').textContent = `Dataset JSON: ${message}`;
    setMessage('json', `Dataset JSON: ${message}. The previous data is kept.`);
  };
  const err = datasetShapeError(obj);
  if (err) return reject(err);
  let file;
  try { file = await datasetOfFile(obj); } catch (e) { return reject(e.message); }
  try { await client.validate(file.dataset, cfg?.model.param === 'prompt' ? 'seq2seq' : (cfg?.model.attention ?? 'cross')); } catch (e) {
    return reject(e.message);
  }
  $('json-msg').textContent = file.unused.length
    ? `Applied (not used here: ${file.unused.join(', ')}; the lab's controls set them).` : 'Applied.';
  setMessage('json', null);
  setState({ data: roundDataset(file.dataset, 6) });
}

// A CLI dataset file may hold more than the dataset (the core's datasetFileExtras: attention, W,
// a scenario's model/train/init, ...): the lab takes the dataset's fields, names the extras it does
// not use, and rejects any other key as the CLI does, listing the accepted ones.
let vocabulary = null;
async function datasetOfFile(obj) {
  vocabulary ??= await client.vocabulary();
  const fields = vocabulary.fields.dataset, extras = vocabulary.datasetFileExtras;
  const unknown = Object.keys(obj).filter((k) => !fields.includes(k) && !extras.includes(k));
  if (unknown.length) {
    throw new Error(`${unknown.join(', ')} ${unknown.length > 1 ? 'are not fields' : 'is not a field'}; ` +
      `expected one of ${[...fields, ...extras].join(', ')}`);
  }
  const dataset = Object.fromEntries(Object.entries(obj).filter(([k]) => fields.includes(k)));
  return { dataset, unused: Object.keys(obj).filter((k) => extras.includes(k)) };
}

function flash(btn, text) { const old = btn.textContent; btn.textContent = text; setTimeout(() => { btn.textContent = old; }, 1200); }

// ---------- exports ----------
function refNames() { return Object.keys(trace.corrSeries().series); }
function traceJSON() {
  return { state, scenario: state.scenario, config: cfg && { model: cfg.model, train: cfg.train, iterations: cfg.iterations },
    dataset: cfg?.dataset, references: Object.fromEntries(Object.entries(refs).map(([k, s]) => [k, { status: s.status, W: s.W, objective: s.objective, gap: s.gap, support: s.support }])),
    trace: trace.toJSON() };
}
async function exportPanel(id, fmt) {
  renderAll(true);
  return panelImage(id, fmt, panels, lossChart);
}

// ---------- rendering (render.js draws; here: when, and with which view context) ----------
const scheduleRender = createFrameQueue(() => renderAll());

function viewContext() {
  return { cfg, trace, refs: allRefs(), refSelection, report, scores, headSvm, projection: planeInfo.projection,
    dataset: dragData ?? cfg.dataset, refList: effectiveRefs(), lpP: lpP(), followSelection: state.selection === 'auto' };
}

function renderPlane(ctx = viewContext()) {
  if (!cfg || !planeInfo.projection) return;
  renderer.plane(ctx, `${state.scenario}|${gen}`);
}

let renders = 0;
let staggered = false;
// The first drawing of a run is spread over several tasks (one per panel), so that no main-thread
// task is long; later frames redraw incrementally.
function renderStaggered(done) {
  const ctx = viewContext();
  const jobs = renderer.firstDrawJobs(ctx, () => renderPlane(ctx));
  const my = gen;
  staggered = true;
  const next = () => {
    // a newer run took over: still resolve, or the superseded restart would wait forever (and the
    // page would stay "busy")
    if (my !== gen) { staggered = false; done?.(); return; }
    const job = jobs.shift();
    if (!job) { staggered = false; updatePlayerUI(); done?.(); return; }
    job();
    setTimeout(next, 0);
  };
  next();
}

function renderAll(force = false) {
  if (!cfg) { updatePlayerUI(); return; }
  if (staggered && !force) return;
  renders++;
  const ctx = viewContext();
  renderer.frame(ctx, { force, playing: player.playing, show: (id) => force || visible.has(id), plane: () => renderPlane(ctx) });
  updatePlayerUI();
  describeFigures(force);
}

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
// Only panels whose width changed are redrawn, each in a task of its own.
const widths = new Map();
const resizeQueue = new Set();
let resizeTimer = null;
const ro = new ResizeObserver((entries) => {
  for (const e of entries) {
    const id = e.target.id.replace(/^body-/, '');
    const w = Math.round(e.contentRect.width);
    if (widths.get(id) === w) continue;
    const first = !widths.has(id);
    widths.set(id, w);
    if (!first) resizeQueue.add(id);
  }
  if (!resizeQueue.size || resizeTimer) return;
  resizes++;
  const step = () => {
    const [id] = resizeQueue;
    if (id === undefined) { resizeTimer = null; return; }
    resizeQueue.delete(id);
    const w = widths.get(id);
    panels[id]?.resize?.(w);
    if (id === 'norms') lossChart.resize(w);
    resizeTimer = setTimeout(step, 0);
  };
  resizeTimer = setTimeout(step, 0);
});
document.querySelectorAll('.panel .body').forEach((b) => ro.observe(b));

// ---------- test hook ----------
function markReady() {
  firstFrameDone();  // (a page that never draws a token panel, e.g. real images, still loads the rest)
  if (window.__lab.ready) return;
  window.__lab.ready = true;
  window.__ready = true;
}
window.__lab = {
  ready: false,
  get state() { return structuredClone(state); },
  get lastFrame() {
    const l = trace.last();
    return l && { iteration: l.iteration, selected: Array.from(l.selected), selectedProbability: Array.from(l.selectedProbability), loss: l.loss, normFro: l.normFro };
  },
  get playing() { return player.playing; },
  get done() { return run.done; },
  get busy() { return player.inFlight || solving > 0 || restarting > 0; },
  get iteration() { return trace.iterationNow(); },
  get maxIterations() { return cfg?.iterations ?? null; },
  get firstFrameMs() { return firstFrameAt; },
  get renders() { return renders; },
  get resizes() { return resizes; },
  redraw: () => renderAll(true),
  _panels: panels,
  correlations: () => trace.correlations(),
  solution: (norm = 'fro') => {
    const s = allRefs()[norm];
    return s && structuredClone({ status: s.status, W: s.W, objective: s.objective, gap: s.gap, support: s.support, message: s.message });
  },
  referenceSelection: () => refSelection && [...refSelection],
  verdict: () => (report && !report.error ? report.verdict : null),
  verdictView: () => (cfg ? verdictOf(viewContext()) : null),
  report: () => report && structuredClone(report),
  scenarioNames: () => [...ENGINE_SCENARIOS],
  real: () => realView?.info() ?? null,
  realView: () => realView,
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
  const hn = trace.headNorms();
  return {
    loss: Array.from(tr.loss), normFro: Array.from(tr.normFro), normNuc: Array.from(tr.normNuc), normLp: Array.from(tr.normLp),
    headNorm: hn ? hn.y.filter((v) => v !== null) : null,
    legends: Object.fromEntries(['corr', 'norms'].map((id) => [id, [...document.querySelectorAll(`#body-${id} .u-legend .u-series .u-label`)].map((e) => e.textContent)])),
    corr: Object.fromEntries(Object.entries(cs.series).map(([k, v]) => [k, v.filter((c) => c !== null)])),
    divergence: Object.fromEntries(Object.entries(trace.divergenceSeries().series).map(([k, v]) => [k, v.filter((c) => c !== null)])),
    divergenceP: trace.divergenceSeries().p,
    softmax: Array.from(trace.softmaxSeries().values),
    weights: trace.currentWeights(),
    finite: allFinite([tr.loss, tr.normFro, trace.currentWeights(), ...Object.values(cs.series).map((v) => v.filter((c) => c !== null))]),
  };
}

bindControls();
syncControls();
boot();
// The full experiments (web/src/experiments) at the foot of the page: their code loads once the first
// frame is drawn and the page is idle.
firstFrame.then(() => idleThen(() => import('../experiments/panel.js')
  .then(({ mountExperimentPanel }) => mountExperimentPanel(document.getElementById('experiment-panel')))));
