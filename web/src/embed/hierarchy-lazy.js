// The embeds' door to the hierarchy figure (hierarchy-figure.js): its frame (shell.js: the panels'
// sizes reserved, figure.css) built at once, its code loaded on demand, so the iframe embed of any
// other scenario downloads none of it (vite splits it into a chunk of its own). Same api as
// figure.js from the first call on (lazy-figure.js); a start() before the code is in waits for it.
import { createFigureShell } from './shell.js';
import { HIER_PANEL_TITLES } from './params.js';
import { SCENARIO_INFO } from '../lab/scenarios.js';
import { lazyFigureApi } from './lazy-figure.js';

// The panels' notes and the legend line: in the frame from its first paint (their lines' height).
const NOTES = {
  layer1: 'Blue: the selected token\'s softmax (mean over units); vermillion: corr(W1, seq2seq SAtt-SVM of its selection), attended units (solid) and all (dashed). No point: SVM infeasible or not certified.',
  layer2: 'Blue: mass on the selected set O_i (solid), largest softmax (dashed); vermillion: corr(W2, Att-SVM of O_i on the current H_i).',
  finals: '',
};
export function hierarchyFrameText(shell, state) {
  for (const [id, b] of Object.entries(shell.bodies)) b.note.textContent = NOTES[id] ?? '';
  shell.legend.textContent = `Seed ${state.seed ?? 0}: sphere data n = 4, T = 5, d = 10; W1, W2 trained jointly by NGD for ` +
    `${state.iterations ?? 2000} steps; 41 snapshots, played one after the other.`;
}

export function createLazyHierarchyFigure(root, options) {
  const info = SCENARIO_INFO.hierarchy;
  const shell = createFigureShell(root, {
    title: info.title, panels: options.panels, panelTitles: HIER_PANEL_TITLES, labUrl: options.labUrl, iterText: 'loading…',
    caption: options.caption === 'scenario' ? info.caption : options.caption, page: !!options.page,
  });
  hierarchyFrameText(shell, options.state);
  root.classList.add('af-waiting');
  return lazyFigureApi(root, options, {
    scenario: 'hierarchy',
    // (the <attnsvm-figure> element loads it as a script of its own: options.loadHierarchyFigure,
    // figure-scripts.js; its build cuts the import below)
    load: options.loadHierarchyFigure ?? (() => import('./hierarchy-figure.js')),
    create: ({ createHierarchyFigure }, o) => createHierarchyFigure(root, { ...o, shell, deferStart: true }),
    showError: (text) => shell.showMessage(text),
    startable: true,
  });
}
