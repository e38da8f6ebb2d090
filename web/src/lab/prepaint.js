// What the lab's first paint needs from the URL and the reader's settings, written before that paint
// so that nothing moves when the lab's module runs (layout shift). Two inline scripts of the built
// index.html (scripts/vite-static-shell.mjs), each self-contained (inlined as its source text: no
// imports, no outer names):
//   prepaintHead(ownViews), in <head>: the theme, the reduced-motion preference (html[data-motion],
//     read by app.js for autoplay), and html[data-view] for a scenario with a view of
//     its own (real images), whose CSS shows that view instead of the token panels. Anything the
//     browser paints, even before the body is parsed, is then in the right theme and view.
//   prepaint(prepaintData()), right after the lab's markup (layout.js): the scenario's title, caption,
//     hints, options, reference SVMs and formula slots, and the controls unfolded on wide screens (they
//     are folded in the markup: unfolding below the paint moves nothing, folding would move the page;
//     unfolded in the second frame after it, see below).
import { NORM_REFS, SCENARIO_INFO, SCENARIO_ORDER } from './scenarios.js';
import { dataHint, dataNote, variantLabels } from './controls.js';
import { formulaSlot } from './layout.js';
import { SCHEMA } from './state.js';
import { MIRROR_OPTIMIZERS } from './optimizers.js';
import { PER_QUERY_ATTENTION } from './reference-requests.js';

export function prepaintData() {
  const info = {}, hints = [];
  for (const id of SCENARIO_ORDER) {
    const s = SCENARIO_INFO[id];
    const hint = dataHint({ scenario: id, generator: 'scenario', data: null });
    if (!hints.includes(hint)) hints.push(hint);
    info[id] = { title: s.title, caption: s.caption, options: s.options, formulas: s.formulas.length,
      hint: hints.indexOf(hint), variants: variantLabels(id), own: !!s.own, refs: s.refs, shape: s.shape };
  }
  return {
    first: SCENARIO_ORDER[0], info, hints, slot: formulaSlot, mirror: MIRROR_OPTIMIZERS, normRefs: NORM_REFS,
    sphereHint: dataHint({ generator: 'sphere', data: null }), customHint: dataHint({ data: {} }),
    sphereNote: dataNote({ generator: 'sphere', data: null }), customNote: dataNote({ data: {} }),
    // the current softmax's shape: the link's keys that change it other than n, T and the attention (another
    // generator, data, parameterization, a variant), n's and T's keys and bounds, and the attention's
    // key, its kinds, and those with a query per token (a row per (sequence, query): n T rows)
    shape: { other: ['generator', 'data', 'param', 'variant', 'localCase'].map((f) => SCHEMA[f].key),
      n: [SCHEMA.n.key, SCHEMA.n.min, SCHEMA.n.max], T: [SCHEMA.T.key, SCHEMA.T.min, SCHEMA.T.max],
      att: [SCHEMA.attention.key, SCHEMA.attention.values], perQuery: PER_QUERY_ATTENTION },
  };
}

export function prepaintHead(ownViews) {
  const root = document.documentElement;
  let pref = null;
  try { pref = localStorage.getItem('attnsvm-theme'); } catch { /* storage blocked: follow the system */ }
  const dark = pref === 'dark' || (pref !== 'light' && matchMedia('(prefers-color-scheme: dark)').matches);
  root.dataset.theme = dark ? 'dark' : 'light';
  // (read here, before anything is laid out: a media query evaluated in the engine's first message
  // brought the page's pending style work into that task, ~8 ms at Lighthouse's 4x)
  root.dataset.motion = matchMedia('(prefers-reduced-motion: reduce)').matches ? 'reduce' : 'full';
  let s = null;
  try { s = new URLSearchParams(location.hash.slice(1)).get('s'); } catch { /* an unreadable hash: the default view */ }
  if (ownViews.includes(s)) root.dataset.view = s;
}

export const ownViews = () => SCENARIO_ORDER.filter((id) => SCENARIO_INFO[id].own);

// A view of its own (real images) is an inert <template id="view-ID"> in the HTML, written where the view
// stands (scripts/vite-static-shell.mjs); this inline script right after it puts the view in its place
// for a page opened on it (html[data-view], prepaintHead), before the first paint, with its controls
// unfolded on a wide screen (a media query: innerWidth would lay out the page parsed so far). The lab's
// page leaves it inert: its ~170 elements and 14 form controls are neither styled nor in the browser's
// scan of the form controls at DOMContentLoaded; lab-real.js writes the view if the reader opens it later.
export function prepaintView(id) {
  const d = document, t = d.getElementById(`view-${id}`);
  if (!t || d.documentElement.dataset.view !== id) return;
  const view = t.content.cloneNode(true);
  const fold = view.querySelector('.controls > details');
  if (fold && matchMedia('(min-width: 760px)').matches) fold.open = true;
  t.replaceWith(view);
}

export function prepaint(S) {
  const d = document, $ = (id) => d.getElementById(id);
  // (a media query, not innerWidth: with a mobile viewport, reading innerWidth lays out the page parsed
  // so far, here in the middle of the HTML: 40-180 ms of style and layout done twice)
  // The page's first full style, layout and paint in two frames, each a task well under 50 ms: the
  // controls (~150 of the ~220 boxes of the page's first screen) are unfolded in the second frame after
  // this script (in its animation-frame callbacks, which run before its style and layout), the rest of
  // the page drawn in the first; one frame shows them folded. In one frame, that was a 45-80 ms task,
  // which also held the lab's module and the browser's scan of the form controls at DOMContentLoaded
  // when the module came before the parse's end (the scan lays out the page if no frame has).
  if (matchMedia('(min-width: 760px)').matches) {
    requestAnimationFrame(() => requestAnimationFrame(() => { $('controls-details').open = true; }));
  }
  let q;
  try { q = new URLSearchParams(location.hash.slice(1)); } catch { q = new URLSearchParams(); }
  let s = q.get('s');
  if (!Object.hasOwn(S.info, s)) s = S.first;
  const info = S.info[s];
  $('ctl-scenario').value = s;
  if (q.get('speed')) $('ctl-speed').value = q.get('speed');
  const sphere = q.get('gen') === 'sphere', custom = q.has('data');
  $('sc-title').textContent = info.title;
  $('sc-caption').textContent = info.caption;
  const note = custom ? S.customNote : sphere ? S.sphereNote : '';
  $('sc-datanote').textContent = note;
  $('sc-datanote').hidden = !note;
  $('data-hint').textContent = custom ? S.customHint : sphere ? S.sphereHint : S.hints[info.hint];
  if (sphere) $('ctl-generator').value = 'sphere';
  for (const el of d.querySelectorAll('[data-opt]')) {
    const k = el.dataset.opt;
    el.hidden = !(info.options.includes(k) || (sphere && ['n', 'T', 'd', 'seed'].includes(k)));
  }
  // the mirror-descent p and the head's step show for those settings (the scenario's own optimizer
  // is the engine's: a scenario that uses mirror descent shows its p once the engine said so)
  d.querySelector('[data-show="md"]').hidden = !S.mirror.includes(q.get('opt'));
  d.querySelector('[data-show="joint"]').hidden = q.get('joint') !== '1';
  // the reference SVMs shown: the link's, else the scenario's (as the module's first sync has them)
  const refs = q.has('refs') ? q.get('refs').split(',') : info.refs ?? [];
  for (const r of S.normRefs) $(`ref-${r}`).checked = refs.includes(r);
  const variant = $('ctl-variant');
  variant.options[0].text = info.variants[0];
  variant.options[1].text = info.variants[1];
  // The current-softmax panel's height (a row of cells per unit, a column per token; lab.css): the
  // scenario's own data's, or the link's n, T and attention for it; unknown for other data (the panel
  // keeps its default height until drawn). A unit is a sequence (cross, self), or a (sequence, query)
  // pair for attention with a query per token (seq2seq, causal: n stacked T x T matrices, n T rows).
  // render.js keeps it in step with the drawing.
  if (info.shape && !S.shape.other.some((k) => q.has(k))) {
    const int = ([k, lo, hi], def) => { const v = Number(q.get(k)); return q.has(k) && Number.isInteger(v) && v >= lo && v <= hi ? v : def; };
    const [attKey, kinds] = S.shape.att;
    const att = kinds.includes(q.get(attKey)) ? q.get(attKey) : info.shape.attention ?? 'cross';
    const n = int(S.shape.n, info.shape.n), T = int(S.shape.T, info.shape.T);
    const r = d.documentElement.style;  // (the panels' markup comes after this script: inherited from here)
    r.setProperty('--current-rows', S.shape.perQuery.includes(att) ? n * T : n);
    r.setProperty('--current-cols', T);
    r.setProperty('--current-items', S.shape.perQuery.includes(att) ? n : 1);  // (a T x T block per sequence)
    if (S.shape.perQuery.includes(att)) d.documentElement.dataset.perQuery = '';  // (its subtitle: layout.js)
  }
  const f = $('sc-formulas');
  f.innerHTML = S.slot.repeat(info.formulas);
  f.hidden = !info.formulas;
  if (info.own) {
    // a scenario with a view of its own (real images): its frame instead of the token panels (the CSS
    // of html[data-view] already shows it; these are the attributes the view's module keeps)
    d.querySelector('.layout:not(.real-layout)').hidden = true;  // (the view's frame comes first in the HTML)
    const own = d.querySelector(`[data-own-view="${s}"]`);
    // (the hierarchy's view keeps the top bar's player: it walks the run's snapshots)
    if (!own?.hasAttribute('data-top-player')) d.querySelector('.topbar .player').hidden = true;
    if (own) own.hidden = false;
  }
}
