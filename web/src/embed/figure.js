// One embedded figure: a lab state (scenario + overrides) run in the engine's worker and drawn with
// the lab's panel components (web/src/plots) into a compact frame: a header with the player
// (play/pause, reset), the chosen panels, a compact legend, an optional caption and an "open in
// the lab" link. Used by the iframe page (embed-page.js) and by the <attnsvm-figure> element
// (element.js); neither knows about the other.
//
// createFigure(root, options) -> figure
//   options: { client: Promise<engine client (lab/engine-client.js shape)>, or a function that
//              returns one (called at the start: no worker before a figure starts), state (lab state),
//              panels: string[], caption: string|null ('scenario': the scenario's own), labUrl,
//              autoplay: bool, speed: iterations per frame (default state.speed), notice: text shown
//              above the panels in a box the reader can dismiss (the author's mistakes in the
//              settings), page: the figure is the whole page (the iframe: headings), dark: bool,
//              deferStart: build only the frame now (its sizes reserved) and wait for start(),
//              onUpdate(fig) }
//   figure:  { start(), play(), pause(), reset(), setVisible(bool), destroy(), info() } ; start()
//            begins the run (once; returns a Promise resolved when the first drawing is done, as
//            a series of short tasks: start-queue.js); info() is the test
//            hook: { ready, playing, done, started, iteration, maxIterations, correlations,
//            selection, verdict, error }
//
// Playing: the figure starts by itself when it becomes visible (setVisible(true), driven by the
// host's IntersectionObserver), unless autoplay is off (reduced motion, autoplay=0) or the reader
// paused it; it pauses when it leaves the view and resumes when it comes back.
//
// The run is loaded by the lab's own pipeline (lab/run.js, the run controller: the scenario from
// the engine, the sphere generator if asked, the state's overrides, the run, its first frame and
// references), so "open in the lab" replays the same run, value for value.
//
// Parts: the frame (shell.js, shared with the real-images figure), the panels and their notes
// (figure-panels.js), the legend (legend.js), the play/step loop (lab/player.js, shared with the
// lab); this file holds the run state and its phases (load, references, frames, reset, drawing).
import { SCENARIO_INFO, REF_LABEL } from '../lab/scenarios.js';
import { TraceStore } from '../lab/trace.js';
import { currentSelection, defaultSelection, solveReferences, createFollower, referenceProblem, traceReferences } from '../lab/reference-follower.js';
import { lpP as configLpP, effectiveRefs as configEffectiveRefs } from '../lab/config.js';
import { createRunController, whenCurrent, latest, solvedSelection } from '../lab/run.js';
import { computeProjection, verdictOf } from '../lab/views.js';
import { createPlayer } from '../lab/player.js';
import { createFrameQueue } from '../lab/frame-queue.js';
import { PANEL_TITLES } from './params.js';
import { createFigureShell, setPlayButton } from './shell.js';
import { setText } from '../lab/dom-write.js';
import { announce, onPrint } from '../access/figure-access.js';
import { runSummary } from '../lab/describe.js';
import { createFigurePanels } from './figure-panels.js';
import { legendItems, drawLegend } from './legend.js';
import { createLazyRealFigure } from '../real/figure-lazy.js';
import { createLazyHierarchyFigure } from './hierarchy-lazy.js';
import { yieldToPage } from './start-queue.js';
import { reserveCurrent } from './reserve.js';

// The figure's parts (the shell's DOM, the renderer, the player) and its run state, in one object
// that the phases below (load, references, frames, reset, drawing) share.
function figureContext(root, options) {
  const state = options.state;
  const info = SCENARIO_INFO[state.scenario];
  const shell = createFigureShell(root, {
    title: info.title, panels: options.panels, panelTitles: PANEL_TITLES, labUrl: options.labUrl, iterText: 'k = 0',
    caption: options.caption === 'scenario' ? info.caption : options.caption, legendLabel: 'Legend', page: !!options.page,
  });
  reserveCurrent(shell.bodies.current?.body, state);  // (the current softmax's height: n or n T rows)
  return {
    root, options, state, shell, view: null, api: null, player: null, follower: null, schedule: null,
    speed: Math.max(1, options.speed ?? state.speed ?? 5),
    client: null, cfg: null, baseDataset: null, proj: null, scores: null, trace: new TraceStore(),
    refs: {}, refSelection: null, report: null, headSvm: null,
    // the runs (run.js: a new one aborts the one before), the current run ({ serial, signal, id }),
    // the serial of the run whose last frame came, the latest reference solve's signal
    runs: createRunController(), run: { serial: 0, signal: null, id: null }, finished: 0, nextSolve: latest(), solving: 0,
    ready: false, started: false, error: null, begun: null, stale: false,
    visible: false, userPaused: false, destroyed: false, autoplay: options.autoplay !== false,
  };
}

export function createFigure(root, options) {
  // real images (SPEC section 6): a figure of its own, loaded on demand (web/src/real/)
  if (options.state.scenario === 'real-images') return createLazyRealFigure(root, options);
  // the two-layer hierarchy (SPEC 5.3): a figure of its own too (embed/hierarchy-figure.js)
  if (options.state.scenario === 'hierarchy') return createLazyHierarchyFigure(root, options);
  const f = figureContext(root, options);
  f.player = createPlayer({
    canStep: () => f.run.id !== null && !done(f),
    step: (k) => f.client.step(f.run.id, k),
    onFrame: (frame) => onFrame(f, frame),
    onError: (e) => { f.player.stop(); fail(f, `Training failed: ${e.message}`); },
    onChange: () => updatePlayer(f),
    speed: () => f.speed,
    signal: () => f.run.signal,
  });
  f.follower = createFollower({ refresh: (sel) => refreshReferences(f, sel), solvedFor: () => f.refSelection, signal: () => f.run.signal });
  f.schedule = createFrameQueue(() => render(f));
  f.shell.bPlay.onclick = () => {
    if (f.player.playing) {
      f.userPaused = true; pause(f);
      if (f.cfg) announce(f.shell.bPlay, runSummary(viewContext(f), 'Paused'));
    } else { f.userPaused = false; play(f); }
  };
  f.shell.bReset.onclick = () => { reset(f); };
  const ro = new ResizeObserver(() => {
    f.view?.resize();
    if (f.cfg) f.schedule();
  });
  for (const { body } of Object.values(f.shell.bodies)) ro.observe(body);
  // printed: the whole current state, also when offscreen (render skips hidden figures) or paced
  f.unprint = onPrint({ before: () => { if (!f.destroyed) render(f, true); }, after: () => { if (!f.destroyed) render(f, true); } });
  f.api = figureApi(f, ro);
  root.classList.add('af-waiting');  // (until the first drawing: what print shows then, figure.css)
  updatePlayer(f);
  if (options.notice) f.shell.showNotice(options.notice);
  if (!options.deferStart) f.api.start();
  return f.api;
}

// The run's start: the panels, then load (engine: scenario, run, references, the first drawing).
function begin(f) {
  f.begun ??= (async () => {
    await yieldToPage();
    if (f.destroyed) return;
    const t0 = performance.now();
    f.view = createFigurePanels(f.shell.bodies);
    performance.measure('attnsvm panels built', { start: t0 });
    await load(f);
    buildLegend(f);
  })();
  return f.begun;
}

function figureApi(f, ro) {
  const api = {
    root: f.root,
    start: () => begin(f),
    play: () => { f.userPaused = false; play(f); },
    pause: () => { f.userPaused = true; pause(f); },
    reset: () => reset(f),
    // The host's visibility (IntersectionObserver): start or resume when shown, pause when hidden.
    setVisible(v) {
      f.visible = v;
      if (v) {
        if (f.stale) render(f, true);  // frames came while it was hidden
        if (f.ready && f.autoplay && !f.userPaused && !done(f)) play(f);
      } else if (f.player.playing) {
        f.player.stop();
      }
    },
    setAutoplay(v) { f.autoplay = v; },
    destroy() {
      f.destroyed = true;
      f.unprint();
      f.player.stop();
      ro.disconnect();
      f.view?.destroy();
      f.runs.abort();
      if (f.run.id !== null && f.client) f.client.cancel(f.run.id);
    },
    info: () => figureInfo(f),
  };
  return api;
}

function figureInfo(f) {
  const { trace, cfg } = f;
  return {
    ready: f.ready, playing: f.player.playing, done: done(f), started: f.started, error: f.error, visible: f.visible,
    begun: !!f.begun,
    busy: f.player.inFlight || f.solving > 0,
    iteration: trace.iterationNow(), maxIterations: cfg?.iterations ?? null,
    correlations: trace.correlations(), selection: f.refSelection && [...f.refSelection],
    verdict: cfg ? (verdictOf(viewContext(f))?.kind ?? null) : null, scenario: f.state.scenario, panels: [...f.options.panels],
  };
}

const done = (f) => f.run.id !== null && f.finished === f.run.serial;
function fail(f, text) { f.error = text; f.shell.showMessage(text); updatePlayer(f); f.options.onUpdate?.(f.api); }
const effectiveRefs = (f) => configEffectiveRefs(f.state, f.cfg);
const lpP = (f) => configLpP(f.state, f.cfg);

// ---------- loading: the run controller (lab/run.js) -> the references -> the first drawing ----------
// Also the reset: a new run of the same state (the one before aborted and its engine run cancelled).
async function load(f) {
  try {
    const client = f.options.client;
    f.client = f.client ?? await (typeof client === 'function' ? client() : client);
    if (f.destroyed) return;
    if (f.run.id !== null) f.client.cancel(f.run.id);
    f.run = { ...f.run, id: null };
    const run = await f.runs.start(f.client, f.state, { onDataDropped: (text) => f.shell.showMessage(text) });
    if (!run) return;  // a newer load (a reset) or destroy() took over
    f.run = { serial: run.serial, signal: run.signal, id: run.runId };
    f.cfg = run.cfg;
    f.baseDataset = run.base.dataset;
    // the token plane's view (principal directions: 10-35 ms for d = 10); no plane, no projection
    f.proj = f.shell.has('plane') ? computeProjection(f.cfg, f.baseDataset) : null;
    f.scores = run.scores;
    f.trace = run.trace;
    f.follower.reset();
    await takeReferences(f, f.nextSolve(run.signal), run.references);
    if (run.signal.aborted) return;
    await firstDraw(f);
    if (run.signal.aborted) return;
    f.ready = true;
    f.root.classList.remove('af-waiting');
    updatePlayer(f);
    if (f.visible && f.autoplay && !f.userPaused) play(f);
    f.options.onUpdate?.(f.api);
  } catch (e) {
    fail(f, `This figure could not start: ${e.message}`);
  }
}

// ---------- reference SVMs (lab/reference-follower.js: the same rules as the lab) ----------
async function refreshReferences(f, selection = currentSelection(f.cfg, f.trace, f.state.selection) ?? defaultSelection(f.cfg, f.scores)) {
  if (!f.cfg) return;
  const signal = f.nextSolve(f.run.signal);
  const scores = f.scores;
  const solved = solveReferences(f.client, { cfg: f.cfg, selection, refList: effectiveRefs(f), lpP: lpP(f) });
  await takeReferences(f, signal, solved.then((out) => ({ ...out, selection: solvedSelection(selection, out, scores) })));
}

// A solve's answer { refs, headSvm, report, selection } into the figure, while its signal holds.
async function takeReferences(f, signal, answer) {
  f.solving++;
  try {
    await whenCurrent(signal, answer, (out) => {
      f.refs = out.refs;
      f.headSvm = out.headSvm;
      f.refSelection = out.selection;
      f.report = out.report;
      showSolveProblems(f);
      const { refs, head } = traceReferences(f.refs, f.headSvm);
      f.trace.setReferences(refs, head, f.cfg.train.traceP);
      f.schedule();
    });
  } finally {
    f.solving--;
  }
}

// A reference without a solution is said in the message line (and its message cleared once solved).
function showSolveProblems({ refs, shell }) {
  const failed = referenceProblem(refs);
  if (failed) shell.showMessage(`The ${REF_LABEL[failed[0]]} SVM has no solution for this selection: ${failed[1].message || failed[1].status}`);
  else if (shell.msg.textContent.startsWith('The ') && shell.msg.textContent.includes(' SVM has no solution')) shell.showMessage(null);
}

// ---------- player (lab/player.js runs the loop; these are the figure's rules) ----------
function play(f) {
  if (!f.ready || f.player.playing || f.destroyed) return;
  if (!f.player.play()) return;
  f.started = true;
  f.options.onUpdate?.(f.api);
}
function pause(f) { f.player.stop(); f.options.onUpdate?.(f.api); }

// One engine frame: into the trace, the references follow the run's selection, a redraw is queued.
function onFrame(f, frame) {
  f.trace.ingest(frame);
  if (frame.done) {
    f.finished = f.run.serial;
    f.player.stop();
    if (frame.stopped && frame.stopReason) f.shell.showMessage(`Stopped at k = ${f.trace.iterationNow()}: ${frame.stopReason}`);
    announce(f.shell.bPlay, runSummary(viewContext(f), 'The run ended'));
  }
  const sel = currentSelection(f.cfg, f.trace, f.state.selection);
  if (sel) f.follower.follow(sel);
  f.schedule();
  if (done(f)) f.options.onUpdate?.(f.api);
}

// Reset: the run again from k = 0 (a new run of the same state: load).
async function reset(f) {
  if (f.run.id === null || !f.client) return;
  f.player.stop();
  f.userPaused = false;
  f.shell.showMessage(null);
  await load(f);
  render(f, true);
  if (f.visible) play(f);
}

function updatePlayer(f) {
  const { bPlay, bReset, iterOut } = f.shell;
  const playing = f.player.playing, finished = done(f);
  setPlayButton(bPlay, playing ? 'pause' : (finished ? 'done' : 'play'));
  bPlay.disabled = !f.ready || finished;
  bReset.disabled = !f.ready;
  // the counter at most ~10 times a second while playing (a text change costs a layout and a paint)
  const now = performance.now();
  if (playing && now - (f.counterAt ?? 0) < 100) return;
  f.counterAt = now;
  setText(iterOut, f.cfg ? `k = ${f.trace.iterationNow()} / ${f.cfg.iterations}` : (f.error ? '' : 'loading…'));
}

// ---------- drawing: run state -> view context -> panels (figure-panels.js) ----------
function viewContext(f) {
  return { cfg: f.cfg, trace: f.trace, refs: f.refs, refSelection: f.refSelection, report: f.report, scores: f.scores,
    headSvm: f.headSvm, projection: f.proj, refList: effectiveRefs(f), lpP: lpP(f), followSelection: f.state.selection === 'auto' };
}
function render(f, force = false) {
  updatePlayer(f);
  if (!f.cfg || !f.view) return;
  // Until the first drawing is done (firstDraw: a panel per task) there is nothing to redraw: a
  // redraw queued by the references (refreshReferences) drew every panel in one task of 50-120 ms,
  // and then the first drawing drew them again. No frame comes before it (the player starts after).
  if (!f.ready && !force) return;
  if (!f.visible && !force) { f.stale = true; return; }
  f.stale = false;
  f.view.draw(viewContext(f), { force, playing: f.player.playing, domainKey: f.state.scenario });
}

// The first drawing, a panel per task (each a few ms: a figure's whole first drawing was one task
// of 30-120 ms, which Lighthouse's 4x CPU makes blocking time).
async function firstDraw(f) {
  for (const id of f.view.ids) {
    const t0 = performance.now();
    f.view.drawOne(id, viewContext(f), { domainKey: f.state.scenario });
    performance.measure(`attnsvm first drawing: ${id}`, { start: t0 });  // (user timing: seen in traces)
    await yieldToPage();
    if (f.destroyed) return;
  }
}

function buildLegend(f) {
  if (!f.cfg) return;
  drawLegend(f.shell.legend, legendItems({ cfg: f.cfg, has: f.shell.has, refList: effectiveRefs(f), ctx: () => viewContext(f) }));
}
