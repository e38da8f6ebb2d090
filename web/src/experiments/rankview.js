// Drawing of the rank experiment's result (rank.js): mean ± std rank against d, one curve per norm
// and (n, T) setting (colour = setting, solid = Frobenius, dashed = nuclear; bands.js draws them),
// and the CLI's per-cell table.
import { drawBands } from './bands.js';
import { seqColor } from '../plots/theme.js';

const el = (tag, props = {}, ...children) => {
  const e = Object.assign(document.createElement(tag), props);
  e.append(...children);
  return e;
};
const fmt = (x, digits = 2) => (Number.isFinite(x) ? x.toFixed(digits) : '–');
// mean ± std of a rank column; '–' for a cell without feasible instances (d = 1)
const meanStd = (s) => (s.count ? `${fmt(s.mean)} ± ${fmt(s.std)}` : '–');

// res: runRank's result. Returns the uPlot instance.
export function drawRank(plots, table, res) {
  plots.replaceChildren();
  const holder = el('div');
  plots.append(el('div', { className: 'exp-plot exp-wide' }, // one chart, 10 curves: the full width
    el('h4', { textContent: 'rank of W^mm against d (mean ± std over feasible instances): Frobenius solid, nuclear dashed' }),
    holder));
  const curves = res.configs.flatMap(([n, T], k) => {
    const cells = res.dims.map((d) => res.cells.find((c) => c.n === n && c.T === T && c.d === d));
    const color = seqColor(k);
    return [['rankFro', 'Frobenius', undefined], ['rankNuclear', 'nuclear', [6, 4]]].map(([key, norm, dash]) => ({
      label: `n=${n} T=${T} ${norm}`, color, dash,
      mean: cells.map((c) => c[key].mean), std: cells.map((c) => c[key].std),
    }));
  });
  const u = drawBands(holder, res.dims, curves, { x: { label: 'd' }, y: { label: 'rank' }, points: true, height: 380 });
  const head = el('tr', {}, ...['n', 'T', 'd', 'instances', 'attempts', 'Frobenius rank', 'nuclear rank',
    'nuclear < Frobenius', 'nuclear failures'].map((t) => el('th', { textContent: t })));
  const rows = res.cells.map((c) => el('tr', {},
    ...[c.n, c.T, c.d, c.instances, c.attempts,
      meanStd(c.rankFro), meanStd(c.rankNuclear),
      fmt(c.fractionNuclearLower), c.nuclearFailures].map((v) => el('td', { textContent: String(v) }))));
  table.replaceChildren(el('table', { className: 'exp-rank-table' }, el('thead', {}, head), el('tbody', {}, ...rows)),
    el('p', { textContent: `${res.cells.length} cells × first ${res.instances} feasible instances, ${res.workers} workers, ${(res.ms / 1000).toFixed(1)} s` }));
  return u;
}
