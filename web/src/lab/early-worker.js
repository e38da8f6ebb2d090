// The engine's worker started by an inline script in the built index.html's <head> (vite.config.js,
// earlyWorker), so that the worker fetches and compiles the wasm while the page's HTML is parsed and
// the lab's modules download and evaluate; engine-early.js adopts it. Without it (the dev server, a
// failure here) engine-early.js makes the worker itself, as before, only later.
// Inlined as its source text: self-contained (no imports, no outer names).
// Not on a page opened on a scenario with a view of its own (html[data-view], set by the head's
// prepaint script before this one): that view does not use this engine (engine-early.js).
export function startEarlyWorker(src) {
  if (document.documentElement.dataset.view) return;
  try {
    const w = new Worker(src);
    // the same init request worker-engine.js sends (the worker keeps the first and answers both)
    w.postMessage({ id: 0, type: 'init', baseUrl: new URL('./wasm/', document.baseURI).href });
    window.__attnsvmEarlyWorker = w;
  } catch { /* no worker here: the lab's module reports it */ }
}
