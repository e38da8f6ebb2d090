// The embed's settings: the lab's own state (state.js: schema, defaults, hash codec) plus a few
// embed-only keys that the lab does not know. An embed hash is a lab hash with these extra keys:
//
//   panels=plane,corr     which panels to show, in this order (default: per scenario, see DEFAULT_PANELS)
//   caption=TEXT          a caption under the figure; caption=scenario uses the scenario's own caption
//   id=NAME               echoed in the postMessage resize messages (to tell iframes apart)
//   autoplay=0            never start by itself (default: start when scrolled into view, unless the
//                         reader prefers reduced motion)
//   theme=light|dark|auto colours (default light: most lecture-note pages are light)
//
// Everything else is the lab's state (s=scenario, seed=..., opt=..., lr=..., data=..., speed=...),
// decoded by the lab's decodeHash, so "open in the lab" shows the very same run.
import { decodeHash, encodeHash, closestName, SCHEMA } from '../lab/state.js';

export const PANEL_IDS = ['plane', 'softmax', 'current', 'corr', 'norms', 'spectrum', 'weights', 'readout', 'path'];
// the panels of the real-images figure (web/src/real/figure-real.js)
export const REAL_PANEL_IDS = ['gallery', 'accuracy', 'loss', 'sparsity', 'hist', 'weights', 'study', 'ladder', 'phase'];
// the panels of the hierarchy figure (web/src/embed/hierarchy-figure.js; lab/hierarchy-draw.js)
export const HIER_PANEL_IDS = ['layer1', 'layer2', 'finals'];
export const HIER_PANEL_TITLES = {
  layer1: 'Layer 1 (self-attention W1): softmax and corr with its SAtt-SVM',
  layer2: 'Layer 2 (cross-attention W2): softmax and corr with its Att-SVM',
  finals: 'Certificates and selections',
};
export const panelIds = (scenario) => (scenario === 'real-images' ? REAL_PANEL_IDS : scenario === 'hierarchy' ? HIER_PANEL_IDS : PANEL_IDS);
export const REAL_PANEL_TITLES = {
  gallery: 'Test images: where attention looks',
  accuracy: 'Test accuracy (solid) and train (dashed)',
  loss: 'Logistic loss',
  sparsity: 'Sparsity of W (share below 1% of max)',
  hist: 'Histogram of |W_jk| / max |W_jk|',
  weights: 'W / max |W_jk|',
  study: 'Fair study: test accuracy per method (tuned steps, seeds)',
  ladder: 'Regime ladder: corr with the Att-SVM vs k, per n',
};
export const panelTitle = (scenario, id) => (scenario === 'real-images' ? REAL_PANEL_TITLES : scenario === 'hierarchy' ? HIER_PANEL_TITLES : PANEL_TITLES)[id];

// Short titles for small figures (the lab's PANELS titles are written for a full page).
export const PANEL_TITLES = {
  plane: 'Token plane',
  softmax: 'Softmax of every token over iterations',
  current: 'Softmax per sequence now',
  corr: 'Direction: 1 − corr with the SVM direction',
  norms: 'Norm growth and loss',
  spectrum: 'Singular values of W(k)/‖W(k)‖',
  weights: 'W(k)/‖W(k)‖ next to W^mm',
  readout: 'Certificates and verdict',
  path: 'Regularization path W(R) (Frobenius, nuclear, l_p balls)',
};

export const DEFAULT_PANELS = {
  paths2d: ['plane', 'corr'],
  'paths2d-t5': ['plane', 'corr'],
  'local-convergence': ['corr', 'softmax'],
  rank: ['spectrum', 'corr'],
  multitoken: ['softmax', 'corr'],
  'prompt-global-local': ['plane', 'corr'],
  'loss-function': ['plane', 'corr'],
  'joint-pv': ['plane', 'corr'],
  'mirror-descent': ['weights', 'corr'],
  'md-convergence': ['weights', 'corr'],
  'joint-wv': ['plane', 'corr'],
  overparam: ['readout', 'corr'],
  sphere: ['plane', 'corr'],
  'real-images': ['gallery', 'accuracy'],
  seq2seq: ['current', 'corr'],
  causal: ['current', 'corr'],
  hierarchy: ['layer1', 'layer2', 'finals'],
};

export const EMBED_KEYS = ['panels', 'caption', 'id', 'autoplay', 'theme'];
// Presets with no embed figure (none now: the hierarchy's is embed/hierarchy-figure.js)
export const NO_EMBED_FIGURE = [];

// "plane, corr,nope" -> { panels: ['plane', 'corr'], problems: [{ param: 'panels', value: 'nope', ... }] }
export function parsePanels(text, scenario) {
  const problems = [];
  if (text == null || String(text).trim() === '') return { panels: [...(DEFAULT_PANELS[scenario] ?? ['plane', 'corr'])], problems };
  const panels = [];
  for (const raw of String(text).split(',')) {
    const p = raw.trim();
    if (!p) continue;
    if (!panelIds(scenario).includes(p)) {
      const near = closestName(p, panelIds(scenario));
      problems.push({ param: 'panels', value: p, accepted: panelIds(scenario).join(', '),
        message: `unknown panel "${p}"${near ? ` (did you mean "${near}"?)` : ''} (panels: ${panelIds(scenario).join(', ')})` });
    } else if (!panels.includes(p)) panels.push(p);
  }
  if (!panels.length) panels.push(...(DEFAULT_PANELS[scenario] ?? ['plane', 'corr']));
  return { panels, problems };
}

const THEMES = ['light', 'dark', 'auto'];
const OFF = ['0', 'false', 'off'], ON = ['1', 'true', 'on', ''];

// Never throws: bad values are reported in `errors` and replaced by defaults (as in the lab).
export function parseEmbedHash(hash) {
  let params;
  try { params = new URLSearchParams(String(hash ?? '').replace(/^#/, '')); } catch { params = new URLSearchParams(); }
  const embed = {};
  for (const k of EMBED_KEYS) {
    if (params.has(k)) { embed[k] = params.get(k); params.delete(k); }
  }
  const speedGiven = params.has('speed');
  const decoded = decodeHash('#' + params.toString(), { extraKeys: EMBED_KEYS });
  const { problems } = decoded;
  let { state } = decoded;
  if (NO_EMBED_FIGURE.includes(state.scenario)) {
    problems.push({ param: 's', value: state.scenario, accepted: 'the other presets',
      message: `the preset "${state.scenario}" has no embed figure (its lab view runs one seed of an experiment: link to the lab instead); the default preset is shown` });
    state = { ...state, scenario: SCHEMA.scenario.def };
  }
  const { panels, problems: panelProblems } = parsePanels(embed.panels, state.scenario);
  const own = [];
  if (embed.theme !== undefined && !THEMES.includes(embed.theme)) {
    own.push({ param: 'theme', value: embed.theme, accepted: THEMES.join(', '), message: `theme must be one of ${THEMES.join(', ')} (got "${embed.theme}")` });
  }
  if (embed.autoplay !== undefined && ![...OFF, ...ON].includes(embed.autoplay)) {
    own.push({ param: 'autoplay', value: embed.autoplay, accepted: '0 or 1', message: `autoplay must be 0 or 1 (got "${embed.autoplay}")` });
  }
  const all = [...problems, ...panelProblems, ...own];
  return {
    state,
    panels,
    caption: embed.caption ?? null,
    id: embed.id ?? null,
    autoplay: !OFF.includes(embed.autoplay),
    theme: THEMES.includes(embed.theme) ? embed.theme : 'light',
    speedGiven,
    problems: all,
    errors: all.map((p) => p.message),
  };
}

// An author's mistakes in an embed's settings, for the console: one warning listing each problem
// with the parameter as written, its value and what it accepts. `name(param)` renames a parameter
// (the element's attributes: s -> scenario).
export function problemsWarning(problems, { who = 'attnsvm figure', name = (p) => p } = {}) {
  const lines = problems.map((p) => `  ${p.param === null ? '(the hash)' : `${name(p.param)}="${p.value}"`}: ${p.message}` +
    (p.accepted ? `\n      accepted: ${p.accepted}` : ''));
  return `${who}: ${problems.length === 1 ? 'a setting was' : `${problems.length} settings were`} not understood ` +
    `(the defaults are used instead):\n${lines.join('\n')}`;
}

// The hash of an embed: the lab's hash of `state` plus the embed keys (commas kept readable).
export function embedHash(state, { panels, caption, id, autoplay, theme } = {}) {
  let h = encodeHash(state);
  const add = (k, v) => { h += `${h.length > 1 ? '&' : ''}${k}=${encodeURIComponent(v).replace(/%2C/g, ',')}`; };
  if (panels?.length) add('panels', panels.join(','));
  if (caption) add('caption', caption);
  if (id) add('id', id);
  if (autoplay === false) add('autoplay', '0');
  if (theme && theme !== 'light') add('theme', theme);
  return h;
}

// The lab's hash alone (for "open in the lab").
export const labHash = (state) => encodeHash(state);
