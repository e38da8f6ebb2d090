// The real-images view's markup (web/src/real/lab-real.js wires it). Pure: no DOM.
import { CLASS_NAMES } from './asset.js';
import { OPTIMIZERS } from './session.js';

const opt = (v, label = v) => `<option value="${v}">${label}</option>`;

export const REAL_CAPTION = 'Fashion-MNIST images cut into a 7 x 7 grid of 4 x 4 patches: each patch (its 16 pixels and its position) is a token, the image\'s mean token is the query (attention pooling), and a linear head reads the pooled token; W and the head train jointly from zero, full batch. The gallery shows, over each test image, where the attention of the current W goes (orange: s_it, boxed: the selected patch). The mirror-descent paper reports that l_p MD with p near 1 generalizes better, selects sharper and gives sparser W than gradient descent (p = 2): compare p = 1.1, 2 and 3 and see whether this holds here.';

// The legend of the gallery's gamma-optimality marks (SPEC 6.3), for the lab and the embed.
export const gammaLegendHtml = (countId) => `<p class="sub real-gamma-legend"><span class="real-gmark ok" aria-hidden="true"></span> γ-optimal: the attended patch
 (largest s_it) is the patch of largest score γ_it = Y_i v^T x_it under the current head (SPEC 6.3).
 <span class="real-gmark bad" aria-hidden="true"></span> not γ-optimal: the dashed pink box marks the optimal patch.
 <span id="${countId}"></span></p>`;

// The view's frame: written into the built index.html as an inert <template> that the page opened on
// this scenario instantiates where it stands before its first paint (scripts/vite-static-shell.mjs:
// realViewHtml), so that paint shows it with its panels' space reserved; the lab's page keeps its
// controls out of the document (no style, no form controls for the browser's DOMContentLoaded scan).
// Its controls are folded (as the lab's): unfolded right away on a wide screen, where that moves
// nothing (by whoever inserts it: the shell's script, or lab-real.js for a page without the shell).
export function realLayoutHtml(scenarioOptions) {
  return `<div class="layout real-layout" id="real-images" data-own-view="real-images" hidden>
  <aside class="controls" aria-label="Real images controls">
    <details id="real-controls-details"><summary>Controls</summary>
    <form autocomplete="off" onsubmit="return false">
      <fieldset><legend>Scenario</legend>
        <label for="real-scenario">Preset</label>
        <select id="real-scenario">${scenarioOptions}</select>
      </fieldset>
      <fieldset><legend>Data</legend>
        <div class="row">
          <label>Class A (+1) <select id="real-ca">${CLASS_NAMES.map((n, k) => opt(k, `${k} ${n}`)).join('')}</select></label>
          <label>Class B (−1) <select id="real-cb">${CLASS_NAMES.map((n, k) => opt(k, `${k} ${n}`)).join('')}</select></label>
        </div>
        <div class="row">
          <label>N train <input id="real-ntr" type="number" min="2" max="1000" step="2"></label>
          <label>N test <input id="real-nte" type="number" min="2" max="1000" step="2"></label>
          <label>Seed <input id="real-seed" type="number" min="0" step="1"></label>
        </div>
        <label>Token dimension d <select id="real-dim">${[18, 32, 64, 128, 256, 512].map((d) => opt(d, d === 18 ? '18 (the patches)' : `${d} (random ReLU features)`)).join('')}</select></label>
        <p class="hint">Seed 0: the first N/2 images of each class in the training and test files, in file order; seed k &gt; 0: N/2 drawn at random from the first 1000 of each class (the CLI's split, <code>--seed-base</code>).</p>
      </fieldset>
      <fieldset><legend>Training</legend>
        <label for="real-opt">Optimizer (W and the head v)</label>
        <select id="real-opt">${Object.entries(OPTIMIZERS).map(([k, v]) => opt(k, v)).join('')}</select>
        <div class="row">
          <label data-real="p">p <select id="real-p">${[1.1, 1.5, 2, 3].map((p) => opt(p, p === 2 ? '2 (GD)' : p)).join('')}</select></label>
          <label>Step η <input id="real-lr" type="number" min="0" step="any"></label>
          <label>Iterations <input id="real-it" type="number" min="1" max="20000" step="1"></label>
        </div>
        <label class="check" data-real="compare"><input id="real-cmp" type="checkbox"> compare p = 1.1, 2, 3 side by side</label>
      </fieldset>
    </form>
    </details>
  </aside>
  <main>
    <div class="messages real-messages" role="alert" aria-live="assertive"></div>
    <section class="intro"><h2>Real images: attention over Fashion-MNIST patches</h2>
      <p class="real-caption">${REAL_CAPTION}</p></section>
    <div class="real-player" role="group" aria-label="Real-images player">
      <button id="real-play" type="button" class="primary"><span class="ico" aria-hidden="true">▶</span> <span class="lbl">Play</span></button>
      <button id="real-reset" type="button">Reset</button>
      <output id="real-iter">loading…</output>
    </div>
    <div class="panels">
      <section class="panel wide" id="real-panel-gallery"><header><h3>Test images and where attention looks</h3>
        <div class="tools"><label class="inline">attention of <select id="real-focus"></select></label></div></header>
        <div class="body" id="real-body-gallery"></div><p class="sub" id="real-sub-gallery"></p>
        ${gammaLegendHtml('real-gamma-count')}</section>
      <section class="panel" id="real-panel-detail"><header><h3>The selected image: softmax over patches</h3></header>
        <div class="body" id="real-body-detail"><p class="sub">Click an image of the gallery.</p></div></section>
      <section class="panel" id="real-panel-summary"><header><h3>Now: accuracy, sharpness, sparsity, SVM analysis</h3></header>
        <div class="body" id="real-body-summary"></div></section>
      <section class="panel" id="real-panel-accuracy"><header><h3>Accuracy (test solid, train dashed)</h3>
        <div class="tools"><button type="button" data-real-export="accuracy">PNG</button></div></header>
        <div class="body" id="real-body-accuracy"></div></section>
      <section class="panel" id="real-panel-loss"><header><h3>Logistic loss (test solid, train dashed)</h3>
        <div class="tools"><button type="button" data-real-export="loss">PNG</button></div></header>
        <div class="body" id="real-body-loss"></div></section>
      <section class="panel" id="real-panel-sharpness"><header><h3>Selection sharpness: mean max_t s_it (test)</h3></header>
        <div class="body" id="real-body-sharpness"></div></section>
      <section class="panel" id="real-panel-sparsity"><header><h3>Sparsity of W: share of |W_jk| below 1% of the largest</h3></header>
        <div class="body" id="real-body-sparsity"></div></section>
      <section class="panel" id="real-panel-hist"><header><h3>Histogram of |W_jk| / max |W_jk|</h3>
        <div class="tools"><button type="button" data-real-export="hist">PNG</button></div></header>
        <div class="body" id="real-body-hist"></div></section>
      <section class="panel" id="real-panel-weights"><header><h3>W / max |W_jk| (rows and columns: 16 pixels, then row and column of the patch)</h3>
        <div class="tools"><button type="button" data-real-export="weights">PNG</button></div></header>
        <div class="body" id="real-body-weights"></div></section>
      <section class="panel wide" id="real-panel-study"><header><h3>The fair study (SPEC 6.1): each method at its own tuned step, over seeds</h3>
        <div class="tools"><label class="inline">seeds <input id="real-sseeds" type="number" min="2" max="10" step="1"></label>
        <button type="button" data-real-export="study">PNG</button></div></header>
        <div class="body" id="real-body-study"></div></section>
      <section class="panel wide" id="real-panel-ladder"><header><h3>The regime ladder (SPEC 6.2): where the SVM theory holds on real images</h3>
        <div class="tools"><label class="inline">largest n <select id="real-lmax">${[32, 64, 128, 256, 512, 1000].map((n) => opt(n)).join('')}</select></label>
        <button type="button" data-real-export="ladder">PNG</button></div></header>
        <div class="body" id="real-body-ladder"></div></section>
      <section class="panel wide" id="real-panel-phase"><header><h3>The phase diagram (SPEC 6.5): where the regime holds, per token dimension d and n</h3>
        <div class="tools"><button type="button" data-real-export="phase">PNG</button></div></header>
        <div class="body" id="real-body-phase"></div></section>
    </div>
  </main></div>`;
}

