// Export helpers: a standalone SVG string from an <svg> element, PNG from SVG, downloads.
import { themeColors } from './theme.js';

const SVG_NS = 'http://www.w3.org/2000/svg';

// Serializes an SVG element with explicit size, background and font (no page CSS needed).
export function svgString(svg, { title } = {}) {
  const clone = svg.cloneNode(true);
  const { width, height } = svgSize(svg);
  const c = themeColors();
  clone.removeAttribute('style');   // page-only positioning (e.g. off-screen while exporting)
  clone.setAttribute('xmlns', SVG_NS);
  clone.setAttribute('xmlns:xlink', 'http://www.w3.org/1999/xlink');
  clone.setAttribute('width', width);
  clone.setAttribute('height', height);
  if (!clone.getAttribute('viewBox')) clone.setAttribute('viewBox', `0 0 ${width} ${height}`);
  clone.setAttribute('font-family', 'system-ui, -apple-system, Segoe UI, Roboto, sans-serif');
  clone.setAttribute('font-size', '11');
  const bg = document.createElementNS(SVG_NS, 'rect');
  bg.setAttribute('width', '100%'); bg.setAttribute('height', '100%'); bg.setAttribute('fill', c.bg);
  clone.insertBefore(bg, clone.firstChild);
  if (title) {
    const t = document.createElementNS(SVG_NS, 'title');
    t.textContent = title;
    clone.insertBefore(t, clone.firstChild);
  }
  clone.querySelectorAll('[data-noexport]').forEach((n) => n.remove());
  return '<?xml version="1.0" encoding="UTF-8"?>\n' + new XMLSerializer().serializeToString(clone);
}

export function svgSize(svg) {
  const w = Number(svg.getAttribute('width')) || svg.clientWidth || svg.getBoundingClientRect().width || 400;
  const h = Number(svg.getAttribute('height')) || svg.clientHeight || svg.getBoundingClientRect().height || 300;
  return { width: Math.round(w), height: Math.round(h) };
}

// PNG (Blob) of an SVG string at `scale` device pixels per CSS pixel.
export async function svgToPng(text, width, height, scale = 2) {
  const blob = new Blob([text], { type: 'image/svg+xml' });
  const url = URL.createObjectURL(blob);
  try {
    const img = new Image();
    img.decoding = 'sync';
    await new Promise((resolve, reject) => {
      img.onload = resolve;
      img.onerror = () => reject(new Error('the SVG could not be rendered to PNG'));
      img.src = url;
    });
    const canvas = document.createElement('canvas');
    canvas.width = Math.max(1, Math.round(width * scale));
    canvas.height = Math.max(1, Math.round(height * scale));
    const ctx = canvas.getContext('2d');
    ctx.scale(scale, scale);
    ctx.drawImage(img, 0, 0, width, height);
    return await new Promise((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('empty PNG'))), 'image/png'));
  } finally {
    URL.revokeObjectURL(url);
  }
}

export function download(name, data, type) {
  const blob = data instanceof Blob ? data : new Blob([data], { type });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url; a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
