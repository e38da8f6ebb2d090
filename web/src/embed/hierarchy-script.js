// The <attnsvm-figure> element's hierarchy figure (hierarchy-figure.js) as a script of its own,
// attnsvm-figure-hierarchy.js next to the element's (built by vite.element.config.js), fetched only
// by a hierarchy figure: the element's one script does not carry it (its size bound, issue 40).
// That script's imports of modules the element has already are these instances (the build maps
// them to this registry: vite.element.config.js, SHARED_MODULES), so it adds only its own code and
// shares the element's print and screen-reader hooks.
import * as shell from './shell.js';
import * as params from './params.js';
import * as domWrite from '../lab/dom-write.js';
import * as figureAccess from '../access/figure-access.js';
import * as scenarios from '../lab/scenarios.js';
import * as curvesSvg from '../plots/curves-svg.js';
import * as theme from '../plots/theme.js';

const SHARED = {
  'embed/shell.js': shell, 'embed/params.js': params, 'lab/dom-write.js': domWrite, 'access/figure-access.js': figureAccess,
  'lab/scenarios.js': scenarios, 'plots/curves-svg.js': curvesSvg, 'plots/theme.js': theme,
};

let loading = null;
// -> Promise<{ createHierarchyFigure }>, the script at `url` loaded once per page
export function loadHierarchyScript(url) {
  globalThis.__attnsvmFigureShared ??= SHARED;
  return loading ??= new Promise((resolve, reject) => {
    const s = document.createElement('script');
    s.src = url;
    s.async = true;
    s.onload = () => (globalThis.__attnsvmHierarchyFigure ? resolve(globalThis.__attnsvmHierarchyFigure) : reject(new Error(`${url} did not define the hierarchy figure`)));
    s.onerror = () => { loading = null; reject(new Error(`${url} could not be loaded`)); };
    document.head.append(s);
  });
}
