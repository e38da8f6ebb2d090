// The experiment panel's renderer: a finished run (runner.js's result) -> its plots (the catalog's
// summary and figure, then one band plot a metric, bands.js: mean ± std on a linear axis, median and
// 10-90 % of the seeds on a log axis) and the table of final values (one row a value, one column a
// setting).
import { EXPERIMENTS } from './catalog.js';
import { drawBands } from './bands.js';
import { METRIC_TITLES, groupSeries } from './metrics.js';
import { el, fmt, fmtMs } from './dom.js';

// The plots: plotBox(heading, tip) appends a titled holder to `plots`.
function drawPlots(plots, res) {
  const e = EXPERIMENTS[res.name];
  const plotBox = (heading, tip) => {
    const holder = el('div');
    plots.append(el('div', { className: 'exp-plot' }, el('h4', { textContent: heading, title: tip ?? heading }), holder));
    return holder;
  };
  plots.replaceChildren();
  const first = res.settings[0].result;
  for (const p of e.summary?.(first) ?? []) drawBands(plotBox(p.title), p.x, p.curves, p.opts);
  e.draw?.(plotBox, first, res);
  // (paths2d: its series are path coordinates, drawn by e.draw, not curves over iterations)
  for (const [metric, members] of e.series === false ? [] : groupSeries(Object.keys(first.series), e.group)) {
    if (metric === null) continue;  // (joint-wv: token-plane coordinates, drawn by e.draw)
    const holder = plotBox(METRIC_TITLES[metric] ?? metric, metric);
    const curves = res.settings.flatMap((s) => members.map((m) => ({
      label: [s.label, m.label].filter(Boolean).join(' ') || metric, color: m.color, ...s.result.series[m.name] })));
    drawBands(holder, first.iteration, curves, { x: e.x, y: /^div/.test(metric) ? { label: 'D_p', log: true } : e.y });
  }
}

// Final values: one row per value, one column per setting (mean ± std over seeds).
// (paths2d, joint-wv: the tokens X[i][t][a] and the arrow coordinates .../Wmmz[i][a], .../vmm[a] are
// values for e.draw, not results to list)
function drawTable(table, res) {
  const first = res.settings[0].result;
  const names = Object.keys(first.finals).filter((n) => !/(^|\/)(X|Wmmz|vmm)\[/.test(n));
  const head = el('tr', {}, el('th', { textContent: 'final value' }),
    ...res.settings.map((s) => el('th', { textContent: s.label || res.name })));
  const rows = names.map((n) => el('tr', {}, el('td', { textContent: n }),
    ...res.settings.map((s) => el('td', { textContent: first.seeds.length === 1 ? fmt(s.result.finals[n].mean)
      : `${fmt(s.result.finals[n].mean)} ± ${fmt(s.result.finals[n].std)}` }))));
  table.replaceChildren(el('table', {}, el('thead', {}, head), el('tbody', {}, ...rows)),
    el('p', { textContent: `${res.settings.length} setting(s) × ${first.seeds.length} seeds, ${res.workers} workers, ${fmtMs(res.ms)}` }));
}

export function drawResult(plots, table, res) {
  drawPlots(plots, res);
  drawTable(table, res);
}
