// The hierarchy's player (issue 40): the two-layer run is computed in one go by the experiment
// (the engine has no two-layer stepper), then walked snapshot by snapshot, so the figure grows as
// the token presets' do. Shared by the lab's view (its top bar's play/step/reset) and the embed.
// Time-based (a snapshot every `everyMs`, from animation frames): the same pace on any machine,
// and a hidden tab (no animation frames) holds by itself.
//
// createSnapshotPlayer({ onIndex(m), onChange(), everyMs }) ->
//   { load(count, m?), play() -> bool, stop(), step(), reset(), index, count, playing, done }
export function createSnapshotPlayer({ onIndex, onChange = () => {}, everyMs = 120 }) {
  let count = 0, index = 0, playing = false, last = 0, frame = 0;
  const raf = (f) => (typeof requestAnimationFrame === 'function' ? requestAnimationFrame(f) : setTimeout(f, 16));
  const done = () => count > 0 && index >= count - 1;

  function goTo(m) {
    index = Math.max(0, Math.min(count - 1, m));
    onIndex(index);
    if (done() && playing) { playing = false; onChange(); }
  }
  function tick(now) {
    if (!playing) return;
    if (now - last >= everyMs) { last = now; goTo(index + 1); }
    if (playing) frame = raf(tick);
  }
  return {
    // a new run of `count` snapshots, shown at m (default: its first)
    load(n, m = 0) { playing = false; count = n; goTo(m); onChange(); },
    play() {
      if (count === 0 || done() || playing) return false;
      playing = true; last = performance.now();
      frame = raf(tick);
      onChange();
      return true;
    },
    stop() {
      if (!playing) return;
      playing = false;
      if (typeof cancelAnimationFrame === 'function') cancelAnimationFrame(frame);
      onChange();
    },
    step() { if (count && !done()) { goTo(index + 1); onChange(); } },
    reset() { playing = false; if (count) goTo(0); onChange(); },
    get index() { return index; },
    get count() { return count; },
    get playing() { return playing; },
    get done() { return done(); },
  };
}
