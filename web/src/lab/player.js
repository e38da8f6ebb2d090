// The play/step loop of a training run, shared by the lab (playback.js) and the embedded figures
// (embed/figure.js). As in TensorFlow Playground's Player, scheduling is kept apart from stepping
// and from drawing: the player owns only the loop (one requestAnimationFrame tick a frame, at most
// one engine step in flight); the caller says whether the run can play or step, how to take a step
// (the engine call) and what a frame does (ingest, follow the references, schedule a redraw).
//
// createPlayer({ canStep(), step(k) -> Promise<frame>, onFrame(frame), onError(e), onChange(),
//                speed() -> iterations a tick, signal() -> the run's AbortSignal }) ->
//   { play() -> bool (started), stop(), advance(k), playing, inFlight }
// A step of an aborted run (a newer run started meanwhile) is dropped (run.js whenCurrent): neither
// onFrame nor onError sees it, and it does not count as in flight for the new run (which would
// otherwise never step: a setting changed while a step was in flight froze the lab at k = 0).
import { whenCurrent } from './run.js';

export function createPlayer({ canStep, step, onFrame, onError, onChange, speed, signal }) {
  let playing = false;
  let inFlightRun = null; // the signal of the run whose step is in flight, or null
  const inFlight = () => inFlightRun !== null && inFlightRun === signal() && !inFlightRun.aborted;

  function play() {
    if (!canStep()) return false;
    playing = true;
    onChange();
    requestAnimationFrame(tick);
    return true;
  }
  function stop() { playing = false; onChange(); }
  function tick() {
    if (!playing) return;
    if (!inFlight()) advance(speed());
    requestAnimationFrame(tick);
  }
  async function advance(k) {
    if (!canStep() || inFlight()) return;
    const run = signal();
    inFlightRun = run;
    try {
      await whenCurrent(run, step(k), onFrame);
    } catch (e) {
      onError(e);
    } finally {
      if (inFlightRun === run) inFlightRun = null;
    }
  }
  return {
    play, stop, advance,
    get playing() { return playing; },
    get inFlight() { return inFlight(); },
  };
}
