// Basin map canvas: one pixel block per starting prompt p = (x, y, 0), coloured by the token its
// normalized-GD run selects at the end (the limit), with each limit's prompt SVM direction drawn as
// an arrow from the origin; legend with the share of starts per limit and global / local.
import { seqColor, themeColors } from '../plots/theme.js';

// map: {grid, selection: Int32Array (row = y index), limits: {tokens, range}}; returns the counts.
export function drawBasinMap(container, map, size = 400) {
  const { grid, selection, limits } = map;
  const [lo, hi] = limits.range;
  const c = themeColors();
  const canvas = document.createElement('canvas');
  canvas.width = size;
  canvas.height = size;
  canvas.className = 'exp-basin-canvas';
  const ctx = canvas.getContext('2d');
  const cell = size / grid;
  const counts = new Map();
  for (let r = 0; r < grid; r++) {
    for (let col = 0; col < grid; col++) {
      const s = selection[r * grid + col];
      counts.set(s, (counts.get(s) ?? 0) + 1);
      ctx.fillStyle = s >= 0 ? seqColor(s, c.dark) : c.muted;
      // row 0 is the lowest y: draw it at the bottom
      ctx.fillRect(col * cell, size - (r + 1) * cell, Math.ceil(cell), Math.ceil(cell));
    }
  }
  // Arrows: the SVM direction of every limit that occurs, from the origin to the edge.
  const toPx = (x, y) => [(x - lo) / (hi - lo) * size, size - (y - lo) / (hi - lo) * size];
  ctx.lineWidth = 3;
  for (const t of limits.tokens) {
    if (!t.direction || !counts.has(t.token)) continue;
    const [dx, dy] = [t.direction[0], t.direction[1]];
    const len = Math.hypot(dx, dy);
    if (!(len > 0)) continue;
    const reach = 0.9 * (hi - lo) / 2;
    const [x0, y0] = toPx(0, 0), [x1, y1] = toPx(reach * dx / len, reach * dy / len);
    ctx.strokeStyle = c.fg;
    ctx.fillStyle = c.fg;
    ctx.beginPath(); ctx.moveTo(x0, y0); ctx.lineTo(x1, y1); ctx.stroke();
    const a = Math.atan2(y1 - y0, x1 - x0);
    ctx.beginPath();
    ctx.moveTo(x1, y1);
    ctx.lineTo(x1 - 12 * Math.cos(a - 0.4), y1 - 12 * Math.sin(a - 0.4));
    ctx.lineTo(x1 - 12 * Math.cos(a + 0.4), y1 - 12 * Math.sin(a + 0.4));
    ctx.fill();
    ctx.font = c.font;
    const label = `p^mm(token ${t.token})`;
    const w = ctx.measureText(label).width;  // keep the label inside the canvas
    ctx.fillText(label, x1 + 4 + w > size ? x1 - w - 8 : x1 + 4, y1 < 16 ? y1 + 16 : y1 - 6);
  }
  const legend = document.createElement('ul');
  legend.className = 'exp-basin-legend';
  for (const [s, n] of [...counts].sort((a, b) => a[0] - b[0])) {
    const t = limits.tokens.find((x) => x.token === s);
    const li = document.createElement('li');
    li.innerHTML = `<span class="swatch" style="background:${s >= 0 ? seqColor(s, c.dark) : c.muted}"></span>`;
    li.append(`token ${s}${t ? (t.global ? ' (global optimum)' : ' (local)') : ''}: ${(100 * n / (grid * grid)).toFixed(1)} % of starts`);
    legend.append(li);
  }
  const caption = document.createElement('p');
  caption.textContent = `Starts p = (x, y, 0) on a ${grid} x ${grid} grid over [${lo}, ${hi}]^2 (x right, y up); arrows: prompt SVM direction of each limit.`;
  container.replaceChildren(canvas, legend, caption);
  return Object.fromEntries(counts);
}
