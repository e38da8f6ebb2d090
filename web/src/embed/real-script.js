// The entry of attnsvm-figure-real.js, the <attnsvm-figure> element's real-images figure as a script
// of its own (figure-scripts.js; built by vite.element.config.js): the figure (real/figure-real.js)
// and the worker of its runs (real/real-worker.js, inlined here: the element's own worker is the
// plain engine's, worker.js), with the experiments build of the module fetched from wasm/ beside
// the scripts (options.realBase: the element's folder).
import RealWorker from '../real/real-worker.js?worker&inline';
import { createRealEngine } from '../real/real-engine.js';
import { createRealFigure as createFigure } from '../real/figure-real.js';

export function createRealFigure(root, options) {
  const baseUrl = new URL('wasm/', options.realBase ?? document.baseURI).href;
  return createFigure(root, { realEngine: () => createRealEngine({ worker: new RealWorker(), baseUrl }), ...options });
}
