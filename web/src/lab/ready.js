// When the lab has drawn: the first frame's time (from the lab's start), the promise that work the
// first frame does not need waits for (the formulas, the experiments), and the ready flags the browser
// tests wait for.
//
// createReadiness() (at the lab's start) -> { firstFrame: Promise, firstFrameAt (ms or null), ready,
//   frameDrawn() (the first run's first frame is on screen: every panel in the viewport drawn;
//   render-loop.js draws those within its observer's margin, just below the fold, in the tasks
//   right after, and the others as they come near; the ready flag waits for the margin's too),
//   markReady() (the page is usable: also a page that never draws a token panel, e.g. real
//   images, or whose run failed) }
// (the lab has one: viewDrawn() below marks its first frame)
let labReadiness = null;

export function createReadiness() {
  const t0 = performance.now();
  let firstFrameAt = null, ready = false, firstFrameDone;
  const firstFrame = new Promise((resolve) => { firstFrameDone = resolve; });
  return labReadiness = {
    firstFrame,
    get firstFrameAt() { return firstFrameAt; },
    get ready() { return ready; },
    frameDrawn() {
      if (firstFrameAt !== null) return;
      firstFrameAt = performance.now() - t0;
      performance.mark('lab-first-frame');
      firstFrameDone();
    },
    markReady() {
      firstFrameDone();  // (a page that never draws a token panel, e.g. real images, still loads the rest)
      if (ready) return;
      ready = true;
      window.__ready = true;
    },
  };
}

// A run's first drawing has drawn the panels on screen (render-loop.js): the lab's first frame, if
// it is the first (restart.js marks it too once the whole first drawing is done, for a run whose
// drawing did not say so).
export function viewDrawn() { labReadiness?.frameDrawn(); }

// After the browser has painted and is idle (work the first frame does not need).
export const idleThen = (f) => (typeof requestIdleCallback === 'function' ? requestIdleCallback(() => f(), { timeout: 1500 }) : setTimeout(f, 200));
