// The lab's downloads that are not the trace's own (trace.js writes the CSV): a panel as SVG or
// PNG, and the dataset as the JSON text of the editor (one sequence a line, readable and editable).
import { svgString, svgSize, svgToPng } from '../plots/export.js';
import { PANELS } from './layout.js';

const SVG_NS = 'http://www.w3.org/2000/svg';

// Several SVGs one under the other (the norm and loss charts of one panel).
function stackSvgs(list) {
  const out = document.createElementNS(SVG_NS, 'svg');
  let y = 0, w = 0;
  for (const s of list) {
    const ww = Number(s.getAttribute('width')), hh = Number(s.getAttribute('height'));
    const g = document.createElementNS(SVG_NS, 'g');
    g.setAttribute('transform', `translate(0,${y})`);
    g.append(...[...s.childNodes].map((n) => n.cloneNode(true)));
    out.append(g);
    y += hh; w = Math.max(w, ww);
  }
  out.setAttribute('width', w); out.setAttribute('height', y);
  return out;
}

// Panel `id` as one <svg> element (the norm and loss charts stacked), as drawn now.
export function panelSvg(id, panels, lossChart) {
  return id === 'norms' ? stackSvgs([panels.norms.svg(), lossChart.svg()]) : panels[id].svg();
}

// Panel `id` (drawn up to date by the caller) as SVG text, or a PNG Blob at twice its size.
export function panelImage(id, fmt, panels, lossChart) {
  const svgEl = panelSvg(id, panels, lossChart);
  const title = PANELS.find((p) => p.id === id)?.title ?? id;
  // an SVG outside the page (stacked) is measured in it, out of view
  if (!svgEl.parentNode) { svgEl.style.position = 'absolute'; svgEl.style.left = '-10000px'; document.body.append(svgEl); }
  const text = svgString(svgEl, { title: `attnsvm — ${title}` });
  const { width, height } = svgSize(svgEl);
  if (svgEl.style.left === '-10000px') svgEl.remove();
  if (fmt === 'svg') return text;
  return svgToPng(text, width, height, 2);
}

// The dataset as JSON text: one sequence a line.
export function datasetText(ds) {
  const rows = (m) => m.map((r) => JSON.stringify(r)).join(',\n    ');
  const parts = [`  "X": [\n    ${ds.X.map((seq) => '[' + seq.map((t) => JSON.stringify(t)).join(', ') + ']').join(',\n    ')}\n  ]`];
  if (ds.Z) parts.push(`  "Z": [\n    ${rows(ds.Z)}\n  ]`);
  parts.push(`  "Y": ${JSON.stringify(ds.Y)}`, `  "v": ${JSON.stringify(ds.v)}`);
  if (ds.query) parts.push(`  "query": ${ds.query}`);
  return `{\n${parts.join(',\n')}\n}`;
}
