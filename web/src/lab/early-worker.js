// The engine's worker started by an inline script in the built index.html's <head> (vite.config.js,
// earlyWorker), so that the worker fetches and compiles the wasm while the page's HTML is parsed and
// the lab's modules download and evaluate; engine-early.js adopts it. Without it (the dev server, a
// failure here) engine-early.js makes the worker itself, only later.
// Inlined as its source text: self-contained (no imports, no outer names).
// The worker starts from a two-line script in a Blob: it starts the wasm's download, then loads the
// lab's worker script (lab-worker.js) with importScripts. A worker made from the script's URL started
// its thread only once that script had arrived and a task of the page's main thread had run (busy
// then with the page's first style and layout, ~150 ms); from a Blob, the thread starts at once and
// the script and the wasm download meanwhile. No message is posted to it: the worker starts by itself
// from its name (the wasm's folder and the page's hash, from which it also computes the page's first
// run: first-run.js). (The Blob's URL is kept: the worker's location for the page's life, 0.3 KB.)
// Not on a page opened on a scenario with a view of its own (html[data-view], set by the head's
// prepaint script before this one): that view does not use this engine (engine-early.js).
export function startEarlyWorker(src) {
  if (document.documentElement.dataset.view) return;
  try {
    const baseUrl = new URL('./wasm/', document.baseURI).href;
    const wasm = new URL('attnsvm.wasm', baseUrl).href;
    const boot = new Blob([`self.__attnsvmWasm = fetch(${JSON.stringify(wasm)}, { credentials: 'same-origin' });\n` +
      `importScripts(${JSON.stringify(new URL(src, document.baseURI).href)});\n`], { type: 'text/javascript' });
    const w = window.__attnsvmEarlyWorker = new Worker(URL.createObjectURL(boot), { name: JSON.stringify({ baseUrl, hash: location.hash }) });
    // (a worker refused by the site's policy fails at once: engine-early.js then gives it no first run)
    w.onerror = () => { w.failed = true; };
  } catch { /* no worker here: the lab's module makes one */ }
}
