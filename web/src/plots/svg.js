// Hand-built SVG: the namespace and an appender of attributed elements (for the small tables and bar
// charts that are drawn without d3).
export const SVG_NS = 'http://www.w3.org/2000/svg';

// add(tag, attrs, text?): creates an SVG element with the attributes (and text), appends it to
// `parent`, returns it.
export function svgAppender(parent) {
  return (tag, attrs, text) => {
    const e = document.createElementNS(SVG_NS, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (text != null) e.textContent = text;
    parent.append(e);
    return e;
  };
}

// Sets an attribute (or the text, name 'text') only when its value differs: a write of the same
// value still invalidates the SVG's style and layout. (Redraws that keep their elements: linechart.js,
// heatmaps.js.)
export function setIf(node, name, value) {
  if (name === 'text') { if (node.textContent !== value) node.textContent = value; return; }
  const v = value === null || value === undefined ? null : String(value);
  if (node.getAttribute(name) === v) return;
  if (v === null) node.removeAttribute(name); else node.setAttribute(name, v);
}

// A d3-axis group (a d3 selection) in the theme's colours: its domain and ticks muted, its labels fg.
export function styleAxis(g, c) {
  g.selectAll('path,line').attr('stroke', c.muted);
  g.selectAll('text').attr('fill', c.fg);
}

// A fresh, empty <g> with g's transform in g's place (g: a DOM node), or g itself when it is empty:
// d3-axis then draws into it as on a new chart (a redrawn axis of a chart that keeps its elements).
export function emptyGroupInPlace(g) {
  if (!g.hasChildNodes()) return g;
  const fresh = document.createElementNS(SVG_NS, 'g');
  fresh.setAttribute('transform', g.getAttribute('transform'));
  g.replaceWith(fresh);
  return fresh;
}
