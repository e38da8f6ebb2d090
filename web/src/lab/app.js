// The web lab: one state (state.js) -> a scenario from the engine (in the worker) with the state's
// overrides -> a training run stepped by the player -> panels. The main thread only draws: every
// engine call (scenario, validate, solve, analyze, training steps) runs in the worker.
// This file composes the lab's modules and starts it:
//   session.js        the state (URL hash), what a change affects, the current run's objects
//   restart.js        a restart: scenario -> validated configuration -> training run -> first drawing
//   references.js     the reference SVMs and the generalized SVM (reference-follower.js solves)
//   playback.js       the player's rules (player.js runs the loop) and the top bar's controls
//   render-loop.js    when the lab draws (render.js draws a frame): coalesced, staggered, visible
//   panels.js         the plots, their text alternatives and printing
//   drag.js           dragging a token in the token plane
//   sync-controls.js  the state into the control panel (controls.js: what each control shows)
//   bind-controls.js  the control panel's inputs and buttons into state changes, the downloads
//   own-views.js      the views of their own: real images (real-view.js) and the hierarchy, loaded when opened
//   messages.js, theme.js, ready.js (first frame, ready flags), test-hook.js (window.__lab)
// The page's markup comes with the HTML (layout.js, written at build time): the modules wire it.
// First import: the engine's worker starts (and fetches and compiles the wasm) while the rest of the
// lab's code is evaluated. Keep it first, and keep the lab's modules from importing app.js.
import { earlyEngine, newEngine, startWorker } from './engine-early.js';
import '../styles/lab.css';
import '../real/real.css';
import '../path/path.css';
import { SCENARIO_IDS } from './state.js';
import { SCENARIO_INFO } from './scenarios.js';
import { buildLayout } from './layout.js';
import { createReadiness, idleThen } from './ready.js';
import { createTheme } from './theme.js';
import { createMessages } from './messages.js';
import { createSession } from './session.js';
import { createPanels } from './panels.js';
import { createReferences } from './references.js';
import { createPlayback } from './playback.js';
import { createDrag } from './drag.js';
import { createRenderLoop } from './render-loop.js';
import { createControlSync } from './sync-controls.js';
import { createOwnViews } from './own-views.js';
import { createRestart } from './restart.js';
import { installTestHook } from './test-hook.js';
import { bindControls } from './bind-controls.js';

const readiness = createReadiness();  // (the first frame's time counts from here)
// Scenarios with a view of their own (SPEC section 6, web/src/real/) are not engine scenarios.
const ENGINE_SCENARIOS = SCENARIO_IDS.filter((s) => !SCENARIO_INFO[s].own);
// The lab's composition runs in a task of its own: the module graph's evaluation (the chunks'
// top-level code) with the browser's DOMContentLoaded work (its scan of the form controls) is one
// task, the composition the next, so that neither is a long task, and the engine's worker (whose
// start and messages the main thread forwards) gets going between them. Nothing in it is needed
// sooner (the engine is still compiling its module; the page's frame is in the HTML).
setTimeout(start, 0);

function start() {
  const { $ } = buildLayout(document.getElementById('app'));

  // The modules are made in this order; a module's callbacks into one made later (the arrows below)
  // run only after all are made (on events, or once boot() has awaited the engine).
  const theme = createTheme(() => loop.renderAll(true));
  const messages = createMessages($('messages'));
  const setMessage = messages.set;
  const session = createSession({
    setMessage,
    syncControls: () => syncControls(),
    refreshReferences: () => references.refresh(),
    restart: () => restarter.restart(),
  });
  const { panels, lossChart, renderer, describeFigures } = createPanels($, {
    session,
    onDrag: (i, t, xy, phase) => drag.onDrag(i, t, xy, phase),
    renderAll: (force) => loop.renderAll(force),
    curvesLoaded: () => loop.renderCurves(),
  });
  const references = createReferences({ session, setMessage, scheduleRender: () => loop.scheduleRender() });
  const playback = createPlayback($, {
    session, setMessage, references, describeFigures,
    scheduleRender: () => loop.scheduleRender(),
    restart: () => restarter.restart(),
  });
  const drag = createDrag({
    session, player: playback.player,
    renderPlane: () => loop.renderPlane(),
    refreshReferences: (selection, dataset) => references.refresh(selection, dataset),
  });
  const loop = createRenderLoop({
    session, panels, lossChart, renderer, describeFigures,
    isPlaying: () => playback.player.playing,
    updatePlayerUI: playback.updatePlayerUI,
  });
  const syncControls = createControlSync($, { session, readiness, updatePlayerUI: playback.updatePlayerUI });
  const realView = createOwnViews($, { session, setMessage, markReady: readiness.markReady });
  const restarter = createRestart({
    session, setMessage, playback, drag, references, loop, realView, syncControls, describeFigures, readiness,
  });
  installTestHook({
    session, readiness, messages, panels, loop, playback, references, restarter, realView, engineScenarios: ENGINE_SCENARIOS,
  });

  // The engine's version and scenario list are asked for alongside the first run's requests, not before
  // them: the worker answers in order, and the first frame does not wait for two more round trips.
  // A page given its first run with its code (the default link, engine-early.js) draws it at once and
  // asks the engine for the rest once the worker has said it computed the same run (the run the page
  // plays on); a worker that did not (it failed to start) gives way to a new one, and the run starts again.
  async function boot() {
    try {
      session.client = await earlyEngine;
    } catch (e) {
      fatal(`The WebAssembly engine could not start: ${e.message}`);
      return;
    }
    const checked = session.client.firstRunChecked;
    const engineOk = !checked ? Promise.resolve(true) : checked.then(async (ok) => {
      if (ok) return true;
      session.client.terminate();
      try {
        session.client = await newEngine();
      } catch (e) {
        fatal(`The WebAssembly engine could not start: ${e.message}`);
        return false;
      }
      await restarter.restart({ autoplay });
      return true;
    });
    const about = engineOk.then((ok) => ok && Promise.all([session.client.version(), session.client.scenarioNames()])).then((r) => {
      if (!r) return;
      const [version, names] = r;
      $('engine-version').textContent = version;
      window.__lab.engineScenarios = names;
      const missing = ENGINE_SCENARIOS.filter((s) => !names.includes(s));
      if (missing.length) setMessage('engine', `The engine lacks the scenarios ${missing.join(', ')}.`);
    }, (e) => fatal(`The WebAssembly engine could not start: ${e.message}`));
    await Promise.all([about, restarter.restart({ autoplay })]);
  }

  function fatal(text) {
    setMessage('fatal', text);
    window.__error = text;
  }

  const query = new URLSearchParams(location.search);
  // (the reduced-motion preference as prepaint.js read it before the first paint; asked here only
  // if it did not run)
  const motion = document.documentElement.dataset.motion;
  const reduced = motion ? motion === 'reduce' : matchMedia('(prefers-reduced-motion: reduce)').matches;
  const autoplay = query.get('autoplay') !== '0' && !reduced;

  bindControls($, { session, setMessage, theme, exportPanel: loop.exportPanel });
  syncControls();
  boot();
  // The full experiments (web/src/experiments) at the foot of the page: their code loads once the first
  // frame is drawn and the page is idle.
  // The curve charts' code too, if no curve panel came near before (printing draws every panel at once).
  readiness.firstFrame.then(startWorker);  // (the HTML's worker, if it waited for the first frame: engine-early.js)
  readiness.firstFrame.then(() => idleThen(() => panels.load('corr')));
  // The regularization path view under the panels (web/src/path/lab-path.js), once the page is idle.
  readiness.firstFrame.then(() => idleThen(() => import('../path/lab-path.js').then(({ mountLabPath }) => mountLabPath({ section: document.getElementById('path-view'), session, onRun: restarter.onRun }))));
  readiness.firstFrame.then(() => idleThen(() => import('../experiments/panel.js')
    .then(({ mountExperimentPanel }) => mountExperimentPanel(document.getElementById('experiment-panel')))));
}
