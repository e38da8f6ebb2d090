// The frame every embedded figure draws into (figure.js for the engine's scenarios, real/figure-real.js
// for real images): a header (title, the player's play/pause and reset buttons, the iteration, an
// "open in the lab" link), a notice about the author's settings (dismissable), a message line, the
// grid of panels (a title, a body for the plot and a note each), a legend and the caption. It builds
// the DOM only; the figures fill it.
//
// createFigureShell(root, { title, panels: ids, panelTitles: {id: text}, caption: text|null,
//                           labUrl, iterText, legendLabel?, page? }) ->
//   { head, bPlay, bReset, iterOut, msg, grid, legend, cap, bodies: {id: {sec, body, note}}, has(id),
//     showMessage(text|null), showNotice(text|null) }
// page: the figure is the whole page (the iframe embed): its title is the page's <h1> and the panel
// titles <h2>; otherwise (an element inside someone's page) the title is not a heading and the panel
// titles are <h3>.
// Each panel body's height is reserved before anything is drawn (figure.css: by panel kind), so that
// the figure does not grow (and move the page) when the engine's first frame arrives.
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

// The play button's visible label is its accessible name (its icon is hidden from screen readers).
const PLAY_LABELS = { play: ['▶', 'Play'], pause: ['❚❚', 'Pause'], done: ['✓', 'Done'] };
export function setPlayButton(b, which) {
  const [ico, lbl] = PLAY_LABELS[which];
  const i = b.firstElementChild, l = b.lastElementChild;
  if (i.textContent !== ico) i.textContent = ico;
  if (l.textContent !== lbl) l.textContent = lbl;
}

function header(title, labUrl, iterText, page) {
  const head = el('div', 'af-head');
  const player = el('div', 'af-player');
  const bPlay = button('af-btn af-primary');
  const ico = el('span', 'af-ico', '▶');
  ico.setAttribute('aria-hidden', 'true');
  bPlay.append(ico, ' ', el('span', 'af-lbl', 'Play'));
  const bReset = button('af-btn', '↺ Reset');
  bReset.setAttribute('aria-label', 'Reset');
  const iterOut = el('output', 'af-iter', iterText);
  player.append(bPlay, bReset, iterOut);
  const lab = el('a', 'af-lab');
  lab.append(el('span', 'af-lab-text', 'Open in the lab ↗'));  // (print shows the address instead)
  lab.href = labUrl ?? '#';
  lab.target = '_blank';
  lab.rel = 'noopener';
  head.append(el(page ? 'h1' : 'div', 'af-title', title), player, lab);
  return { head, bPlay, bReset, iterOut };
}

function panelSections(grid, ids, titles, page) {
  const bodies = {};
  for (const id of ids) {
    const sec = el('section', `af-panel af-panel-${id}`);
    sec.dataset.panel = id;
    const body = el('div', 'af-body');
    const note = el('p', 'af-note');
    sec.append(el(page ? 'h2' : 'h3', 'af-panel-title', titles[id]), body, note);
    grid.append(sec);
    bodies[id] = { sec, body, note };
  }
  return bodies;
}

// The notice about the author's settings: its text and a button that removes it.
function noticeBox() {
  const box = el('div', 'af-notice');
  box.hidden = true;
  const text = el('p', 'af-notice-text');
  const close = button('af-notice-close', '×');
  close.setAttribute('aria-label', 'Dismiss this notice');
  close.onclick = () => { box.hidden = true; };
  box.append(text, close);
  return { box, show: (t) => { text.textContent = t ?? ''; box.hidden = !t; } };
}

export function createFigureShell(root, { title, panels, panelTitles, caption, labUrl, iterText, legendLabel, page = false }) {
  root.classList.add('attnsvm-figure');
  const { head, bPlay, bReset, iterOut } = header(title, labUrl, iterText, page);
  const notice = noticeBox();
  const msg = el('div', 'af-msg');
  msg.setAttribute('role', 'status');
  msg.hidden = true;
  const grid = el('div', `af-panels af-n${Math.min(panels.length, 3)}`);
  const legend = el('div', 'af-legend');
  // a labelled group: a generic <div> may not carry aria-label (axe: aria-prohibited-attr, a violation
  // while the legend is still empty, i.e. before the figure has started)
  if (legendLabel) { legend.setAttribute('role', 'group'); legend.setAttribute('aria-label', legendLabel); }
  const cap = el('p', 'af-caption');
  cap.textContent = caption ?? '';
  cap.hidden = !caption;
  root.replaceChildren(head, notice.box, msg, grid, legend, cap);
  const bodies = panelSections(grid, panels, panelTitles, page);
  const showMessage = (text) => { msg.textContent = text ?? ''; msg.hidden = !text; };
  return { head, bPlay, bReset, iterOut, msg, grid, legend, cap, bodies, has: (id) => !!bodies[id], showMessage, showNotice: notice.show };
}
