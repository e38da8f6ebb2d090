// The experiment panel's small DOM and number helpers.
export const el = (tag, props = {}, ...children) => {
  const e = Object.assign(document.createElement(tag), props);
  e.append(...children);
  return e;
};

export const fmt = (x) => (Number.isFinite(x) ? (Math.abs(x) >= 1e-3 && Math.abs(x) < 1e4 ? x.toFixed(4) : x.toExponential(3)) : '–');
export const fmtMs = (ms) => (Number.isFinite(ms) ? (ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`) : '…');
