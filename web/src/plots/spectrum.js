// Spectrum: singular values of W(k)/||W(k)||_F against those of the normalized SVM solutions
// (d3 chart; static per update). createSpectrum(container) -> { update(data), svg(), resize() }
// data: { series: [{ label, color, dash, values: number[] (descending) , hollow? }] }
import { drawLineChart, newSvg } from './linechart.js';
import { themeColors } from './theme.js';

export function createSpectrum(container) {
  const svgEl = newSvg(container);
  let data = null;
  let knownWidth = null;
  let drawnKey = null;
  function render() {
    if (!data) return;
    knownWidth ??= container.clientWidth;
    const width = Math.max(240, knownWidth || 400);
    // The chart is rebuilt only when what it shows changed (to the pixel: 3 decimals); once the
    // direction has settled the spectrum stops moving while the run plays on.
    const key = JSON.stringify([width, themeColors().dark, data.series.map((s) => [s.label, s.color, s.values.map((v) => v.toFixed(3))])]);
    if (key === drawnKey) return;
    drawnKey = key;
    const r = Math.max(1, ...data.series.map((s) => s.values.length));
    drawLineChart(svgEl, {
      width, height: 220,
      x: Array.from({ length: r }, (_, k) => k + 1),
      xdomain: [0.5, r + 0.5], xticks: Math.min(r, 10), ydomain: [0, 1.02],
      xlabel: 'index j', ylabel: 'σ_j / ‖·‖_F',
      series: data.series.map((s) => ({ ...s, points: true })),
    });
  }
  return {
    update(next) { data = next; render(); },
    resize(w) { knownWidth = w ?? container.clientWidth; render(); },
    svg() { return svgEl; },
  };
}
