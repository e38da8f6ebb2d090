// The engine's worker started by an inline script in the built index.html's <head> (vite.config.js,
// earlyWorker), so that the worker fetches and compiles the wasm while the page's HTML is parsed and
// the lab's modules download and evaluate; engine-early.js adopts it. Without it (the dev server, a
// failure here) engine-early.js makes the worker itself, only later.
// Inlined as its source text: self-contained (no imports, no outer names).
// The worker (lab-worker.js) starts by itself from its name: the wasm's folder and the page's hash,
// from which it also starts the page's first run (first-run.js). No message is posted to it here: a
// worker's first messages wait for tasks of the page's main thread, busy until the lab's modules ran.
// Not on a page opened on a scenario with a view of its own (html[data-view], set by the head's
// prepaint script before this one): that view does not use this engine (engine-early.js).
export function startEarlyWorker(src) {
  if (document.documentElement.dataset.view) return;
  try {
    const baseUrl = new URL('./wasm/', document.baseURI).href;
    window.__attnsvmEarlyWorker = new Worker(src, { name: JSON.stringify({ baseUrl, hash: location.hash }) });
  } catch { /* no worker here: the lab's module reports it */ }
}
