// The markup of the regularization path figure and of the lab's path view (no DOM, no d3: the
// build writes the lab's section into index.html, scripts/vite-static-shell.mjs, so the first
// paint has every box of the view at its size; path-figure.js fills them in).
import { PATH_BALLS, PATH_RADII, BALL_LABEL } from './path-model.js';

// The lab's figure's id prefix (one figure per lab page).
export const LAB_PATH_PREFIX = 'labpath';
export const PATH_SHELL_MARK = '<!--attnsvm:path-shell-->';

// The figure: the radius controls, a status line for messages, the token plane and the chart, the
// current radius in words and (not compact) as a table. Ids are prefixed: several figures per page.
export function pathFigureHtml(prefix, { compact = false } = {}) {
  const p = (s) => `${prefix}-${s}`;
  return `
  <div class="path-controls" role="group" aria-label="Radius of the ball">
    <button type="button" id="${p('play')}" class="path-play" aria-label="Play the path">▶ Play</button>
    <label class="path-r" for="${p('slider')}">Radius R</label>
    <input id="${p('slider')}" class="path-slider" type="range" min="0" max="${PATH_RADII.length - 1}" step="1" value="0"
      aria-valuetext="R = 1" aria-describedby="${p('status')}">
    <output id="${p('rval')}" class="path-rval" for="${p('slider')}">R = 1</output>
    <label class="path-ball">Plane shows <select id="${p('ball')}">${PATH_BALLS.map((b) => `<option value="${b}">${BALL_LABEL[b]} ball</option>`).join('')}</select></label>
  </div>
  <p id="${p('msg')}" class="path-msg" role="status"></p>
  <div class="path-figs">
    <div class="path-plane" id="${p('plane')}" aria-describedby="${p('status')}"></div>
    <div class="path-chart" id="${p('chart')}" role="img" aria-label="1 − corr with each ball's own SVM against R, log axes"></div>
  </div>
  <p id="${p('status')}" class="path-status${compact ? ' compact' : ''}" aria-live="polite" tabindex="0"></p>
  ${compact ? '' : `<div class="path-table-wrap" role="region" aria-label="The current radius on each ball" tabindex="0"><table class="path-table" id="${p('table')}"><caption class="sr-only">The current radius on each ball</caption>
    <thead><tr><th scope="col">ball</th><th scope="col">1 − corr (own SVM)</th><th scope="col">rank W(R)</th>
    <th scope="col">rel. Frank-Wolfe gap</th><th scope="col">certificate</th><th scope="col">loss resolved</th><th scope="col">selection</th></tr></thead>
    <tbody>${PATH_BALLS.map((b) => `<tr data-ball="${b}"><th scope="row">${BALL_LABEL[b]}</th>${'<td>…</td>'.repeat(6)}</tr>`).join('')}</tbody></table></div>`}`;
}

// The lab's section: the theorem in words beside the figure (SPEC 5.3).
export function pathSectionHtml() {
  return `<h2 id="path-title">Regularization path: W(R) = argmin over ‖W‖ ≤ R of the loss</h2>
  <p class="path-theorem">For each radius R the engine minimizes the training loss over the ball ‖W‖ ≤ R of one norm.
  The theorem (TF-as-SVM's first result; SPEC 5.3): as R grows, W(R)/R turns toward the max-margin Att-SVM of the selection
  it settles on, in the ball's own norm: the Frobenius ball gives the Frobenius SVM (the limit of gradient descent on W), the
  nuclear ball, which is the (K, Q) parameterization's, gives the low-rank nuclear-norm SVM, and the l_p ball the l_p SVM.
  The problem is not convex: each W(R) is a Frank-Wolfe stationary point, certified when its relative gap is at most 10⁻³.
  In the plane each sequence's line traces the direction of W(R) z_i from R = 1 (near the origin) to the slider's R, at a
  distance that grows with log R; the arrows are each ball's SVM direction W^mm z_i. Drag a token (or focus it and use the
  arrow keys) and the three paths are computed again.</p>
  <div id="path-body" class="path-body">${pathFigureHtml(LAB_PATH_PREFIX)}</div>`;
}
