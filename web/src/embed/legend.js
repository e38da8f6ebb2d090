// The embedded figure's compact legend: what its chosen panels draw (the sequences' colours, the
// reference SVMs' line styles), as swatches, glyphs or short lines with a label.
import { refLegendLabel } from '../lab/views.js';
import { REF_STYLE, seqColor } from '../plots/theme.js';
import { el } from './shell.js';

const SVG_NS = 'http://www.w3.org/2000/svg';

// cfg: the run's configuration; has(id): whether the figure shows the panel; refList: the
// reference norms drawn; ctx(): the view context (asked for only when a reference is listed).
export function legendItems({ cfg, has, refList, ctx }) {
  const items = [];
  const n = cfg.dataset.X.length;
  const showSeq = has('plane') || has('current') || has('softmax');
  if (showSeq && cfg.model.param !== 'prompt') {
    for (let i = 0; i < Math.min(n, 8); i++) items.push({ swatch: seqColor(i), text: `seq ${i}` });
    if (n > 8) items.push({ text: `… ${n} sequences` });
  }
  // (the token plane draws its own legend of marks and line styles)
  if (!has('plane') && (has('corr') || has('spectrum'))) {
    const c = ctx();
    for (const r of refList) items.push({ line: REF_STYLE[r], text: refLegendLabel(r, c) });
  }
  return items;
}

function lineSample({ color, dash }) {
  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('width', '24'); svg.setAttribute('height', '8'); svg.setAttribute('aria-hidden', 'true');
  const l = document.createElementNS(SVG_NS, 'line');
  l.setAttribute('x1', '0'); l.setAttribute('x2', '24'); l.setAttribute('y1', '4'); l.setAttribute('y2', '4');
  l.setAttribute('stroke', color); l.setAttribute('stroke-width', '2'); l.setAttribute('stroke-dasharray', dash);
  svg.append(l);
  return svg;
}

export function drawLegend(legend, items) {
  legend.replaceChildren(...items.map((it) => {
    const span = el('span', 'af-li');
    if (it.swatch) { const s = el('i', 'af-sw'); s.style.background = it.swatch; span.append(s); }
    if (it.glyph) span.append(el('b', 'af-glyph', it.glyph));
    if (it.line) span.append(lineSample(it.line));
    span.append(document.createTextNode(it.text));
    return span;
  }));
}
