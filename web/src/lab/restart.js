// A restart of the lab's run on the current state: the previous run dropped (its signal aborted) ->
// the run controller's pipeline (run.js: scenario, validated configuration, scores, training run and
// its first frame, the reference SVMs) -> the first drawing. The controller answers null when a newer
// restart took over; a failed phase throws a RunError, said in the message line.
import { createRunController, RunError } from './run.js';
import { computeProjection } from './views.js';
import { TraceStore } from './trace.js';

// createRestart({ session, setMessage(key, text), playback (playback.js), drag (drag.js),
//   references (references.js), loop (render-loop.js), realView (real-view.js), syncControls(),
//   describeFigures(now), readiness (ready.js) }) -> { restart(options) -> Promise, restarting,
//   onRun(fn) -> unsubscribe }: fn(cfg) after each restart has set the session's run (its cfg and
//   projection; cfg null when it has none), e.g. the path view follows the lab's problem.
// The session's run fields (run, cfg, baseDataset, projection, scores, trace) are written here only.
export function createRestart({ session: s, setMessage, playback, drag, references, loop, realView, syncControls, describeFigures, readiness }) {
  const runs = createRunController();
  let restarting = 0;
  const listeners = new Set();
  const notify = () => { for (const fn of listeners) fn(s.cfg); };
  async function restart(options = {}) {
    restarting++;
    try { await restartInner(options); } finally { restarting--; }
  }
  async function restartInner({ autoplay = false } = {}) {
    const wasPlaying = playback.player.playing || autoplay || drag.resumeAfterDrag;
    dropRun();
    if (realView.owns(s.state.scenario)) {  // (real images, the hierarchy: own-views.js)
      const { signal } = s.run = { ...runs.begin(), id: null };
      s.cfg = null;
      notify();
      await realView.show(signal, { autoplay: wasPlaying });
      return;
    }
    realView.hide();
    syncControls({ ifChanged: true });
    s.writeHash();
    let run;
    try {
      run = await runs.start(s.client, s.state, {
        onDataDropped: (text) => s.dropCustomData(text),
        references: true,
      });
    } catch (e) {
      if (!(e instanceof RunError)) throw e;
      failed(e);
      return;
    }
    if (!run) return;  // a newer restart took over
    s.run = { serial: run.serial, signal: run.signal, id: run.runId };
    s.cfg = run.cfg;
    s.baseDataset = run.base.dataset;
    s.projection = computeProjection(s.cfg, s.baseDataset);
    s.scores = run.scores;
    s.trace = run.trace;
    syncControls();
    notify();
    await firstDraw(run, wasPlaying);
  }

  // The previous run ends: its signal (the controller aborts it at the next start), its engine run,
  // references and messages.
  function dropRun() {
    drag.clearResume();
    playback.stop();
    runs.abort();
    if (s.run.id !== null) s.client.cancel(s.run.id);
    s.run = { ...s.run, id: null };  // (its signal aborted: what it still answers is dropped)
    s.trace = new TraceStore();  // (until the next run's trace: the old run's frames are not the lab's any more)
    references.clear();
    setMessage('data', null); setMessage('engine-run', null);
  }

  // A phase failed: said in the message line (the scenario's, the sphere generator's and the
  // validation's in 'data', the run's start in 'engine-run'); the lab shows no run.
  function failed(e) {
    setMessage(e.phase === 'start' ? 'engine-run' : 'data', e.message);
    s.cfg = null;
    if (e.base) s.baseDataset = e.base.dataset;
    notify();
    loop.renderAll();
    readiness.markReady();
  }

  // The first drawing (tokens, softmax, curves) does not wait for the SVM solves in the worker;
  // arrows, margins and the readout follow when they arrive: the panels in view are drawn again
  // (render-loop.js; the others are drawn when they come near).
  async function firstDraw(run, wasPlaying) {
    const solved = references.adopt(run.references);
    await new Promise((resolve) => loop.renderStaggered(resolve));
    if (run.signal.aborted) return;
    readiness.frameDrawn();
    await solved;
    if (run.signal.aborted) return;
    loop.renderAll();
    describeFigures(true);
    readiness.markReady();
    if (wasPlaying) playback.play();
  }

  return { restart, onRun(fn) { listeners.add(fn); return () => listeners.delete(fn); }, get restarting() { return restarting; } };
}
