// The lab's engine, started by the first import of app.js: module scripts evaluate their imports in
// order, so the worker is created (and fetches and compiles the wasm) while the rest of the lab's
// code is still being evaluated, instead of after it. In the built page the worker was already
// started by the HTML (early-worker.js): then it is adopted here.
// A page opened on a scenario with a view of its own (real images: html[data-view], prepaint.js)
// does not use this engine (the view runs workers of its own): its worker starts on the first call
// that needs it (a token scenario opened) or on start() (real-view.js: the reader reaches for the
// scenario select). Until then version() answers the footer's "loading…" (the view writes the
// version of the engine it runs) and scenarioNames() the lab's engine scenarios (scenarios.js).
// For the default link (no hash) the first run's answers come with this module (computed at build
// time by the same code as the worker's: scripts/vite-first-run.mjs): the page's first run is
// answered at once, and its first frame does not wait for the worker's thread, the wasm's compile or
// the engine (worker-engine.js firstRun); the worker computes the same run ahead, which the page then
// plays on. Given only with the HTML's worker (named with the page's hash: it computes that run).
import { createEngineClient } from './engine-client.js';
import { SCENARIO_INFO } from './scenarios.js';
import buildFirstRun from 'virtual:lab-first-run';

const early = typeof window !== 'undefined' ? window.__attnsvmEarlyWorker : undefined;
const ownView = !early && typeof document !== 'undefined' && !!document.documentElement.dataset.view;
const firstRun = early && !early.failed && location.hash === buildFirstRun.hash ? buildFirstRun.offer : undefined;
// The HTML's worker, started by the HTML for a link with a hash (early-worker.js), starts now for the
// default link if the page does not have its first run with its code; else startWorker(), at
// the first frame (app.js; early-worker.js: why), or 2 s from here if that has not come (a first frame
// that waits for the worker, e.g. a page whose first run is not the build's, is then late, not lost).
if (early && !firstRun) early.start('link');
else if (early) setTimeout(() => early.start('guard'), 2000);
export const startWorker = () => early?.start('first-frame');
export const earlyEngine = ownView ? Promise.resolve(lazyClient())
  : early ? createEngineClient({ worker: early, firstRun }).catch(() => { early.terminate(); return createEngineClient({ worker: labWorker() }); })
    : createEngineClient({ worker: labWorker() });

// An engine of a new worker, for a page whose HTML worker did not compute the first run given with
// this module (firstRunChecked false: a worker that failed to start, app.js): the page's first run is
// then computed as on any other link.
export function newEngine() { return createEngineClient({ worker: labWorker() }); }

// The worker early-worker.js would have made (lab-worker.js: it starts from its name, with the page's
// first run); here as a fallback (the dev server, a failed head script, an early worker that failed
// to start, e.g. a Blob refused by the site's policy).
// (vite's dev server serves the worker's modules unbundled: a module worker there)
function labWorker() {
  const name = JSON.stringify({ baseUrl: new URL('./wasm/', document.baseURI).href, hash: location.hash });
  return import.meta.env?.DEV ? new Worker(new URL('./lab-worker.js', import.meta.url), { type: 'module', name })
    : new Worker(new URL('./lab-worker.js', import.meta.url), { name });
}
// (the mark 'lab-answer': from here on the page's first run is answered without waiting: with the
// default link at once (the first run given with this module), else once the engine's init reply, with
// the first run its worker computed ahead, has arrived; bench/browser/worker-timeline.mjs)
earlyEngine.then(() => { if (!ownView) performance.mark('lab-answer'); }, () => {}); // (errors: reported where it is awaited, app.js's boot)

function lazyClient() {
  let client = null;
  const start = () => (client ??= createEngineClient());
  const names = Object.keys(SCENARIO_INFO).filter((id) => !SCENARIO_INFO[id].own);
  return new Proxy({}, {
    get(_, method) {
      if (method === 'then') return undefined;  // (not a thenable: the promise above resolves to it)
      if (method === 'firstRunChecked') return undefined;  // (no first run given: engine-client.js)
      if (method === 'start') return () => { start().catch(() => {}); };
      if (method === 'version' && !client) return async () => 'loading…';
      if (method === 'scenarioNames' && !client) return async () => names;
      if (method === 'terminate' && !client) return () => {};
      return (...args) => start().then((c) => c[method](...args));
    },
  });
}
