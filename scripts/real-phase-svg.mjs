// The (d, n) phase diagram as a standalone SVG for docs/RESULTS.md (no DOM, no d3: the same encoding as the
// view's drawPhase in web/src/real/plan-plots.js): per (head, method) a grid of d (up) by n (across), each
// cell's fill the share of seeds reaching corr >= 0.99 with the Att-SVM of their selection, its number the
// mean final corr, a vermillion cross where a run is degenerate, a dashed border where the SVM is not
// certified feasible for every seed. Then: chromium --headless --screenshot=docs/figures/real-phase.png
//   node scripts/real-phase-svg.mjs phase.json > real-phase.svg
import { readFileSync } from 'node:fs';

const j = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const rows = j.table;
const groups = [...new Set(rows.map((r) => `${r.head}|${r.method}`))].sort();
const dims = [...new Set(rows.map((r) => r.dim))].sort((a, b) => a - b);
const ns = [...new Set(rows.map((r) => r.n))].sort((a, b) => a - b);
const W = 900, cols = 2, facetW = (W - 10) / cols, m = { l: 56, r: 10, t: 26, b: 36 }, cellH = 30;
const facetH = m.t + dims.length * cellH + m.b, legendH = 34;
const H = Math.ceil(groups.length / cols) * (facetH + 8) + legendH + 20;
const out = [`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-family="sans-serif" font-size="12"><rect width="${W}" height="${H}" fill="#fff"/>`];
const t = (x, y, s, a = {}) => out.push(`<text x="${x}" y="${y}" ${Object.entries(a).map(([k, v]) => `${k}="${v}"`).join(' ')}>${s}</text>`);
const name = (h, mth) => `${h === 'frozen' ? 'Frozen head' : 'Joint head'} (${mth === 'nmd:2' ? 'normalized GD' : mth === 'nmd:1.1' ? 'normalized l_1.1 MD' : mth})`;
groups.forEach((g, gi) => {
  const [head, method] = g.split('|');
  const ox = (gi % cols) * facetW + 5, oy = Math.floor(gi / cols) * (facetH + 8);
  const cellW = (facetW - m.l - m.r) / ns.length;
  t(ox + m.l, oy + 16, name(head, method), { 'font-weight': 600 });
  dims.forEach((d, di) => {
    const y = oy + m.t + (dims.length - 1 - di) * cellH;
    t(ox + m.l - 6, y + cellH / 2 + 4, `d = ${d}`, { 'text-anchor': 'end', fill: '#555' });
    ns.forEach((n, ni) => {
      const r = rows.find((q) => q.head === head && q.method === method && q.dim === d && q.n === n);
      if (!r) return;
      const x = ox + m.l + ni * cellW, share = r.seeds ? r.limitReached / r.seeds : 0;
      const feasible = r.feasible === r.seeds;
      out.push(`<rect x="${x + 1}" y="${y + 1}" width="${cellW - 2}" height="${cellH - 2}" fill="#0072B2" fill-opacity="${0.12 + 0.88 * share}" ${feasible ? '' : 'stroke="#222" stroke-dasharray="3 2"'}/>`);
      t(x + cellW / 2, y + cellH / 2 + 4, r.corrMean == null ? '–' : r.corrMean.toFixed(2), { 'text-anchor': 'middle', fill: share > 0.5 ? '#fff' : '#222' });
      if (r.degenerate > 0) {
        const cx = x + cellW - 9, cy = y + 9, s = 3;
        out.push(`<path d="M${cx - s},${cy - s}L${cx + s},${cy + s}M${cx - s},${cy + s}L${cx + s},${cy - s}" stroke="#D55E00" stroke-width="2"/>`);
      }
    });
  });
  ns.forEach((n, ni) => t(ox + m.l + (ni + 0.5) * cellW, oy + m.t + dims.length * cellH + 15, n, { 'text-anchor': 'middle', fill: '#555' }));
  t(ox + m.l + (facetW - m.l - m.r) / 2, oy + facetH - 4, 'training images n', { 'text-anchor': 'middle', fill: '#555' });
});
const ly = H - legendH;
out.push(`<rect x="10" y="${ly}" width="14" height="12" fill="#0072B2"/>`); t(28, ly + 10, 'every seed reaches corr ≥ 0.99');
out.push(`<rect x="230" y="${ly}" width="14" height="12" fill="#0072B2" fill-opacity="0.12"/>`); t(248, ly + 10, 'no seed (number: mean final corr)');
out.push(`<path d="M470,${ly + 2}L476,${ly + 8}M470,${ly + 8}L476,${ly + 2}" stroke="#D55E00" stroke-width="2"/>`); t(482, ly + 10, 'degenerate run (chance accuracy)');
t(10, ly + 28, `${j.settings.steps} steps for every n, ${j.settings.seeds} seeds per cell; 7 vs 9; dashed border: SVM not certified for every seed`, { fill: '#555' });
out.push('</svg>');
process.stdout.write(out.join('\n'));
