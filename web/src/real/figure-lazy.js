// The embeds' door to the real-images figure (figure-real.js): loaded on demand, so the iframe
// embed of any other scenario downloads none of its code (vite splits it into a chunk of its own;
// the single-script <attnsvm-figure> loads it as a script of its own beside the element's:
// options.loadRealFigure, embed/figure-scripts.js, and its build cuts the import below). Same api
// as figure.js from the first call on (embed/lazy-figure.js).
import { lazyFigureApi } from '../embed/lazy-figure.js';

export function createLazyRealFigure(root, options) {
  return lazyFigureApi(root, options, {
    scenario: 'real-images',
    load: options.loadRealFigure ?? (() => import('./figure-real.js')),
    create: ({ createRealFigure }, o) => createRealFigure(root, o),
    showError: (text) => { root.textContent = text; },
  });
}
