// The <attnsvm-figure> element's figures that are scripts of their own, next to the element's
// (built by vite.element.config.js), each fetched only by a figure of its scenario: the element's one
// script does not carry them (its size bound, issues 40 and 42):
//   attnsvm-figure-hierarchy.js  the hierarchy (hierarchy-figure.js) -> __attnsvmHierarchyFigure
//   attnsvm-figure-real.js       real images (real-script.js)        -> __attnsvmRealFigure
// Their imports of modules the element has already are these instances (the build maps them to
// this registry: vite.element.config.js, SHARED_MODULES, the same keys), so a script adds only its
// own code and shares the element's print and screen-reader hooks.
import * as shell from './shell.js';
import * as params from './params.js';
import * as domWrite from '../lab/dom-write.js';
import * as figureAccess from '../access/figure-access.js';
import * as scenarios from '../lab/scenarios.js';
import * as curvesSvg from '../plots/curves-svg.js';
import * as theme from '../plots/theme.js';
import * as svg from '../plots/svg.js';
import * as heatmaps from '../plots/heatmaps.js';
import * as workerEngine from '../engine/worker-engine.js';
import { scaleLinear, scaleLog } from 'd3-scale';
import { interpolateViridis } from 'd3-scale-chromatic';

const SHARED = {
  'embed/shell.js': shell, 'embed/params.js': params, 'lab/dom-write.js': domWrite, 'access/figure-access.js': figureAccess,
  'lab/scenarios.js': scenarios, 'plots/curves-svg.js': curvesSvg, 'plots/theme.js': theme, 'plots/svg.js': svg,
  'plots/heatmaps.js': heatmaps, 'engine/worker-engine.js': workerEngine,
  // (packages: only the functions named in vite.element.config.js, SHARED_PACKAGES)
  'd3-scale': { scaleLinear, scaleLog }, 'd3-scale-chromatic': { interpolateViridis },
};

const loading = new Map();
// -> Promise<the script's exports (globalThis[name]: the `what` figure)>, the script at `url` loaded
// once per page
export function loadFigureScript(url, name, what) {
  globalThis.__attnsvmFigureShared ??= SHARED;
  if (!loading.has(url)) {
    loading.set(url, new Promise((resolve, reject) => {
      const s = document.createElement('script');
      s.src = url;
      s.async = true;
      s.onload = () => (globalThis[name] ? resolve(globalThis[name]) : reject(new Error(`${url} did not define the ${what}`)));
      s.onerror = () => { loading.delete(url); reject(new Error(`${url} could not be loaded`)); };
      document.head.append(s);
    }));
  }
  return loading.get(url);
}
