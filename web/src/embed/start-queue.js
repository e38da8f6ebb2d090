// When the embedded figures of a page start (issue 24: a page of figures loads at once). A figure's
// start (its panels, the engine's scenario and first frame, the first drawing of each panel) is
// main-thread work; a page that starts all its figures at load piles it up as one blocking stretch.
//   - near the view: a figure starts when it comes within NEAR_MARGIN of the viewport (an
//     IntersectionObserver with a margin; a browser ignores the margin for a cross-origin iframe,
//     whose figure then starts when it is shown);
//   - in idle time: the others start BACKGROUND_AFTER_MS after the page's load, when the browser is
//     idle, one after the other, without playing, so that a printed page holds every figure's state
//     (beforeprint is synchronous: a figure that has not started then has nothing to print; it prints
//     its address, figure.css). Not at once after the load: the reader's first seconds (the text,
//     the figures in view, scrolling) come first, and a start's drawing has tasks of 20-100 ms;
//   - one at a time: starts are serialized by a Web Lock (START_LOCK), which the element figures and
//     the same-origin iframe figures of a page share (without Web Locks: a queue in this document);
//   - yieldToPage() between the parts of a start (each panel's first drawing), so that no task of a
//     start grows long.
export const NEAR_MARGIN = '50% 0px';
const START_LOCK = 'attnsvm-figure-start';
// a start that hangs (a dead engine) must not hold the others back
const MAX_HOLD_MS = 15000;
const BACKGROUND_AFTER_MS = 8000;

export function yieldToPage() {
  if (globalThis.scheduler?.yield) return globalThis.scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}

const idlePeriod = () => new Promise((resolve) => {
  if (globalThis.requestIdleCallback) requestIdleCallback(() => resolve(), { timeout: 3000 });
  else setTimeout(resolve, 200);
});
const loaded = () => new Promise((resolve) => {
  if (document.readyState === 'complete') resolve();
  else addEventListener('load', () => resolve(), { once: true });
});

let chain = Promise.resolve();
function serialized(run) {
  const bounded = () => Promise.race([Promise.resolve().then(run).catch(() => {}), new Promise((r) => setTimeout(r, MAX_HOLD_MS))]);
  if (globalThis.navigator?.locks?.request) return navigator.locks.request(START_LOCK, bounded).catch(() => bounded());
  const p = chain.then(bounded);
  chain = p;
  return p;
}

// Starts figures: near(target) when the figure comes near the view, idle(target) to start it in the
// background. Each target gets one start: start(target) (returns a Promise, resolved once the figure
// is drawn), called under the page's start lock.
export function createStarter(start) {
  const state = new WeakMap(); // target -> 'queued' | 'started'
  const observer = new IntersectionObserver((entries) => {
    for (const e of entries) if (e.isIntersecting) near(e.target);
  }, { rootMargin: NEAR_MARGIN });

  function enqueue(target, background) {
    if (state.has(target)) return;
    state.set(target, 'queued');
    observer.unobserve(target);
    serialized(async () => {
      if (background) await idlePeriod();
      if (!target.isConnected && target !== document.documentElement) return;
      state.set(target, 'started');
      await start(target);
    });
  }
  function near(target) { enqueue(target, false); }
  return {
    // watch a figure: it starts when near the view, or in the background after the page's load
    watch(target) {
      state.delete(target);
      observer.unobserve(target);  // (observed anew: a fresh first notification)
      observer.observe(target);
      loaded().then(() => new Promise((r) => setTimeout(r, BACKGROUND_AFTER_MS))).then(idlePeriod)
        .then(() => { if (!state.has(target)) enqueue(target, true); });
    },
    unwatch(target) { observer.unobserve(target); state.delete(target); },
    near,
  };
}
