// The frame every embedded figure draws into (figure.js for the engine's scenarios, real/figure-real.js
// for real images): a header (title, the player's play/pause and reset buttons, the iteration, an
// "open in the lab" link), a message line, the grid of panels (a title, a body for the plot and a
// note each), a legend and the caption. It builds the DOM only; the figures fill it.
//
// createFigureShell(root, { title, panels: ids, panelTitles: {id: text}, caption: text|null,
//                           labUrl, iterText, legendLabel? }) ->
//   { head, bPlay, bReset, iterOut, msg, grid, legend, cap, bodies: {id: {sec, body, note}}, has(id),
//     showMessage(text|null) }
export const el = (tag, cls, text) => {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text != null) e.textContent = text;
  return e;
};

function button(cls, text) {
  const b = el('button', cls, text);
  b.type = 'button';
  return b;
}

function header(title, labUrl, iterText) {
  const head = el('div', 'af-head');
  const player = el('div', 'af-player');
  const bPlay = button('af-btn af-primary', '▶ Play');
  const bReset = button('af-btn', '↺ Reset');
  bReset.setAttribute('aria-label', 'Reset');
  const iterOut = el('output', 'af-iter', iterText);
  player.append(bPlay, bReset, iterOut);
  const lab = el('a', 'af-lab', 'Open in the lab ↗');
  lab.href = labUrl ?? '#';
  lab.target = '_blank';
  lab.rel = 'noopener';
  head.append(el('div', 'af-title', title), player, lab);
  return { head, bPlay, bReset, iterOut };
}

function panelSections(grid, ids, titles) {
  const bodies = {};
  for (const id of ids) {
    const sec = el('section', `af-panel af-panel-${id}`);
    sec.dataset.panel = id;
    const body = el('div', 'af-body');
    const note = el('p', 'af-note');
    sec.append(el('h3', 'af-panel-title', titles[id]), body, note);
    grid.append(sec);
    bodies[id] = { sec, body, note };
  }
  return bodies;
}

export function createFigureShell(root, { title, panels, panelTitles, caption, labUrl, iterText, legendLabel }) {
  root.classList.add('attnsvm-figure');
  const { head, bPlay, bReset, iterOut } = header(title, labUrl, iterText);
  const msg = el('div', 'af-msg');
  msg.setAttribute('role', 'status');
  msg.hidden = true;
  const grid = el('div', `af-panels af-n${Math.min(panels.length, 3)}`);
  const legend = el('div', 'af-legend');
  if (legendLabel) legend.setAttribute('aria-label', legendLabel);
  const cap = el('p', 'af-caption');
  cap.textContent = caption ?? '';
  cap.hidden = !caption;
  root.replaceChildren(head, msg, grid, legend, cap);
  const bodies = panelSections(grid, panels, panelTitles);
  const showMessage = (text) => { msg.textContent = text ?? ''; msg.hidden = !text; };
  return { head, bPlay, bReset, iterOut, msg, grid, legend, cap, bodies, has: (id) => !!bodies[id], showMessage };
}
