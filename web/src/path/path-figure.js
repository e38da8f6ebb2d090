// The regularization path figure (SPEC section 5.3): R on a slider (or played), the token plane
// with the direction of W(R) z_i for R up to the slider's and the SVM arrows each ball's path
// points at, 1 - corr(W(R), its ball's own SVM) against R on log axes (one line per ball), and a
// table of the current radius: 1 - corr, the rank of W(R), the relative Frank-Wolfe gap
// (certified or not) and whether the loss still resolves. Used by the lab's path view
// (lab-path.js) and the embed's `path` panel (compact: no explanation, the table in one line).
//
// createPathFigure(root, { compact, prefix, onRadius(R), onDrag(i, t, xy, phase) }) ->
//   { setProblem(problem), setResult(result), setIndex(k), play(), pause(), get index, get playing,
//     setVisible(bool), message(text), describe(), svg() }
// The figure's markup (path-layout.js) reserves every box's size before anything is drawn.
import { createTokenPlane } from '../plots/tokenplane.js';
import { drawLineChart, newSvg } from '../plots/linechart.js';
import { REF_STYLE, themeColors } from '../plots/theme.js';
import { pathFigureHtml } from './path-layout.js';
import { PATH_BALLS, PATH_RADII, BALL_LABEL, pathPlaneData, pointSummary, describeRadius, fmtR,
  lossStopsResolving, RANK_TOLERANCE, PREVIEW_ITERATIONS } from './path-model.js';

const fmt = (v, digits = 3) => (Number.isFinite(v) ? Number(v.toPrecision(digits)).toString() : '—');
const PLAY_MS = 450;  // one radius per step while playing

let uid = 0;

export function createPathFigure(root, { compact = false, prefix = null, onRadius, onDrag } = {}) {
  // (the lab's figure is in the page's markup already, path-layout.js: it is adopted as it is)
  prefix ??= `pf${++uid}`;
  root.classList.add('path-figure');
  if (!root.querySelector(`#${prefix}-slider`)) root.innerHTML = pathFigureHtml(prefix, { compact });
  const $ = (s) => root.querySelector(`#${prefix}-${s}`);
  const slider = $('slider'), rval = $('rval'), playBtn = $('play'), ballSel = $('ball');
  const msgEl = $('msg'), statusEl = $('status'), table = $('table');
  const plane = createTokenPlane($('plane'), { onDrag });
  const chartSvg = newSvg($('chart'));
  let problem = null, result = null, k = 0, playing = false, timer = null, visible = true, msgText = '';

  function lpLabel() { return `l_${fmt(problem?.lpP ?? 2, 3)}`; }
  const ballName = (b) => (b === 'lp' ? lpLabel() : BALL_LABEL[b]);

  function drawPlane() {
    if (!problem) return;
    const data = pathPlaneData({ cfg: problem.cfg, dataset: problem.dataset, proj: problem.projection,
      paths: result?.paths, svms: result?.svms, shown: ballSel.value, k });
    plane.update({ ...data, expectRefs: PATH_BALLS, draggable: !!onDrag && !compact, domainKey: problem.domainKey });
  }

  function drawChart() {
    const el = $('chart');
    const width = Math.max(240, el.clientWidth || 400), height = Math.max(180, el.clientHeight || 280);
    const series = [];
    let lo = Infinity, hi = 0;
    for (const b of PATH_BALLS) {
      const pts = result?.paths?.[b] ?? [];
      const values = pts.map((p) => 1 - p.corrOwn);
      for (const v of values) if (v > 0 && Number.isFinite(v)) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
      series.push({ label: `${ballName(b)} ball`, color: REF_STYLE[b].color, dash: REF_STYLE[b].dash, points: true, radius: 2.5,
        x: pts.map((p) => p.radius), values });
    }
    if (!(lo < Infinity)) { lo = 1e-8; hi = 1; }
    const R = PATH_RADII[k];
    series.push({ label: `R = ${fmtR(R)}`, color: themeColors().muted, dash: '1 3', x: [R, R], values: [lo, hi] });
    drawLineChart(chartSvg, { width, height, series, xlog: true, ylog: true, xlabel: 'radius R (log)', ylabel: '1 − corr (log)',
      xdomain: [PATH_RADII[0], PATH_RADII.at(-1)], xtickValues: [1, 10, 100, 1000].filter((v) => v <= PATH_RADII.at(-1)) });
  }

  function drawText() {
    const R = PATH_RADII[k];
    slider.value = String(k);
    slider.setAttribute('aria-valuetext', `R = ${fmtR(R)}`);
    rval.textContent = `R = ${fmtR(R)}`;
    const text = result ? describeRadius(result.paths, k, problem?.lpP ?? 2, { short: compact }) : '';
    const stop = result?.paths?.fro ? lossStopsResolving(result.paths.fro) : null;
    const tail = result?.done
      ? ` The loss stops resolving in double precision at R ≈ ${stop === null ? `beyond ${fmtR(PATH_RADII.at(-1))}` : fmtR(stop)} (Frobenius ball); the gap, computed from the log-domain gradient, stays exact beyond. Rank: singular values above ${RANK_TOLERANCE} of the largest.`
      : (result ? ' Computing the other balls…' : '');
    const preview = result?.problem?.preview ? ` (A preview while the token moves: at most ${PREVIEW_ITERATIONS} Frank-Wolfe iterations a radius; the full path when it is dropped.)` : '';
    statusEl.textContent = msgText ? '' : (compact ? text : text + preview + tail);
    if (!table) return;
    for (const b of PATH_BALLS) {
      const row = table.querySelector(`tr[data-ball="${b}"]`);
      row.querySelector('th').textContent = ballName(b);
      const s = pointSummary(result?.paths?.[b], k);
      const cells = s ? [fmt(s.oneMinusCorr, 2), String(s.rank), fmt(s.relativeGap, 2),
        s.certified ? 'certified' : 'not certified', s.lossResolved ? 'yes' : 'no', `[${s.selection.join(', ')}]${s.globallyOptimal ? ' (optimal)' : ''}`]
        : ['…', '…', '…', '…', '…', '…'];
      row.querySelectorAll('td').forEach((td, j) => { td.textContent = cells[j]; });
    }
  }

  function draw() {
    drawPlane();
    drawChart();
    drawText();
  }

  function setIndex(next, { fromUser = false } = {}) {
    k = Math.max(0, Math.min(PATH_RADII.length - 1, next | 0));
    draw();
    if (fromUser) onRadius?.(PATH_RADII[k]);
  }

  function tick() {
    timer = null;
    if (!playing || !visible) return;
    if (k >= PATH_RADII.length - 1) { pause(); return; }
    setIndex(k + 1, { fromUser: true });
    timer = setTimeout(tick, PLAY_MS);
  }
  function play() {
    if (k >= PATH_RADII.length - 1) setIndex(0, { fromUser: true });
    playing = true;
    playBtn.textContent = '❚❚ Pause';
    playBtn.setAttribute('aria-label', 'Pause the path');
    clearTimeout(timer);
    timer = setTimeout(tick, PLAY_MS);
  }
  function pause() {
    playing = false;
    clearTimeout(timer); timer = null;
    playBtn.textContent = '▶ Play';
    playBtn.setAttribute('aria-label', 'Play the path');
  }

  slider.addEventListener('input', () => { pause(); setIndex(Number(slider.value), { fromUser: true }); });
  playBtn.addEventListener('click', () => (playing ? pause() : play()));
  ballSel.addEventListener('change', drawPlane);

  return {
    setProblem(next) { problem = next; draw(); },
    setResult(next) { result = next; draw(); },
    setIndex: (next) => setIndex(next),
    play, pause,
    // offscreen: the player holds (it resumes when the figure is seen again)
    setVisible(v) {
      visible = v;
      if (v && playing && !timer) timer = setTimeout(tick, PLAY_MS);
    },
    message(text) { msgText = text ?? ''; msgEl.textContent = msgText; drawText(); },
    resize() { plane.resize?.(); drawChart(); },
    describe: () => (msgText || statusEl.textContent || describeRadius(result?.paths, k, problem?.lpP ?? 2)),
    svg: () => plane.svg(),
    chartSvg: () => chartSvg,
    get index() { return k; },
    get playing() { return playing; },
    get result() { return result; },
  };
}
