// The lab's engine worker (the built index.html starts it from its <head>: early-worker.js): the
// engine's worker (worker.js) that starts by itself when its script is evaluated, without waiting for
// a message from the page (a worker's first messages reach it through tasks of the page's main thread,
// busy then with the lab's modules): the wasm's download (begun by early-worker.js's bootstrap,
// self.__attnsvmWasm, or here) and streamed compile first, then the
// Emscripten glue (bundled in this script: vite.config.js, attnsvmGlue, instead of a synchronous
// importScripts), then the page's first run (first-run.js), whose results go to the page with the
// reply to its init request (worker-engine.js answers the page's equal requests with them). The page
// names the worker: JSON {baseUrl: the folder of attnsvm.wasm, hash: the page's location.hash}.
// Without that name (a worker made otherwise) it is worker.js, started by the init request.
import { handlers, adoptEngine, extendInitReply } from '../engine/worker.js';
import { compileWasm, createEngine } from '../engine/engine.js';
import loadGlue from 'virtual:attnsvm-glue';
import { startFirstRun } from './first-run.js';

function bootOptions() {
  try {
    const o = JSON.parse(self.name);
    return typeof o?.baseUrl === 'string' ? { baseUrl: o.baseUrl, hash: typeof o.hash === 'string' ? o.hash : '' } : null;
  } catch { return null; }
}

const boot = bootOptions();
if (boot) {
  const compiled = compileWasm(new URL('attnsvm.wasm', boot.baseUrl).href, self.__attnsvmWasm);
  compiled.catch(() => {}); // (reported through the engine's promise)
  let offer = null;
  // (the marks: the worker's timeline in a trace, bench/browser/worker-timeline.mjs)
  adoptEngine(createEngine({ baseUrl: boot.baseUrl, factory: loadGlue(), compiled }).then(async (engine) => {
    performance.mark('attnsvm-worker-engine');
    // (the engine answers at once: the offer is done in this task, before the init reply)
    offer = await startFirstRun(engine, boot.hash, handlers);
    performance.mark('attnsvm-worker-first-run');
    return engine;
  }));
  // the first run, once, to the first init request (the page's)
  extendInitReply(() => {
    const firstRun = offer;
    offer = null;
    return firstRun?.answers.length ? { firstRun } : {};
  });
}
