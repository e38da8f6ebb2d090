// A figure panel of the real-images study (SPEC 6.1) or regime ladder (6.2), for the lab's view and
// the embeds: a Run / Cancel button, a progress bar with the runs done, the size it runs at (reduced
// for the browser, stated), the figure (plan-plots.js), its caption (what the numbers say,
// plan-text.js) and, for the ladder, a table per n with the feasibility and the failing condition.
// The runs go to a pool of workers (plan-pool.js); the main thread only draws when a plan ends.
// A failure or a cancel keeps the last figure and says what happened.
//
// createPlanPanel(body, { kind, settings: () => settings, key: () => '7v9', classes: () => [A, B],
//   makeEngines(count) -> Promise<engines>, loadImages(A, B) -> Promise<{train, test}>, onRun?(),
//   onUpdate?(), native?() -> {table, note} | null }) -> { start(), cancel(), refresh(), info(), destroy(), figure }
// kind: 'study', 'ladder' or 'phase' (the (d, n) phase diagram, SPEC 6.5).
// native(): the result computed natively by the CLI and shipped with the page
// (web/src/real/native-results.js), drawn at once when the panel has no live result of its own; `note`
// says which command made it and when. Run reruns a reduced version live; its result replaces it.
import { registerFigure, announce } from '../access/figure-access.js';
import { SVG_NS } from '../plots/svg.js';
import { runPlanPool, poolSize } from './plan-pool.js';
import { drawStudy, drawLadder, drawPhase } from './plan-plots.js';
import {
  studyRows, ladderRows, phaseRows, studyCaption, ladderCaption, phaseCaption, studySizeText, ladderSizeText, phaseSizeText, methodLabel,
} from './plan-text.js';

const nextFrame = () => new Promise((resolve) => (typeof requestAnimationFrame === 'function' ? requestAnimationFrame(() => setTimeout(resolve, 0)) : setTimeout(resolve, 16)));

const el = (tag, cls, text) => {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text != null) e.textContent = text;
  return e;
};

export function createPlanPanel(body, opts) {
  const { kind } = opts;
  const what = kind === 'phase' ? 'phase diagram' : kind;
  body.classList.add('plan-panel', `plan-${kind}`);
  const bar = el('div', 'plan-bar');
  const bRun = el('button', 'plan-run af-btn', `Run the ${what}`);
  bRun.type = 'button';
  const progress = el('progress', 'plan-progress');
  progress.max = 1; progress.value = 0;
  progress.setAttribute('aria-label', `Progress of the ${what}`);
  const status = el('output', 'plan-status', 'Not run yet.');
  bar.append(bRun, progress, status);
  const size = el('p', 'sub plan-size');
  const chart = el('div', 'plan-chart');
  const svg = document.createElementNS(SVG_NS, 'svg');
  // (until the first result: what the figure will show, in the space it keeps for it)
  const placeholder = el('p', 'plan-placeholder', kind === 'study'
    ? 'Run the study to draw it here: each method trained at the step it chose on validation images, over the seeds; its test accuracy (mean and 95% interval) and its paired difference to gradient descent.'
    : kind === 'ladder' ? 'Run the ladder to draw it here: for each number of training images n, 1 − corr between W(k) and the Att-SVM of the selection it reaches, along k, and whether that SVM is feasible, for a frozen and a jointly trained head.'
      : 'Run the phase diagram to draw it here: for each token dimension d and number of training images n, whether W reaches the Att-SVM of its selection (corr ≥ 0.99), for a frozen and a jointly trained head.');
  const source = el('p', 'sub plan-source');
  chart.append(placeholder, svg);
  const caption = el('p', 'plan-caption');
  const tableBox = el('div', 'plan-table-box');
  // a table wider than a phone scrolls: reachable by keyboard (axe: scrollable-region-focusable)
  tableBox.tabIndex = 0;
  tableBox.setAttribute('role', 'region');
  tableBox.setAttribute('aria-label', `Table of the ${what}`);
  const error = el('p', 'plan-error');
  error.setAttribute('role', 'alert');
  body.append(bar, size, source, error, chart, caption, tableBox);

  // table: the live result, or (nativeNote set) the shipped native one
  let table = null, tableSettings = null, running = null, lastError = null, seconds = null, prog = null, startedAt = 0, nativeNote = null;
  const sizeText = () => (kind === 'study' ? studySizeText(opts.settings()) : kind === 'ladder' ? ladderSizeText(opts.settings()) : phaseSizeText(opts.settings()));
  const title = kind === 'study' ? 'The fair study: test accuracy per method'
    : kind === 'ladder' ? 'The regime ladder: corr with the Att-SVM along k, per n' : 'The phase diagram: where W reaches the Att-SVM, per token dimension d and n';
  const caption0 = { study: studyCaption, ladder: ladderCaption, phase: phaseCaption }[kind];

  // The native result when there is no live one (and none for other classes: native() returns null).
  function useNative() {
    if (table && !nativeNote) return;
    const nat = opts.native?.() ?? null;
    table = nat?.table ?? null;
    nativeNote = nat ? nat.note : null;
    tableSettings = null;
  }

  function describe() {
    if (table) return (nativeNote ? 'Native result (computed by the CLI; its command under the figure). ' : '') + caption0(table);
    if (running) return `Running: ${prog?.submitted ?? 0} of ${prog?.planned ?? '?'} runs done.`;
    return `Not run yet. ${sizeText()}`;
  }
  const figure = registerFigure(chart, { title, describe, snapshot: () => (table ? svg : null) });

  function draw() {
    const width = Math.max(300, chart.clientWidth || body.clientWidth || 600);
    if (!table) { svg.replaceChildren(); svg.setAttribute('width', 0); svg.setAttribute('height', 0); return; }
    if (kind === 'study') drawStudy(svg, studyRows(table), { width });
    else if (kind === 'ladder') drawLadder(svg, ladderRows(table), { width, target: table.settings?.corrTarget ?? 0.99 });
    else drawPhase(svg, phaseRows(table), { width });
  }

  function drawTable() {
    tableBox.replaceChildren();
    if (!table) return;
    if (kind === 'study') {
      const rows = studyRows(table);
      const t = el('table', 'real-table plan-table');
      t.innerHTML = '<caption>Per method (the main setting): chosen step, test accuracy mean ± std, paired difference to GD with its 95% CI, γ-optimal share and sparsity (at the best-validation epoch)</caption>' +
        '<thead><tr><th scope="col">method</th><th scope="col">step η</th><th scope="col">test acc.</th><th scope="col">vs GD [95% CI]</th><th scope="col">γ-optimal</th><th scope="col">sparsity</th></tr></thead>';
      const tb = el('tbody');
      for (const r of rows) {
        const tr = el('tr');
        const pts = (x) => `${x >= 0 ? '+' : '−'}${Math.abs(100 * x).toFixed(1)}`;
        const cells = [r.label, String(Number(r.lr.toPrecision(3))) + (r.atEdge ? ' (edge)' : ''),
          `${(100 * r.accuracy.mean).toFixed(1)} ± ${(100 * (r.std ?? NaN)).toFixed(1)}%`,
          r.vsGd && Number.isFinite(r.vsGd.lo) ? `${pts(r.vsGd.mean)} [${pts(r.vsGd.lo)}, ${pts(r.vsGd.hi)}]` : '—',
          Number.isFinite(r.gammaOptimal) ? `${(100 * r.gammaOptimal).toFixed(0)}%` : '—',
          Number.isFinite(r.sparsity) ? `${(100 * r.sparsity).toFixed(0)}%` : '—'];
        cells.forEach((c, i) => { const td = el(i ? 'td' : 'th', null, c); if (!i) td.scope = 'row'; tr.append(td); });
        tb.append(tr);
      }
      t.append(tb);
      tableBox.append(t);
    } else if (kind === 'phase') {
      const rows = phaseRows(table);
      const t = el('table', 'real-table plan-table');
      t.innerHTML = '<caption>Per head, d and n: seeds reaching corr ≥ 0.99 with the Att-SVM of their selection, degenerate runs, the SVM\'s certified feasibility, mean corr, training accuracy, min / mean selected softmax, γ-optimal share, and what fails</caption>' +
        '<thead><tr><th scope="col">head, d, n</th><th scope="col">limit</th><th scope="col">degenerate</th><th scope="col">SVM</th><th scope="col">corr</th><th scope="col">train acc.</th><th scope="col">min / mean s</th><th scope="col">γ-opt.</th><th scope="col">failing condition</th></tr></thead>';
      const tb = el('tbody');
      const f = (x, d) => (Number.isFinite(x) ? x.toFixed(d) : '—');
      for (const r of rows) {
        const tr = el('tr');
        const cells = [`${r.head} ${r.method === 'nmd:2' ? '' : methodLabel(r.method) + ' '}d = ${r.dim}, n = ${r.n}`, `${r.reached}/${r.seeds}`, String(r.degenerate),
          r.feasibility, f(r.corr, 3), f(r.trainAccuracy, 3), `${f(r.minSoftmax, 2)} / ${f(r.meanSoftmax, 2)}`, f(r.gammaOptimal, 2), r.failing.join('; ')];
        cells.forEach((c, i) => { const td = el(i ? 'td' : 'th', null, c); if (!i) td.scope = 'row'; tr.append(td); });
        tb.append(tr);
      }
      t.append(tb);
      tableBox.append(t);
    } else {
      const rows = ladderRows(table);
      const t = el('table', 'real-table plan-table');
      t.innerHTML = '<caption>Per head and n: the certified feasibility of the Att-SVM of the reached selection, corr at the end, the smallest selected softmax, and where corr stays below the target, the failing condition</caption>' +
        '<thead><tr><th scope="col">head, n</th><th scope="col">SVM</th><th scope="col">corr</th><th scope="col">min s</th><th scope="col">limit</th><th scope="col">failing condition</th></tr></thead>';
      const tb = el('tbody');
      for (const r of rows) {
        const tr = el('tr');
        const cells = [`${r.head} ${r.method === 'nmd:2' ? '' : methodLabel(r.method) + ' '}n = ${r.n}`, r.feasibility,
          Number.isFinite(r.corrFinal) ? r.corrFinal.toFixed(4) : '—', Number.isFinite(r.minSoftmax) ? r.minSoftmax.toFixed(3) : '—',
          r.limit ? 'reached' : 'not reached', r.limit ? '' : r.failing.join('; ')];
        cells.forEach((c, i) => { const td = el(i ? 'td' : 'th', null, c); if (!i) td.scope = 'row'; tr.append(td); });
        tb.append(tr);
      }
      t.append(tb);
      tableBox.append(t);
    }
  }

  function render() {
    size.textContent = sizeText();
    bRun.textContent = running ? 'Cancel' : table && !nativeNote ? `Run the ${what} again` : nativeNote ? 'Run it in this browser' : `Run the ${what}`;
    progress.hidden = !running;
    if (running && prog) progress.value = prog.fraction;
    const st = running ? `${prog?.submitted ?? 0} of ${prog?.planned ?? '?'} runs done (${workers} workers)…`
      : table && nativeNote ? 'Shown: the native result. Run it in this browser for a reduced live rerun.'
        : table ? `Done in ${seconds?.toFixed(1)} s.` : lastError ? '' : 'Not run yet.';
    source.textContent = table && nativeNote ? nativeNote : '';
    source.hidden = !(table && nativeNote);
    if (status.textContent !== st) status.textContent = st;
    placeholder.hidden = !!table;
    error.textContent = lastError ?? '';
    error.hidden = !lastError;
    caption.textContent = table ? describe() : '';
    figure.update(!running);
  }

  let workers = poolSize();
  async function start() {
    if (running) return running.promise;
    const ctl = new AbortController();
    const settings = opts.settings();
    const [a, b] = opts.classes();
    lastError = null;
    prog = null;
    startedAt = performance.now();
    running = { ctl };
    render();
    opts.onUpdate?.();
    running.promise = (async () => {
      try {
        const [engines, images] = await Promise.all([opts.makeEngines(workers), opts.loadImages(a, b)]);
        const result = await runPlanPool({ kind, settings, engines, images, key: opts.key(), signal: ctl.signal,
          onProgress: (p) => { prog = p; if (performance.now() - lastDraw > 200) { lastDraw = performance.now(); render(); } } });
        if (running?.ctl !== ctl) return;
        table = result;
        nativeNote = null;
        tableSettings = JSON.stringify(settings);
        seconds = (performance.now() - startedAt) / 1000;
        running = null;
        // the figure, then its table and words, in separate tasks (one task did all three: 60-70 ms of
        // CPU on the loaded 2-core machine, a long task)
        await nextFrame();
        draw();
        await nextFrame();
        drawTable();
        await nextFrame();
        render();
        announce(body, `The ${what} has finished. ${describe()}`);
      } catch (e) {
        if (running?.ctl !== ctl) return;
        running = null;
        lastError = e?.name === 'AbortError' ? `The ${what} was cancelled${table ? '; the figure shows the last complete run' : ''}.`
          : `The ${what} failed: ${e?.message ?? e}${table ? ' (the figure shows the last complete run)' : ''}`;
        render();
      }
      opts.onUpdate?.();
    })();
    return running.promise;
  }
  let lastDraw = 0;

  function cancel() { running?.ctl.abort(); }
  bRun.onclick = () => { if (running) cancel(); else { opts.onRun?.(); start(); } };

  // Settings changed: a table of other settings is not shown as if it were of these.
  function refresh() {
    if (table && !nativeNote && tableSettings !== JSON.stringify(opts.settings())) { table = null; seconds = null; }
    const before = table;
    useNative();
    if (table !== before || !table) { draw(); drawTable(); }
    render();
  }

  const ro = new ResizeObserver(() => { if (table) draw(); });
  ro.observe(chart);
  useNative();
  if (table) { draw(); drawTable(); }
  render();

  return {
    start, cancel, refresh, figure,
    get running() { return !!running; },
    setWorkers(n) { workers = n; },
    info: () => ({ kind, running: !!running, table, native: !!nativeNote, seconds, error: lastError, progress: prog, settings: opts.settings(), caption: table ? describe() : null }),
    svg: () => svg,
    destroy() { cancel(); ro.disconnect(); figure.destroy(); },
  };
}
