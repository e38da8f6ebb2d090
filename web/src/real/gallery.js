// The gallery of test images (one canvas): each image in grey, the attention s_it of the current W
// drawn over its patch grid (orange where s_it is above uniform), the selected patch (argmax_t s_it)
// boxed, and below it the true class with a tick or cross for the prediction sign f_i.
// createGallery(container, { onSelect(j) }) -> { update(data), resize(w), reserve(spec), warm(names, spec),
//   canvas, tileAt(x, y), tileCenter(j) }
//   data: { pixels: Uint8Array (all test images), rows, cols, patch, indices: gallery image -> test
//           index, labels: test labels, softmax: Float64Array (gallery x T) | null, output: f_i per
//           gallery image | null, gamma: Float64Array (gallery x T: gamma_it = Y_i v^T x_it under the
//           current head) | null, classA, names, selected: j | null, maxTile? }
// SPEC 6.3: an attended patch (argmax_t s_it) is gamma-optimal when it is the patch of largest
// gamma_it; each tile carries a mark in its top right corner (filled disc: gamma-optimal; ring: not,
// and the optimal patch gets a dashed box). update() returns { gammaOptimal, marked }.
import { themeColors } from '../plots/theme.js';

const ATTN = [230, 159, 0]; // Okabe-Ito orange
const OK = '#009E73', BAD = '#D55E00', GAMMA_BAD = '#CC79A7';

// The images of a drawing, each at its own resolution side by side in one strip (one ImageData, one
// putImageData), and image k's attention overlay: its opacity is the attention above uniform,
// (s_it - 1/T) / (max_t s_it - 1/T): none at W = 0. The tiles are then scaled up from the strip
// without smoothing. One putImageData and one upload per drawing: an ImageData, a
// putImageData and a drawImage from a small canvas per image cost 15-30 ms for the 24 images.
let tileAlpha = new Float64Array(49);
function paintTile(out, stride, x0, { pixels, rows, cols, patch, index, softmax, offset = 0 }) {
  const g = Math.floor(rows / patch);
  const T = g * g;
  let mx = 0;
  if (softmax) for (let t = 0; t < T; t++) mx = Math.max(mx, softmax[offset + t]);
  const span = mx - 1 / T;
  const over = softmax && span > 1e-9;
  const base = index * rows * cols;
  // the overlay's opacity per patch (T values, not one per pixel)
  const alpha = tileAlpha.length >= T ? tileAlpha : (tileAlpha = new Float64Array(T));
  for (let t = 0; t < T; t++) alpha[t] = over ? 0.7 * Math.max(0, (softmax[offset + t] - 1 / T) / span) : 0;
  for (let r = 0; r < rows; r++) {
    const tr = Math.min(g - 1, Math.floor(r / patch)) * g;
    for (let c = 0; c < cols; c++) {
      const v = 255 - pixels[base + r * cols + c]; // dark garment on a light ground
      const a = alpha[tr + Math.min(g - 1, Math.floor(c / patch))];
      const o = 4 * (r * stride + x0 + c);
      out[o] = (1 - a) * v + a * ATTN[0];
      out[o + 1] = (1 - a) * v + a * ATTN[1];
      out[o + 2] = (1 - a) * v + a * ATTN[2];
      out[o + 3] = 255;
    }
  }
  return over;
}

// The selected patch (argmax_t s_it, a blue box) and, when gamma is given, the optimal one (the
// patch of largest gamma_it, a dashed box when it differs) of the tile at (x, y), `scale` device
// pixels per pixel -> { selected, optimal } (null without attention).
function drawMarks(ctx, { rows, patch, softmax, gamma = null, offset = 0, x, y, scale, box = true }) {
  const g = Math.floor(rows / patch);
  const T = g * g;
  let best = 0;
  for (let t = 1; t < T; t++) if (softmax[offset + t] > softmax[offset + best]) best = t;
  const s = patch * scale;
  if (box) {
    ctx.strokeStyle = '#0072B2';
    ctx.lineWidth = Math.max(1.5, scale / 1.5);
    ctx.strokeRect(x + (best % g) * s + 0.5, y + Math.floor(best / g) * s + 0.5, s - 1, s - 1);
  }
  if (!gamma) return { selected: best, optimal: null };
  let opt = 0;
  for (let t = 1; t < T; t++) if (gamma[offset + t] > gamma[offset + opt]) opt = t;
  if (opt !== best && box) {
    ctx.save();
    ctx.strokeStyle = GAMMA_BAD;
    ctx.lineWidth = Math.max(1.5, scale / 1.5);
    ctx.setLineDash([Math.max(2, scale), Math.max(2, scale)]);
    ctx.strokeRect(x + (opt % g) * s + 0.5, y + Math.floor(opt / g) * s + 0.5, s - 1, s - 1);
    ctx.restore();
  }
  return { selected: best, optimal: opt };
}

// The gamma-optimality mark of a tile: a filled disc (gamma-optimal) or a ring (not), at (cx, cy).
export function drawGammaMark(ctx, cx, cy, r, optimal) {
  ctx.beginPath();
  ctx.arc(cx, cy, r, 0, 2 * Math.PI);
  if (optimal) { ctx.fillStyle = OK; ctx.fill(); ctx.strokeStyle = '#ffffff'; ctx.lineWidth = Math.max(1, r / 3); ctx.stroke(); } else {
    ctx.fillStyle = '#ffffff'; ctx.fill(); ctx.strokeStyle = GAMMA_BAD; ctx.lineWidth = Math.max(1.5, r / 2); ctx.stroke();
  }
}

export function createGallery(container, { onSelect } = {}) {
  const canvas = document.createElement('canvas');
  canvas.className = 'real-gallery';
  canvas.tabIndex = 0;
  canvas.setAttribute('role', 'img');
  // a name before the first drawing too (the view can be read, e.g. its native results, before the images come)
  canvas.setAttribute('aria-label', 'Test images and where attention looks: not drawn yet');
  canvas.width = 0; canvas.height = 0;  // no box until reserve() or the first drawing (layout shift)
  container.append(canvas);
  let data = null, width = container.clientWidth || 600, geom = null;
  const strip = { img: null, canvas: null };  // the images at their own resolution (paintTile)

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
    let gammaOptimal = 0, marked = 0;
    // every image into the strip, then each scaled up from it
    const n = data.indices.length, sw = n * data.cols;
    if (!strip.img || strip.img.width !== sw || strip.img.height !== data.rows) {
      strip.img = new ImageData(sw, data.rows);
      strip.canvas ??= document.createElement('canvas');
      strip.canvas.width = sw; strip.canvas.height = data.rows;
    }
    const over = data.indices.map((index, j) => paintTile(strip.img.data, sw, j * data.cols,
      { pixels: data.pixels, rows: data.rows, cols: data.cols, patch: data.patch, index, softmax: data.softmax, offset: j * T }));
    strip.canvas.getContext('2d').putImageData(strip.img, 0, 0);
    ctx.imageSmoothingEnabled = false;
    data.indices.forEach((index, j) => {
      const x = (j % perRow) * (tile + gap), y = Math.floor(j / perRow) * (tile + labelH + gap);
      const dx = Math.round(x * dpr), dy = Math.round(y * dpr);
      ctx.drawImage(strip.canvas, j * data.cols, 0, data.cols, data.rows, dx, dy, data.cols * scale, data.rows * scale);
      const sel = over[j] ? drawMarks(ctx, { rows: data.rows, patch: data.patch, softmax: data.softmax, gamma: data.gamma ?? null, offset: j * T, x: dx, y: dy, scale }) : null;
      if (sel && sel.optimal !== null) {
        marked++;
        if (sel.optimal === sel.selected) gammaOptimal++;
        const r = Math.max(3, Math.round(scaleCss * 1.6)) * dpr;
        drawGammaMark(ctx, Math.round((x + tile) * dpr) - r - 2 * dpr, Math.round(y * dpr) + r + 2 * dpr, r, sel.optimal === sel.selected);
      }
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
      (correct === null ? '' : `; ${correct} classified correctly`) +
      (marked ? `; ${gammaOptimal} of ${marked} attended patches gamma-optimal (the patch of largest Y_i v^T x_it under the current head)` : '') +
      '. Click an image (or use the arrow keys) for its softmax over patches.');
    stats = { gammaOptimal, marked };
  }
  let stats = { gammaOptimal: 0, marked: 0 };
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
    // The labels' font and fitted texts of the images' classes (names), worked out ahead of the first
    // drawing while the page waits for the images (lab-real.js, at idle): the first text a canvas draws
    // sets up its font (and the glyph fallback of ✓ / ✗), 5-30 ms that made the first drawing's
    // animation frame a long task. The same cache the drawing then reads (fitted()).
    warm(names, spec) {
      if (data) return;
      const g = layout(spec);
      const ctx = canvas.getContext('2d');
      ctx.font = `${11 * g.dpr}px system-ui, sans-serif`;
      for (const name of names) for (const mark of ['', '✓ ', '✗ ']) fitted(ctx, `${mark}${name}`, (g.tile + g.gap - 2) * g.dpr);
    },
    update(next) { data = next; draw(); return stats; },
    get stats() { return stats; },
    resize(w) { width = w ?? container.clientWidth; draw(); },
    tileAt,
    tileCenter,
  };
}
