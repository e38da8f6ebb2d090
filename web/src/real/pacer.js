// Paces the drawing of the "Real images" panels so that the page stays responsive while the runs
// train (no main-thread task over 50 ms): each panel is a job that says what it shows (key()) and
// how often it may redraw (every, ms). While playing, an animation frame runs at most one job, the
// one that waited longest among those whose key changed and whose interval passed; the browser's
// style, layout and compositing of one panel then fit in a frame where those of all panels (three
// runs' gallery, curves, histograms, heatmaps and table at once) took 50-150 ms on a loaded machine.
// Paused or finished, the changed panels draw one per frame without waiting for their interval (a
// run that ends while the others train must not redraw everything at once); forced (the first
// pass of a session), every panel in one frame.
//
// A job may also say whether its panel is in view (show: () => bool): a panel out of view is not
// drawn (nor counted as waiting) until it comes into view, except by a forced pass (an export, print).
//
// createPacer({ name: { every, key: () => array, run: () => void, show? } }) -> { frame({ playing, force })
//   -> { ran: whether a panel drew, waiting: whether a changed panel still waits (draw again on the
//   next animation frame) }, stats: { name: longest run (ms) } }
export function createPacer(jobs) {
  const names = Object.keys(jobs);
  const last = Object.fromEntries(names.map((k) => [k, -Infinity]));
  const drawn = Object.fromEntries(names.map((k) => [k, null]));
  const changed = (k, key) => !drawn[k] || key.length !== drawn[k].length || key.some((v, i) => v !== drawn[k][i]);
  const stats = Object.fromEntries(names.map((k) => [k, 0]));
  function run(k, key, now) {
    const t0 = performance.now();
    jobs[k].run();
    stats[k] = Math.max(stats[k], performance.now() - t0);
    drawn[k] = key;
    last[k] = now;
  }
  return {
    stats,
    frame({ playing = false, force = false } = {}) {
      const now = performance.now();
      const keys = Object.fromEntries(names.map((k) => [k, jobs[k].key()]));
      if (force) {
        for (const k of names) run(k, keys[k], now);
        return { ran: true, waiting: false };
      }
      const shown = names.filter((k) => jobs[k].show?.() ?? true);
      let pick = null;
      for (const k of shown) {
        if ((!playing || now - last[k] >= jobs[k].every) && changed(k, keys[k]) && (pick === null || last[k] < last[pick])) pick = k;
      }
      if (pick !== null) run(pick, keys[pick], now);
      return { ran: pick !== null, waiting: shown.some((k) => k !== pick && changed(k, keys[k])) };
    },
  };
}
