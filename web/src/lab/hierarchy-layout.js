// The markup of the hierarchy preset's view (issue 40, SPEC 5.3 "Two layers"): two stacked attention
// layers trained by NGD, one seed of `attnsvm experiment hierarchy` run through the experiment API
// (hierarchy-view.js draws it). A view of its own beside the token panels' (the one-layer trace's
// panels do not describe two layers): in the lab's HTML, hidden, its panels' space reserved
// (lab.css), shown before the first paint for a page opened on it (prepaint.js: data-own-view).
import { SCENARIO_INFO, SCENARIO_ORDER } from './scenarios.js';

export const HIER_ID = 'hierarchy';
// The panels: each layer's curves over iterations, and the run's final numbers.
export const HIER_PANELS = [
  { id: 'layer1', title: 'Layer 1: self-attention W1 (sequence-to-sequence) against its SAtt-SVM',
    sub: 'Per snapshot: the selected token\'s softmax probability (mean over the n T units) and corr(W1, seq2seq SAtt-SVM of layer 1\'s selection), over the units layer 2 attends to and over all units (a snapshot whose SVM is infeasible or not certified has no point).' },
  { id: 'layer2', title: 'Layer 2: cross-attention W2 (query h_i0) against the SVM of its selected set',
    sub: 'Per snapshot: layer 2\'s largest softmax probability, its mass on its selected set O_i (the rows of H_i that copy the same token), and corr(W2, Att-SVM of that set on the current H_i).' },
  { id: 'readout', title: 'The run at its end: certificates and selections', sub: '' },
];

export function hierarchyLayoutHtml() {
  const info = SCENARIO_INFO[HIER_ID];
  const options = SCENARIO_ORDER.map((id) => `<option value="${id}"${id === HIER_ID ? ' selected' : ''}>${SCENARIO_INFO[id].title}</option>`).join('');
  return `
  <div class="hier-layout" data-own-view="${HIER_ID}" data-top-player hidden>
    <aside class="controls" aria-label="Hierarchy controls">
      <form id="hier-controls" autocomplete="off" onsubmit="return false">
        <fieldset><legend>Scenario</legend>
          <label for="hier-scenario">Preset</label>
          <select id="hier-scenario">${options}</select>
        </fieldset>
        <fieldset><legend>Run</legend>
          <div class="row">
            <label>Seed <input id="hier-seed" type="number" min="0" step="1" inputmode="numeric" value="0"></label>
            <label>Iterations <input id="hier-iters" type="number" min="40" max="20000" step="1" value="2000"></label>
          </div>
          <p class="hint">Sphere data n = 4, T = 5, d = 10 (the experiment's), W1, W2 ~ N(0, 0.1²) from the seed, NGD η = 0.1; 40 snapshots, walked by the player at the top (play, step, reset).</p>
        </fieldset>
      </form>
    </aside>
    <main>
      <section class="intro" aria-labelledby="hier-title">
        <h2 id="hier-title">${info.title}</h2>
        <p id="hier-caption">${info.caption}</p>
        <p id="hier-status" class="hint" role="status">Waiting for the engine…</p>
      </section>
      <div class="panels">
        ${HIER_PANELS.map((p) => `
        <section class="panel" id="hier-panel-${p.id}" aria-labelledby="hier-h-${p.id}">
          <header><h3 id="hier-h-${p.id}">${p.title}</h3></header>
          <div class="body" id="hier-body-${p.id}"></div>
          <p class="sub" id="hier-sub-${p.id}">${p.sub}</p>
        </section>`).join('')}
      </div>
    </main>
  </div>`;
}
