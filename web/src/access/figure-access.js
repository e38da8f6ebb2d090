// How a figure reads to a screen reader and prints: one small API for every figure of the lab, the
// embeds (iframe and <attnsvm-figure>) and the real-images view. A figure registers once, with
// functions that say what it shows NOW and that hand over its current picture; the rest is here.
//
//   const fig = registerFigure(host, {
//     title,                  // its name ('Token plane'); a string or () => string
//     describe: () => text,   // what it shows now, in words: the numbers a sighted reader reads off it
//                             // ('k = 120 of 2000: sequence 0 selects token 2, ...; corr = 0.9931')
//     snapshot: () => picture,// its current picture, synchronously: an <svg> element (serialized with
//                             // plots/export.js's svgString), a <canvas>, or null (nothing to print)
//     link: () => url,        // the live figure (printed under the picture); optional
//     interactive: false,     // true when the host holds focusable parts (the token plane's tokens):
//                             // it is then a labelled group instead of an image
//   });
//   fig.update()      after a redraw: the text alternative follows (at most every UPDATE_MS while the
//                     figure changes; the last state is always written)
//   fig.update(true)  now (a pause, the end of a run, a reset)
//   fig.destroy()     (the figure is removed)
//   announce(nearEl, text)   a polite announcement in the document (or shadow root) of nearEl, for
//                     events a listener wants to hear once (a run ended, paused, reset): never per frame
//   onPrint({ before, after })   page-level hooks around the snapshots (e.g. switch to the light theme
//                     and redraw; after: back); returns a function that removes them. A figure that
//                     skips or paces its drawing (offscreen, throttled while playing) redraws
//                     its whole current state in `before`, or it prints a stale picture
//
// Screen readers: the host gets role="img" (or "group") and aria-labelledby a hidden text
// "<title>. <description>", so the figure's name is what it shows now. Print: on beforeprint every
// registered figure that is on the page gets an <img> of its snapshot (alt: the same text) and a line
// with its link, and the live drawing is hidden (print.css); afterprint removes them. Chromium fires
// beforeprint in every frame when a page prints (window.print(), page.pdf()), and an <img> of a data
// URL inserted there is printed, so the picture is the state at that moment.
// print.css (the classes used here) is @imported by each page's own sheet (styles/lab.css,
// embed/figure.css), not imported here: imported by this shared module it became the shared chunk's
// CSS, which vite's preload helper re-added as a <link> (a download and a whole-page restyle) each
// time a lazily loaded chunk came in, although the page had it inline.
import { svgString } from '../plots/export.js';

const UPDATE_MS = 1500;
const figures = new Set();
const hooks = [];
let uid = 0;

const value = (v) => (typeof v === 'function' ? v() : v);

export function registerFigure(host, { title, describe, snapshot = null, link = null, interactive = false }) {
  const id = `fig-alt-${++uid}`;
  const alt = document.createElement('span');
  alt.id = id;
  alt.hidden = true;
  alt.className = 'fig-alt';
  host.append(alt);
  host.setAttribute('role', interactive ? 'group' : 'img');
  host.setAttribute('aria-labelledby', id);
  host.classList.add('fig-live');
  let last = 0, timer = null;

  function text() {
    const t = value(title);
    let d;
    try { d = describe?.() ?? ''; } catch { d = ''; }
    return d ? `${t}. ${d}` : t;
  }
  function write() {
    timer = null;
    last = performance.now();
    const t = text();
    if (alt.textContent !== t) alt.textContent = t;
  }
  const fig = {
    host,
    text,
    snapshot: () => snapshot?.() ?? null,
    link: () => value(link),
    update(now = false) {
      if (now) { clearTimeout(timer); write(); return; }
      if (timer) return;
      const wait = UPDATE_MS - (performance.now() - last);
      if (wait <= 0) write(); else timer = setTimeout(write, wait);
    },
    destroy() { clearTimeout(timer); figures.delete(fig); alt.remove(); },
  };
  figures.add(fig);
  write();
  return fig;
}

// ---------- polite announcements: one live region per document or shadow root ----------
const regions = new WeakMap();
export function announce(nearEl, text) {
  const root = nearEl.getRootNode?.() ?? document;
  let r = regions.get(root);
  if (!r || !r.isConnected) {
    r = document.createElement('div');
    r.className = 'fig-announce';
    r.setAttribute('role', 'status');
    r.setAttribute('aria-live', 'polite');
    (root === document ? document.body : root.firstElementChild ?? root).append(r);
    regions.set(root, r);
  }
  // the same text twice is not announced again (a region announces changes)
  if (r.textContent !== text) r.textContent = text;
}

// ---------- print ----------
export function onPrint({ before, after }) {
  const hook = { before, after };
  hooks.push(hook);
  return () => { const i = hooks.indexOf(hook); if (i >= 0) hooks.splice(i, 1); };
}

const shown = (el) => el.isConnected && el.getClientRects().length > 0;

function pictureUrl(pic) {
  if (!pic) return null;
  if (typeof pic === 'string') return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(pic)}`;
  if (pic instanceof HTMLCanvasElement) return pic.toDataURL('image/png');
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svgString(pic))}`;
}

// The snapshots of every figure on the page, and back (beforeprint / afterprint; also called by tests).
let prepared = false;
export function preparePrint() {
  if (prepared) finishPrint();
  prepared = true;
  let pictures = 0;
  for (const h of hooks) { try { h.before?.(); } catch { /* a hook's failure must not stop printing */ } }
  for (const fig of figures) {
    if (!shown(fig.host)) continue;
    fig.update(true);
    let pic, url;
    try { pic = fig.snapshot(); url = pictureUrl(pic); } catch { url = null; }
    if (!url) continue;
    const box = document.createElement('div');
    box.className = 'fig-print';
    const img = document.createElement('img');
    img.className = 'fig-print-img';
    img.src = url;
    img.alt = fig.text();
    // a canvas holds device pixels: print it at its CSS size
    if (pic instanceof HTMLCanvasElement) img.width = pic.clientWidth || pic.width;
    box.append(img);
    const href = fig.link();
    if (href) {
      const p = document.createElement('p');
      p.className = 'fig-print-link';
      const a = document.createElement('a');
      a.href = href;
      a.textContent = href;
      p.append('Live figure: ', a);
      box.append(p);
    }
    fig.host.classList.add('fig-printing');
    fig.host.after(box);
    pictures++;
  }
  // test hook: how many pictures the last print of this page (or frame, or element script) made
  globalThis.__attnsvmPrint = { prints: (globalThis.__attnsvmPrint?.prints ?? 0) + 1, pictures };
}

export function finishPrint() {
  if (!prepared) return;
  prepared = false;
  for (const fig of figures) {
    if (!fig.host.classList.contains('fig-printing')) continue;
    fig.host.classList.remove('fig-printing');
    const next = fig.host.nextElementSibling;
    if (next?.classList.contains('fig-print')) next.remove();
  }
  for (const h of hooks) { try { h.after?.(); } catch { /* as above */ } }
}

addEventListener('beforeprint', preparePrint);
addEventListener('afterprint', finishPrint);
