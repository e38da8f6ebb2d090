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
