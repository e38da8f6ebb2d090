// The play/step loop of a training run, shared by the lab (playback.js) and the embedded figures
// (embed/figure.js). As in TensorFlow Playground's Player, scheduling is kept apart from stepping
// and from drawing: the player owns only the loop (one requestAnimationFrame tick a frame, at most
// one engine step in flight); the caller says whether the run can play or step, how to take a step
// (the engine call) and what a frame does (ingest, follow the references, schedule a redraw).
//
// createPlayer({ canStep(), step(k) -> Promise<frame>, onFrame(frame), onError(e), onChange(),
//                speed() -> iterations a tick, generation() -> the run's generation }) ->
//   { play() -> bool (started), stop(), advance(k), playing, inFlight }
// A step whose generation has passed (the run restarted meanwhile) is dropped: neither onFrame nor
// onError sees it, and it does not count as in flight for the new run (which would otherwise never
// step: a setting changed while a step was in flight froze the lab at k = 0).
export function createPlayer({ canStep, step, onFrame, onError, onChange, speed, generation }) {
  let playing = false;
  let inFlightGen = null; // the generation of the step in flight, or null
  const inFlight = () => inFlightGen !== null && inFlightGen === generation();

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
    const my = generation();
    inFlightGen = my;
    try {
      const frame = await step(k);
      if (my !== generation()) return;
      onFrame(frame);
    } catch (e) {
      if (my === generation()) onError(e);
    } finally {
      if (inFlightGen === my) inFlightGen = null;
    }
  }
  return {
    play, stop, advance,
    get playing() { return playing; },
    get inFlight() { return inFlight(); },
  };
}
