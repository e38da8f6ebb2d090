// The engine's worker prepared by an inline script in the built index.html's <head> (vite.config.js,
// earlyWorker); engine-early.js adopts it. Without it (the dev server, a failure here) engine-early.js
// makes the worker itself, only later.
// Inlined as its source text: self-contained (no imports, no outer names).
// The worker starts from a two-line script in a Blob: it starts the wasm's download, then loads the
// lab's worker script (lab-worker.js) with importScripts. (A worker made from the script's URL started
// its thread only once that script had arrived and a task of the page's main thread had run; from a
// Blob, the thread starts at once.) No message is needed for it to work: it starts by itself from its
// name (the wasm's folder and the page's hash, from which it also computes the page's first run:
// first-run.js).
// When its thread starts: start(). For a link with a hash, here at once: only the default link's first
// run comes with the page's code (computed at build time, scripts/vite-first-run.mjs), so any other
// link's first frame waits for this worker's wasm and first run, and the worker's start should not
// wait for the lab's module to arrive and evaluate (it did: the thread started 210-350 ms after the
// navigation, now in the HTML's head). engine-early.js starts it for the default link without a first
// run in the page, and otherwise (the default link with its first run) once the first frame is drawn: then the worker's download, compile and first run (~90 ms of
// its thread's CPU, and the wasm's compiles in the renderer's pool) do not compete with the first
// frame for this machine's two cores (lab first frame 592 -> 483 ms, 8 pairs; the run starts moving
// as soon as before, as the worker alone finishes as early: docs/BENCHMARKS.md). Until then the
// messages posted to it wait here (the init, and the reference SVMs' solves, which the first frame
// does not wait for).
// Not on a page opened on a scenario with a view of its own (html[data-view], set by the head's
// prepaint script before this one): that view does not use this engine (engine-early.js).
export function startEarlyWorker(src) {
  if (document.documentElement.dataset.view) return;
  try {
    const baseUrl = new URL('./wasm/', document.baseURI).href;
    const wasm = new URL('attnsvm.wasm', baseUrl).href;
    const boot = new Blob([`self.__attnsvmWasm = fetch(${JSON.stringify(wasm)}, { credentials: 'same-origin' });\n` +
      `importScripts(${JSON.stringify(new URL(src, document.baseURI).href)});\n`], { type: 'text/javascript' });
    // (the Blob's URL is kept: the worker's location for the page's life, 0.3 KB)
    const url = URL.createObjectURL(boot), name = JSON.stringify({ baseUrl, hash: location.hash });
    let real = null;
    const queue = [];
    const gone = { postMessage() {}, terminate() {} };  // (refused, or terminated)
    // (the part of Worker's interface worker-engine.js uses; startedAt: ms, startedBy: who started it
    // (engine-early.js), for the tests)
    const w = window.__attnsvmEarlyWorker = {
      failed: false, onmessage: null, onerror: null, startedAt: null, startedBy: null,
      start(by = null) {
        if (real) return;
        w.startedAt = performance.now();
        w.startedBy = by;
        try {
          real = new Worker(url, { name });
        } catch (e) {  // (refused by the site's policy: the page's engine fails and makes its own, app.js)
          w.failed = true;
          real = gone;
          setTimeout(() => w.onerror?.({ message: String(e?.message ?? e) }));
          return;
        }
        real.onmessage = (e) => w.onmessage?.(e);
        real.onerror = (e) => { w.failed = true; w.onerror?.(e); };
        for (const [m, t] of queue.splice(0)) real.postMessage(m, t);
      },
      postMessage(m, t) { if (real) real.postMessage(m, t); else queue.push([m, t]); },
      terminate() { real?.terminate(); queue.length = 0; real = gone; },
    };
    if (location.hash) w.start('html');
  } catch { /* no worker here: the lab's module makes one */ }
}
