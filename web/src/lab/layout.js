// DOM of the lab: header with the player, the control form, the caption and the panel frames.
// Pure markup + small helpers; the modules app.js composes wire behaviour. Every control has a <label>.
// The markup is written into the built index.html (scripts/vite-static-shell.mjs), so the first
// paint shows the lab's frame with every panel's space reserved; prepaint.js (inlined after it)
// fills in what depends on the URL before that paint. buildLayout only writes it when it is absent
// (a page without the shell).
import { hierarchyLayoutHtml } from './hierarchy-layout.js';
import { NORM_REFS, REF_LABEL, SCENARIO_INFO, SCENARIO_ORDER } from './scenarios.js';
import { SPEEDS, SCHEMA, defaultState } from './state.js';
import { controlValues } from './controls.js';
import { lpP, effectiveRefs } from './config.js';
import { OPTIMIZERS } from './optimizers.js';

const opt = (v, label = v, selected = false) => `<option value="${v}"${selected ? ' selected' : ''}>${label}</option>`;
// The fields as the module's first sync (sync-controls.js, before the engine's scenario is known)
// writes them for a link without settings: in the markup, that sync writes nothing (no style or
// layout work in the module's start-up), and the first paint shows them filled in.
const DEF = (() => { const st = defaultState(); return controlValues(st, null, lpP(st, null)); })();
const val = (k) => (DEF[k] === undefined ? '' : ` value="${DEF[k]}"`);
const sel = (k) => (v, label = v) => opt(v, label, String(DEF[k]) === String(v));
const DEF_REFS = effectiveRefs(defaultState(), null);
const ref = (r) => (DEF_REFS.includes(r) ? ' checked' : '');

export const PANELS = [
  { id: 'plane', title: 'Token plane', wide: true },
  { id: 'softmax', title: 'Token selection: softmax over iterations' },
  { id: 'current', title: 'Current softmax per sequence' },
  { id: 'corr', title: 'Direction convergence: 1 − corr and the Bregman divergence D_p with the SVM direction' },
  { id: 'norms', title: 'Norm growth and loss' },
  { id: 'spectrum', title: 'Spectrum of W(k)/‖W(k)‖ vs the SVM solutions' },
  { id: 'weights', title: 'W(k)/‖W(k)‖ next to the SVM solutions' },
  { id: 'readout', title: 'Readout: certificates and verdict' },
];

// The subtitles that do not change with the run, in the markup (the first paint has their lines: a
// subtitle written at the first drawing grew its panel by a line and moved the panels below it).
export const PANEL_SUBTITLES = {
  softmax: 'Colour: softmax probability s_it of each token: one band per sequence (left strip: its colour), tokens t = 0…T−1 top to bottom. Selection shows as one bright row per band.',
  current: 'Rows: sequences; columns: tokens. Solid box: the selected token; dashed: the optimal token.',
  // (seq2seq and causal attention: a query per token, a T x T block of rows per sequence)
  currentPerQuery: 'A T x T block per sequence (seq i), side by side: a row per query (q k), a column per token (t = 0…T−1). Solid box: the selected token.',
};

// The current softmax's two subtitles, the one for the link's attention shown before the first paint
// (html[data-per-query], prepaint.js; lab.css): written at the first drawing, a per-query subtitle
// (a line longer) grew the panel and moved the panels below it.
const currentSubtitles = () => `<span class="sub-cross">${PANEL_SUBTITLES.current}</span><span class="sub-pq">${PANEL_SUBTITLES.currentPerQuery}</span>`;

// The formula slots of the intro: fixed-height boxes that the formulas' SVG fills after the first
// frame (sync-controls.js, formulas.js), so that they move nothing (prepaint.js writes as many as
// the scenario has).
export const formulaSlot = '<div class="formula" tabindex="0"></div>';
// Where the built page runs prepaint.js: after the controls and the intro it fills in, before the
// panels (a paint before it would show the default scenario's texts, not empty ones).
export const PREPAINT_MARK = '<!--attnsvm:prepaint-->';

export function labShellHtml() {
  return `
  <header class="topbar">
    <div class="brand"><h1>attnsvm <span>lab</span></h1>
      <p class="tagline">Softmax attention trained by gradient descent selects tokens; its weights turn toward a max-margin SVM.</p></div>
    <div class="player" role="group" aria-label="Player">
      <button id="btn-play" type="button" class="primary" disabled><span class="ico" aria-hidden="true">▶</span> <span class="lbl">Play</span></button>
      <button id="btn-step" type="button" aria-label="Step" disabled>Step</button>
      <button id="btn-reset" type="button" aria-label="Reset">Reset</button>
      <label class="inline">Speed <select id="ctl-speed" aria-label="Speed (iterations per frame)">${SPEEDS.map((s) => (s === SCHEMA.speed.def ? opt(s, `${s}×`).replace('>', ' selected>') : opt(s, `${s}×`))).join('')}</select></label>
      <output id="iter-out" aria-live="off">k = 0 / —</output>
    </div>
    <p class="print-only">The live lab: <span id="print-link"></span></p>
    <div class="top-tools">
      <button id="btn-copy" type="button">Copy link</button>
      <button id="btn-embed" type="button" title="Copy embed code for lecture notes (iframe or &lt;attnsvm-figure&gt;)">Embed</button>
      <button id="btn-theme" type="button" aria-label="Toggle dark theme">◐ Theme</button>
    </div>
  </header>${hierarchyLayoutHtml()}
  <div class="layout">
    <aside class="controls" aria-label="Controls">
      <details id="controls-details"><summary>Controls</summary>
      <form id="controls" autocomplete="off" onsubmit="return false">
        <fieldset><legend>Scenario</legend>
          <label for="ctl-scenario">Preset</label>
          <select id="ctl-scenario">${SCENARIO_ORDER.map((id) => opt(id, SCENARIO_INFO[id].title)).join('')}</select>
        </fieldset>
        <fieldset><legend>Data</legend>
          <label for="ctl-generator">Generator</label>
          <select id="ctl-generator">${opt('scenario', 'the scenario\'s own data')}${opt('sphere', 'sphere (seeded unit Gaussians)')}</select>
          <p class="hint" id="data-hint"></p>
          <div class="row">
            <label data-opt="seed">Seed <input id="ctl-seed"${val('seed')} type="number" min="0" step="1" inputmode="numeric"></label>
            <label data-opt="n">n <input id="ctl-n"${val('n')} type="number" min="1" max="30" step="1"></label>
            <label data-opt="T">T <input id="ctl-T"${val('T')} type="number" min="2" max="20" step="1"></label>
            <label data-opt="d">d <input id="ctl-d"${val('d')} type="number" min="1" max="24" step="1"></label>
          </div>
          <div class="row">
            <label data-opt="C">C <input id="ctl-C"${val('C')} type="number" step="any"></label>
            <label data-opt="start">Start <select id="ctl-start">${[0, 1, 2, 3, 4, 5].map((s) => sel('start')(s)).join('')}</select></label>
            <label data-opt="localCase" class="check"><input id="ctl-localCase" type="checkbox"> local case</label>
            <label data-opt="variant">Variant <select id="ctl-variant">${sel('variant')(0, '(0.5, 1)')}${sel('variant')(1, '(0.5, 1.5)')}</select></label>
          </div>
          <details id="json-details"><summary>Tokens as JSON</summary>
            <label for="ctl-json" class="sr-only">Dataset JSON</label>
            <textarea id="ctl-json" rows="8" spellcheck="false" aria-describedby="json-msg"></textarea>
            <div class="row"><button id="btn-json-apply" type="button">Apply JSON</button>
              <button id="btn-json-reset" type="button">Generator data</button></div>
            <p id="json-msg" class="field-msg" role="status"></p>
          </details>
        </fieldset>
        <fieldset><legend>Model</legend>
          <label for="ctl-attention">Attention</label>
          <select id="ctl-attention">${sel('attention')('cross', 'cross (query z_i)')}${sel('attention')('self', 'self (query x_i,q)')}${sel('attention')('seq2seq', 'sequence-to-sequence')}${sel('attention')('causal')}</select>
          <label for="ctl-param">Parameterization</label>
          <select id="ctl-param">${sel('param')('W', 'W (Frobenius limit)')}${sel('param')('KQ', 'K Qᵀ (nuclear limit)')}${sel('param')('prompt', 'prompt p')}</select>
          <label for="ctl-head">Head</label>
          <select id="ctl-head">${sel('head')('linear', 'linear vᵀr')}${sel('head')('relu', 'ReLU vᵀrelu(Vr)')}</select>
          <label for="ctl-loss">Loss</label>
          <select id="ctl-loss">${sel('loss')('logistic')}${sel('loss')('exponential')}${sel('loss')('correlation', 'correlation (−u)')}</select>
        </fieldset>
        <fieldset><legend>Training</legend>
          <label for="ctl-optimizer">Optimizer</label>
          <select id="ctl-optimizer">${OPTIMIZERS.filter((o) => o.label).map((o) => sel('optimizer')(o.name, o.label)).join('')}</select>
          <div class="row">
            <label>Step η <input id="ctl-lr"${val('lr')} type="number" min="0" step="any"></label>
            <label data-show="md">p <input id="ctl-p"${val('p')} type="number" min="1.05" max="10" step="0.05"></label>
            <label>Iterations <input id="ctl-iterations"${val('iterations')} type="number" min="1" max="20000" step="1"></label>
          </div>
          <div class="row">
            <label class="check"><input id="ctl-joint" type="checkbox"> joint training of v</label>
            <label data-show="joint">head η <input id="ctl-headLr"${val('headLr')} type="number" min="0" step="any"></label>
          </div>
        </fieldset>
        <fieldset><legend>Reference SVMs</legend>
          <div class="row wrap">
            ${NORM_REFS.map((r) => `<label class="check"><input id="ref-${r}" type="checkbox"${ref(r)}> ${REF_LABEL[r]} <span class="dash dash-${r}" aria-hidden="true"></span></label>`).join('\n            ')}
          </div>
          <div class="row">
            <label>l_p SVM p <input id="ctl-svmP"${val('svmP')} type="number" min="1.05" max="10" step="0.05"></label>
            <label>Selection <select id="ctl-selection">${sel('selection')('auto', 'the run\'s selection')}${sel('selection')('optimal', 'optimal tokens')}</select></label>
          </div>
        </fieldset>
        <fieldset><legend>Export</legend>
          <div class="row wrap">
            <button id="btn-csv" type="button">Trace CSV</button>
            <button id="btn-trace-json" type="button">Trace JSON</button>
            <button id="btn-data-json" type="button">Dataset JSON</button>
          </div>
        </fieldset>
      </form>
      </details>
    </aside>
    <main>
      <div id="messages" class="messages" role="alert" aria-live="assertive"></div>
      <section class="intro" aria-labelledby="sc-title">
        <h2 id="sc-title">${SCENARIO_INFO[SCENARIO_ORDER[0]].title}</h2>
        <p id="sc-caption">${SCENARIO_INFO[SCENARIO_ORDER[0]].caption}</p>
        <p id="sc-datanote" class="hint" hidden></p>
        <div id="sc-formulas" class="formulas">${formulaSlot.repeat(3)}</div>
      </section>
      ${PREPAINT_MARK}
      <div class="panels">
        ${PANELS.map((p) => `
        <section class="panel${p.wide ? ' wide' : ''}" id="panel-${p.id}" aria-labelledby="h-${p.id}">
          <header><h3 id="h-${p.id}">${p.title}</h3>
            <div class="tools">
              <button type="button" data-export="png" data-panel="${p.id}" aria-label="Download ${p.title} as PNG">PNG</button>
              <button type="button" data-export="svg" data-panel="${p.id}" aria-label="Download ${p.title} as SVG">SVG</button>
            </div></header>
          <div class="panel-msg" id="msg-${p.id}" role="status"></div>
          <div class="body" id="body-${p.id}"></div>
          <p class="sub" id="sub-${p.id}">${p.id === 'current' ? currentSubtitles() : PANEL_SUBTITLES[p.id] ?? ''}</p>
        </section>`).join('')}
      </div>
      <footer class="foot"><p>Engine: <span id="engine-version">loading…</span>. Computation runs in a Web Worker (WebAssembly);
        the page only draws. Palette: Okabe–Ito. The maths: docs/SPEC.md in the repository.</p></footer>
    </main>
  </div>`;
}

export function buildLayout(root) {
  if (!root.querySelector('.topbar')) root.innerHTML = labShellHtml();
  const $ = (id) => root.querySelector(`#${id}`);
  return { root, $ };
}
