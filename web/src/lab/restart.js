// A restart of the lab's run on the current state: the previous run dropped -> the scenario from
// the engine -> its configuration, validated -> the training run -> its first drawing. Each phase
// returns null (or false) when the restart ends there: a newer restart took over, or the phase
// failed and said why.
import { datasetShapeError } from './state.js';
import { scenarioOptions, sphereArgs, buildConfig, initialWeights, validationKind } from './config.js';
import { computeProjection } from './views.js';

// createRestart({ session, setMessage(key, text), playback (playback.js), drag (drag.js),
//   references (references.js), loop (render-loop.js), realView (real-view.js), syncControls(),
//   describeFigures(now), readiness (ready.js) }) -> { restart(options) -> Promise, restarting }
export function createRestart({ session: s, setMessage, playback, drag, references, loop, realView, syncControls, describeFigures, readiness }) {
  let restarting = 0;
  async function restart(options = {}) {
    restarting++;
    try { await restartInner(options); } finally { restarting--; }
  }
  async function restartInner({ autoplay = false } = {}) {
    const my = ++s.gen;
    const wasPlaying = playback.player.playing || autoplay || drag.resumeAfterDrag;
    dropRun();
    if (realView.owns(s.state.scenario)) { await realView.show(my); return; }  // (real images, the hierarchy: own-views.js)
    realView.hide();
    syncControls({ ifChanged: true });
    s.writeHash();
    const base = await scenarioBase(my);
    if (!base) return;
    if (s.state.data) {
      const err = datasetShapeError(s.state.data);
      if (err) s.dropCustomData(`The dataset cannot be used: ${err}. Showing the scenario's data instead.`);
    }
    const config = await usableConfig(my, base);
    if (!config) return;
    s.cfg = config;
    s.baseDataset = base.dataset;
    s.projection = computeProjection(s.cfg, s.baseDataset);
    syncControls();
    // the optimal tokens' scores and the run's start are asked for together (neither needs the other;
    // the worker answers in order, so the scores are in before the run's first frame or its failure)
    s.scores = null;
    const scores = s.client.scores(s.cfg.dataset).then((sc) => sc, () => null).then((sc) => { if (my === s.gen) s.scores = sc; });
    const started = await startTraining(my);
    await scores;
    if (my !== s.gen || !started) return;
    await firstDraw(my, wasPlaying);
  }

  // The previous run ends: its engine run, trace, references and messages.
  function dropRun() {
    drag.clearResume();
    playback.stop();
    if (s.run.id !== null) s.client.cancel(s.run.id);
    s.clearRun();
    references.follower.reset();
    setMessage('data', null); setMessage('engine-run', null);
  }

  // The scenario from the engine, with the sphere generator's data if the state asks for it.
  async function scenarioBase(my) {
    let base;
    try {
      base = await s.client.scenario(s.state.scenario, scenarioOptions(s.state));
    } catch (e) {
      if (my !== s.gen) return null;
      setMessage('data', `Scenario "${s.state.scenario}": ${e.message}`);
      loop.renderAll();
      return null;
    }
    if (my !== s.gen) return null;
    if (s.state.generator !== 'sphere') return base;
    try {
      base = { ...base, dataset: await s.client.sphere(...sphereArgs(s.state, base.dataset)) };
    } catch (e) {
      if (my !== s.gen) return null;
      setMessage('data', `Sphere generator: ${e.message}`);
      readiness.markReady();
      return null;
    }
    return my !== s.gen ? null : base;
  }

  // The state's configuration once the engine accepts its data; custom data it rejects gives way to
  // the scenario's; null when the scenario's own data does not fit the settings.
  async function usableConfig(my, base) {
    const config = buildConfig(s.state, base);
    try {
      await s.client.validate(config.dataset, validationKind(config));
      return config;
    } catch (e) {
      if (my !== s.gen) return null;
      if (s.state.data) {
        s.dropCustomData(`The dataset cannot be used: ${e.message}. Showing the scenario's data instead.`);
        return buildConfig(s.state, base);
      }
      setMessage('data', `The scenario's data cannot be used with these settings: ${e.message}`);
      s.cfg = null; s.baseDataset = base.dataset;
      loop.renderAll();
      readiness.markReady();
      return null;
    }
  }

  // Starts the training run and takes its first frame (k = 0).
  async function startTraining(my) {
    try {
      const { dataset, model, train, init, iterations } = s.cfg;
      const id = await s.client.startRun({ dataset, model, train, init }, iterations);
      if (my !== s.gen) { s.client.cancel(id); return false; }
      s.run.id = id; s.run.maxIterations = s.cfg.iterations;
      s.trace.setInitial(initialWeights(s.cfg));
      const f0 = await s.client.step(id, 0);
      if (my !== s.gen) return false;
      s.trace.ingest(f0);
      return true;
    } catch (e) {
      if (my !== s.gen) return false;
      setMessage('engine-run', `Training could not start: ${e.message}`);
      loop.renderAll();
      readiness.markReady();
      return false;
    }
  }

  // The first drawing (tokens, softmax, curves) does not wait for the SVM solves in the worker;
  // arrows, margins and the readout follow when they arrive: the panels in view are drawn again
  // (render-loop.js; the others are drawn when they come near).
  async function firstDraw(my, wasPlaying) {
    const solved = references.refresh();
    await new Promise((resolve) => loop.renderStaggered(resolve));
    if (my !== s.gen) return;
    readiness.frameDrawn();
    await solved;
    if (my !== s.gen) return;
    loop.renderAll();
    describeFigures(true);
    readiness.markReady();
    if (wasPlaying) playback.play();
  }

  return { restart, get restarting() { return restarting; } };
}
