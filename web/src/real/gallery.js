// The gallery of test images (one canvas): each image in grey, the attention s_it of the current W
// drawn over its patch grid (orange where s_it is above uniform), the selected patch (argmax_t s_it)
// boxed, and below it the true class with a tick or cross for the prediction sign f_i.
// createGallery(container, { onSelect(j) }) -> { update(data), resize(w), canvas, tileAt(x, y),
//   tileCenter(j) }
//   data: { pixels: Uint8Array (all test images), rows, cols, patch, indices: gallery image -> test
//           index, labels: test labels, softmax: Float64Array (gallery x T) | null, output: f_i per
//           gallery image | null, classA, names, selected: j | null, maxTile? }
import { themeColors } from '../plots/theme.js';

const ATTN = [230, 159, 0]; // Okabe-Ito orange
const OK = '#009E73', BAD = '#D55E00';

// Draws image k of `pixels` with its attention into ctx at (x, y), `scale` device pixels per pixel:
// the image at its own resolution on a small canvas, scaled up without smoothing. The overlay's
// opacity is the attention above uniform, (s_it - 1/T) / (max_t s_it - 1/T): none at W = 0.
let scratch = null;
export function drawImage(ctx, { pixels, rows, cols, patch, index, softmax, offset = 0, x, y, scale, box = true }) {
  scratch ??= document.createElement('canvas');
  if (scratch.width !== cols || scratch.height !== rows) { scratch.width = cols; scratch.height = rows; }
  const sctx = scratch.getContext('2d');
  const img = sctx.createImageData(cols, rows);
  const g = Math.floor(rows / patch);
  const T = g * g;
  let mx = 0;
  if (softmax) for (let t = 0; t < T; t++) mx = Math.max(mx, softmax[offset + t]);
  const span = mx - 1 / T;
  const base = index * rows * cols;
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const v = 255 - pixels[base + r * cols + c]; // dark garment on a light ground
      const t = Math.min(g - 1, Math.floor(r / patch)) * g + Math.min(g - 1, Math.floor(c / patch));
      const a = softmax && span > 1e-9 ? 0.7 * Math.max(0, (softmax[offset + t] - 1 / T) / span) : 0;
      const o = 4 * (r * cols + c);
      img.data[o] = (1 - a) * v + a * ATTN[0];
      img.data[o + 1] = (1 - a) * v + a * ATTN[1];
      img.data[o + 2] = (1 - a) * v + a * ATTN[2];
      img.data[o + 3] = 255;
    }
  }
  sctx.putImageData(img, 0, 0);
  ctx.imageSmoothingEnabled = false;
  ctx.drawImage(scratch, x, y, cols * scale, rows * scale);
  if (softmax && box && span > 1e-9) {
    let best = 0;
    for (let t = 1; t < T; t++) if (softmax[offset + t] > softmax[offset + best]) best = t;
    const s = patch * scale;
    ctx.strokeStyle = '#0072B2';
    ctx.lineWidth = Math.max(1.5, scale / 1.5);
    ctx.strokeRect(x + (best % g) * s + 0.5, y + Math.floor(best / g) * s + 0.5, s - 1, s - 1);
  }
}

export function createGallery(container, { onSelect } = {}) {
  const canvas = document.createElement('canvas');
  canvas.className = 'real-gallery';
  canvas.tabIndex = 0;
  canvas.setAttribute('role', 'img');
  canvas.width = 0; canvas.height = 0;  // no box until reserve() or the first drawing (layout shift)
  container.append(canvas);
  let data = null, width = container.clientWidth || 600, geom = null;

  // spec: { n (images), cols (pixels a row of an image), maxTile, perRow }: data, or reserve()'s
  function layout(spec = { n: data.indices.length, cols: data.cols, maxTile: data.maxTile, perRow: data.perRow }) {
    const n = spec.n;
    const dpr = globalThis.devicePixelRatio || 1;
    // tiles as large as fit with 8 per row (3 rows for the lab's 24), at most maxTile px per pixel
    // (real.css reserves the lab's gallery by the same rule before the module runs)
    const scaleCss = Math.max(2, Math.min(spec.maxTile ?? 4, Math.floor((width - 8) / (Math.min(n, spec.perRow ?? 8) * (spec.cols + 3)))));
    const tile = spec.cols * scaleCss, labelH = 16, gap = 6;
    const perRow = Math.max(1, Math.floor((width + gap) / (tile + gap)));
    const gridRows = Math.ceil(n / perRow);
    return { dpr, scaleCss, tile, labelH, gap, perRow, h: gridRows * (tile + labelH + gap), w: Math.min(width, perRow * (tile + gap)) };
  }

  function draw() {
    if (!data) return;
    geom = layout();
    const { dpr, scaleCss, tile, labelH, gap, perRow } = geom;
    const scale = Math.max(1, Math.round(scaleCss * dpr));
    // a canvas's size is set only when it changes: setting it (even to the same value) drops and
    // reallocates the backing store, and the compositor then uploads the whole canvas again
    const cw = Math.round(geom.w * dpr), ch = Math.round(geom.h * dpr);
    if (canvas.width !== cw || canvas.height !== ch) {
      canvas.width = cw;
      canvas.height = ch;
      canvas.style.width = `${geom.w}px`;
      canvas.style.height = `${geom.h}px`;
    }
    const ctx = canvas.getContext('2d');
    const c = themeColors();
    ctx.fillStyle = c.bg;
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    const T = (data.rows / data.patch) ** 2;
    ctx.font = `${11 * dpr}px system-ui, sans-serif`;
    ctx.textBaseline = 'top';
    data.indices.forEach((index, j) => {
      const x = (j % perRow) * (tile + gap), y = Math.floor(j / perRow) * (tile + labelH + gap);
      drawImage(ctx, { pixels: data.pixels, rows: data.rows, cols: data.cols, patch: data.patch, index, softmax: data.softmax,
        offset: j * T, x: Math.round(x * dpr), y: Math.round(y * dpr), scale });
      const label = data.labels[index];
      const f = data.output?.[j];
      const right = f === undefined ? null : (f > 0) === (label === data.classA);
      ctx.fillStyle = right === null ? c.muted : right ? OK : BAD;
      ctx.fillText(fitted(ctx, `${right === null ? '' : right ? '✓ ' : '✗ '}${data.names[label]}`, (tile + gap - 2) * dpr), x * dpr, (y + tile + 2) * dpr);
      if (data.selected === j) {
        ctx.strokeStyle = c.fg;
        ctx.lineWidth = 2 * dpr;
        ctx.strokeRect((x - 2) * dpr, (y - 2) * dpr, (tile + 4) * dpr, (tile + labelH + 2) * dpr);
      }
    });
    const correct = data.output ? data.indices.filter((idx, j) => (data.output[j] > 0) === (data.labels[idx] === data.classA)).length : null;
    setLabel(`${data.indices.length} test images with the attention of the current W over their 7 x 7 patches` +
      (correct === null ? '' : `; ${correct} classified correctly`) + '. Click an image (or use the arrow keys) for its softmax over patches.');
  }
  function setLabel(text) {
    if (canvas.getAttribute('aria-label') !== text) canvas.setAttribute('aria-label', text);
  }

  // A label cut to the tile's width, remembered per text and width (measureText is slow).
  const fits = new Map();
  function fitted(ctx, text, width) {
    const k = `${width}|${ctx.font}|${text}`;
    let t = fits.get(k);
    if (t === undefined) {
      t = text;
      while (t.length > 3 && ctx.measureText(t).width > width) t = `${t.slice(0, -2)}…`;
      fits.set(k, t);
    }
    return t;
  }

  function tileAt(x, y) {
    if (!geom || !data) return null;
    const { tile, labelH, gap, perRow } = geom;
    const cIdx = Math.floor(x / (tile + gap)), rIdx = Math.floor(y / (tile + labelH + gap));
    if (cIdx >= perRow || x - cIdx * (tile + gap) > tile) return null;
    const j = rIdx * perRow + cIdx;
    return j >= 0 && j < data.indices.length ? j : null;
  }
  function tileCenter(j) {
    const { tile, labelH, gap, perRow } = geom;
    const r = canvas.getBoundingClientRect();
    return { x: r.left + (j % perRow) * (tile + gap) + tile / 2, y: r.top + Math.floor(j / perRow) * (tile + labelH + gap) + tile / 2 };
  }

  canvas.addEventListener('click', (e) => {
    const r = canvas.getBoundingClientRect();
    const j = tileAt(e.clientX - r.left, e.clientY - r.top);
    if (j !== null) onSelect?.(j);
  });
  canvas.addEventListener('keydown', (e) => {
    if (!data) return;
    const n = data.indices.length;
    const cur = data.selected ?? -1;
    const step = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: geom?.perRow ?? 1, ArrowUp: -(geom?.perRow ?? 1) }[e.key];
    if (step === undefined) return;
    e.preventDefault();
    onSelect?.(Math.max(0, Math.min(n - 1, cur < 0 ? 0 : cur + step)));
  });

  return {
    canvas,
    // The size the gallery will have (before its images have loaded), so that nothing moves then.
    reserve(spec) {
      if (data) return;
      const g = layout(spec);
      Object.assign(canvas.style, { width: `${g.w}px`, height: `${g.h}px` });
    },
    update(next) { data = next; draw(); },
    resize(w) { width = w ?? container.clientWidth; draw(); },
    tileAt,
    tileCenter,
  };
}
