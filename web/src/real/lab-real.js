// The lab's "Real images" scenario (SPEC section 6): a view of its own in place of the lab's token
// panels, loaded (with the asset of the two classes and the experiments build of the module) only
// when the scenario opens. The state lives in the lab's URL hash (state.js: ca, cb, opt, p, lr, it,
// ntr, nte, seed, cmp); every control goes through the lab's setState, which calls show(state) again.
//
// Panels: the gallery of test images with the attention of the current W over each image's patch
// grid; the clicked image's softmax over patches, its token scores and the analysis of its
// selection; accuracy, loss, selection sharpness and sparsity over iterations; the |W_jk|
// histograms; the W heatmaps. Compare mode trains p = 1.1, 2 and 3 side by side, one worker each.
import './real.css';
import { createRealEngine } from './real-engine.js';
import { createMatrices } from '../plots/heatmaps.js';
import { svgString, svgSize, svgToPng } from '../plots/export.js';
import { warmTickLabels } from '../plots/number-format.js';
import { CLASS_NAMES } from './asset.js';
import { createRealSession, realSettings } from './session.js';
import { realLayoutHtml } from './layout.js';
import { registerFigure, onPrint } from '../access/figure-access.js';
import { realFigureText } from './describe.js';
import { createGallery } from './gallery.js';
import { createPacer } from './pacer.js';
import { createPlanPanel } from './plan-panel.js';
import { studySettings, ladderSettings, phaseSettings, STUDY_SEEDS, LADDER_MAX } from './plan-text.js';
import { nativeResult } from './native.js';
import { loadPair } from './asset.js';
import { curveSeries, curveData, createHistograms, weightItems, runColor, analysisText, imageDetailText, pct, num } from './panels.js';

// the figures computed by worker pools (plan-panel.js): the study, the ladder, the phase diagram
const PLAN_KINDS = ['study', 'ladder', 'phase'];

// mountRealImages({ layout (the lab's .layout, hidden while this view shows), scenarioOptions
// (the <option>s of the lab's preset select), setState(patch), baseUrl })
export function mountRealImages({ layout, scenarioOptions, setState, baseUrl = document.baseURI }) {
  // the view's frame is in the built page (the static shell); a page without it gets it here
  let root = document.getElementById('real-images');
  if (!root) {
    const box = document.createElement('div');
    box.innerHTML = realLayoutHtml(scenarioOptions);
    root = box.firstElementChild;
    layout.after(root);
    if (innerWidth >= 760) root.querySelector('#real-controls-details').open = true;  // (its inline script does not run here)
  }
  const $ = (id) => root.querySelector(`#${id}`);

  // one worker per compare slot, kept across restarts (the module loads once per worker)
  const engines = [], workers = [];
  const makeEngine = (k) => (engines[k] ??= createRealEngine({ worker: (workers[k] = new Worker(new URL('./real-worker.js', import.meta.url))) })
    .catch((e) => { engines[k] = undefined; throw e; }));

  let session = null, key = null, focus = 0, selected = null, detail = null, lastError = null, current = null;

  // the study and the ladder (plan-panel.js): a pool of workers of their own, kept for the next run
  const planEngines = [];
  const makePlanEngines = (count) => Promise.all(Array.from({ length: count }, (_, k) => (planEngines[k] ??= createRealEngine({
    worker: new Worker(new URL('./real-worker.js', import.meta.url)) }).catch((e) => { planEngines[k] = undefined; throw e; }))));
  const planClasses = () => { const { classA, classB } = realSettings(current ?? {}); return [classA, classB]; };
  const planOptions = (kind) => ({
    kind,
    settings: () => (kind === 'study' ? studySettings(current ?? {}) : kind === 'ladder' ? ladderSettings(current ?? {}) : phaseSettings(current ?? {})),
    // the full-size native result shipped with the page, drawn at once (native-results.js)
    native: () => nativeResult(kind, ...planClasses()),
    key: () => planClasses().join('v'),
    classes: planClasses,
    makeEngines: makePlanEngines,
    loadImages: (a, b) => loadPair(baseUrl, a, b, { pool: true }),
    // the link says that this figure runs as the page opens
    onRun: () => { const run = current?.realRun ?? []; if (!run.includes(kind)) setState({ realRun: [...run, kind] }); },
  });
  // The study and the ladder are at the foot of the view: each panel is made when it comes near the
  // screen, when the page is idle after the first drawing, or when asked for (planOf), whichever
  // comes first (made at the view's start they cost 20-30 ms of one long task).
  const plans = {};
  function planOf(kind) {
    if (!plans[kind]) {
      const panel = plans[kind] = createPlanPanel($(`real-body-${kind}`), planOptions(kind));
      if (current) syncPlan(kind, panel, current);
    }
    return plans[kind];
  }
  function syncPlan(kind, panel, s) {
    panel.refresh();
    const info = panel.info();
    if ((s.realRun ?? []).includes(kind) && !panel.running && (!info.table || info.native) && !info.error) panel.start();
  }
  const messages = root.querySelector('.real-messages');
  function message(text) {
    lastError = text;
    messages.replaceChildren();
    if (!text) return;
    const div = document.createElement('div');
    div.className = 'msg';
    div.textContent = text;
    messages.append(div);
  }

  const gallery = createGallery($('real-body-gallery'), { onSelect: (j) => select(j) });
  const GALLERY = { n: 24, cols: 28, maxTile: 4, perRow: 8 };  // the session's 24 Fashion-MNIST images
  gallery.reserve(GALLERY);
  const CURVE_KEYS = {
    accuracy: [['testAccuracy', 'trainAccuracy'], ['test', 'train']],
    loss: [['testLoss', 'trainLoss'], ['test', 'train']],
    sharpness: [['testMaxSoftmax'], ['test']],
    sparsity: [['sparsity'], ['W']],
  };
  // Each plot is made when first drawn (or exported, printed): a panel below the fold costs nothing
  // at the view's start (the pacer draws the panels in view, and the others as they come near).
  const CURVE_OPTIONS = {
    accuracy: { y: { label: 'accuracy' }, height: 200 },
    loss: { y: { label: 'loss', log: true }, height: 200 },
    sharpness: { y: { label: 'mean max softmax' }, height: 170 },
    sparsity: { y: { label: 'share of |W_jk| < 1% max' }, height: 170 },
  };
  // The curve charts' code (uPlot and its stylesheet: 20-25 ms of evaluation and a style pass over
  // the whole page) is loaded when a curve panel comes near the screen, is exported, or once the page
  // is idle after the gallery's first drawing (so that printing finds it), as the lab's (panels.js):
  // the view's first screen (the gallery) does not wait for it.
  let createCurves = null, curvesLoad = null, curvesQueued = false;
  const loadCurves = () => (curvesLoad ??= import('../plots/curves.js').then((m) => {
    createCurves = m.createCurves;
    if (!root.hidden) schedule(false);
  }));
  const curvesReady = () => createCurves !== null;
  const made = {};
  const makers = {
    ...Object.fromEntries(Object.entries(CURVE_OPTIONS).map(([c, o]) => [c, () => {
      const chart = createCurves($(`real-body-${c}`), { xlabel: 'iteration k', series: [], ...o });
      if (session) chart.setSeries(curveSeries(session, CURVE_KEYS[c][1]));
      return chart;
    }])),
    hist: () => createHistograms($('real-body-hist')),
    weights: () => createMatrices($('real-body-weights')),
  };
  const plot = (id) => (made[id] ??= makers[id]());
  // each plot's text alternative and print picture (access/figure-access.js; describe.js)
  const snapshots = { gallery: () => gallery.canvas, hist: () => plot('hist').svg(), weights: () => plot('weights').svg(),
    ...Object.fromEntries(Object.keys(CURVE_KEYS).map((c) => [c, () => (curvesReady() ? plot(c).svg() : null)])) };
  const figures = Object.entries(snapshots).map(([id, snap]) => registerFigure($(`real-body-${id}`), {
    title: $(`real-panel-${id}`).querySelector('h3').textContent,
    describe: () => (session?.info().loaded ? realFigureText(id, session) : 'Loading the images.'),
    snapshot: () => (session?.info().loaded ? snap() : null),
    interactive: id === 'gallery',
  }));
  const detailBox = $('real-body-detail');
  const detailSoftmax = document.createElement('div');
  const detailText = document.createElement('div');
  detailText.className = 'real-detail-text';

  // ---------- controls ----------
  const numField = (id, field) => $(id).addEventListener('change', (e) => setState({ [field]: e.target.value.trim() === '' ? null : e.target.value }));
  $('real-scenario').onchange = (e) => setState({ scenario: e.target.value });
  $('real-ca').onchange = (e) => setState({ classA: Number(e.target.value) });
  $('real-cb').onchange = (e) => setState({ classB: Number(e.target.value) });
  $('real-opt').onchange = (e) => setState({ optimizer: e.target.value });
  $('real-p').onchange = (e) => setState({ p: Number(e.target.value) });
  $('real-cmp').onchange = (e) => setState({ compare: e.target.checked });
  $('real-dim').onchange = (e) => setState({ tokenDim: e.target.value === '18' ? null : e.target.value });
  numField('real-lr', 'lr'); numField('real-it', 'iterations'); numField('real-ntr', 'nTrain'); numField('real-nte', 'nTest');
  $('real-sseeds').onchange = (e) => setState({ studySeeds: e.target.value.trim() === '' ? null : e.target.value });
  $('real-lmax').onchange = (e) => setState({ ladderMax: Number(e.target.value) });
  $('real-seed').onchange = (e) => setState({ seed: e.target.value.trim() === '' ? 0 : Number(e.target.value) });
  $('real-play').onclick = () => { if (!session) return; if (session.info().playing) session.pause(); else session.play(); };
  $('real-reset').onclick = () => { session?.reset(); selected = null; detail = null; };
  $('real-focus').onchange = (e) => { focus = Number(e.target.value); selected = null; schedule(false); };
  root.querySelectorAll('[data-real-export]').forEach((b) => {
    b.onclick = async () => {
      const url = URL.createObjectURL(await exportPanel(b.dataset.realExport));
      const a = Object.assign(document.createElement('a'), { href: url, download: `attnsvm-real-images-${b.dataset.realExport}.png` });
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    };
  });

  function syncControls(s, settings) {
    const set = (id, v) => { const el = $(id); if (document.activeElement !== el) el.value = String(v); };
    set('real-scenario', 'real-images');
    set('real-ca', settings.classA); set('real-cb', settings.classB);
    set('real-opt', settings.optimizer);
    set('real-dim', settings.dim);
    const pSel = $('real-p');
    if (![...pSel.options].some((o) => Number(o.value) === settings.p)) pSel.append(new Option(String(settings.p), String(settings.p)));
    set('real-p', settings.p);
    set('real-lr', settings.lr); set('real-it', settings.iters); set('real-ntr', settings.nTrain); set('real-nte', settings.nTest); set('real-seed', settings.seed);
    $('real-cmp').checked = !!s.compare;
    set('real-sseeds', s.studySeeds ?? STUDY_SEEDS);  // (it showed 3 while the study ran 5)
    const lSel = $('real-lmax'), lmax = s.ladderMax ?? LADDER_MAX;
    if (![...lSel.options].some((o) => Number(o.value) === lmax)) lSel.append(new Option(String(lmax), String(lmax)));
    set('real-lmax', lmax);
    root.querySelector('[data-real="p"]').hidden = settings.optimizer === 'adam' || !!s.compare;
    root.querySelector('[data-real="compare"]').hidden = settings.optimizer === 'adam';
  }

  // ---------- runs ----------
  function show(s) {
    layout.hidden = true;
    root.hidden = false;
    document.querySelector('.topbar .player')?.setAttribute('hidden', '');
    const settings = realSettings(s);
    current = s;
    syncControls(s, settings);
    for (const kind of PLAN_KINDS) {
      if (plans[kind]) syncPlan(kind, plans[kind], s);
      else if ((s.realRun ?? []).includes(kind)) planOf(kind);  // (it runs as the page opens: made now)
    }
    const k = JSON.stringify([settings, !!s.compare]);
    if (k === key && session) return;
    key = k;
    session?.destroy();
    selected = null; detail = null;
    message(null);
    const my = session = createRealSession({
      settings, compare: !!s.compare, baseUrl, makeEngine: (i) => makeEngine(i), keepEngines: true,
      onUpdate: (sess, what) => { if (sess === session) onUpdate(what); },
    });
    // each run's worker starts fetching the images now, while its module may still compile (real-prefetch.js)
    if (my.asset) my.runs.forEach((r, i) => { makeEngine(i); workers[i]?.postMessage({ type: 'realPrefetch', asset: my.asset }); });
    const focusSel = $('real-focus');
    focusSel.replaceChildren(...my.runs.map((r, i) => new Option(r.label, String(i))));
    focus = 0;
    for (const c of Object.keys(CURVE_KEYS)) made[c]?.setSeries(curveSeries(my, CURVE_KEYS[c][1]));  // (made: curves loaded)
    $('real-iter').textContent = 'loading the images…';
    // (while the worker loads: the gallery's label texts, in a task of their own)
    const idle = globalThis.requestIdleCallback ?? ((f) => setTimeout(f, 50));
    idle(() => gallery.warm([settings.classA, settings.classB].map((c) => CLASS_NAMES[c]), GALLERY), { timeout: 1000 });
    // and the number format the curves' axes use, if it is Intl's (number-format.js): its first use loads
    // the locale's data, 10-40 ms inside the first chart's build
    idle(() => warmTickLabels(), { timeout: 1000 });
    my.load().then(() => { if (my === session && my.info().loaded && autoplay) my.play(); });
  }
  // (never by itself for a reader who prefers reduced motion, as the lab's other scenarios)
  const autoplay = new URLSearchParams(location.search).get('autoplay') !== '0' && !matchMedia('(prefers-reduced-motion: reduce)').matches;

  function hide() {
    session?.pause();
    for (const panel of Object.values(plans)) panel.cancel();
    root.hidden = true;
    layout.hidden = false;
    document.querySelector('.topbar .player')?.removeAttribute('hidden');
  }

  let queued = false, forceNext = false;
  function onUpdate(what) {
    if (what === 'error') {
      const info = session.info();
      const runErr = session.runs.find((r) => r.error)?.error;
      message(info.error ? `The real images could not be loaded: ${info.error}` : `Training failed: ${runErr}`);
      $('real-iter').textContent = info.error ? 'no data' : $('real-iter').textContent;
    }
    if (what === 'analysis' || what === 'loaded') { fetchWeights(); if (selected !== null) select(selected); }
    // (the first pass of a session is not forced: the panels in view draw one per frame)
    schedule(false);
  }
  // One drawing pass per animation frame, however many runs reported (coalesced).
  function schedule(force) {
    forceNext ||= force;
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => { queued = false; const f = forceNext; forceNext = false; drawAll(f); });
  }

  let weightsBusy = false, lastWeights = 0;
  async function fetchWeights() {
    if (!session || weightsBusy) return;
    weightsBusy = true;
    const my = session;
    try { await Promise.all(my.runs.map((r) => my.weights(r))); } catch { /* a cancelled run */ } finally { weightsBusy = false; }
    lastWeights = performance.now();
    if (my === session) schedule(false);
  }

  // the longest drawing pass (ms), for the tests and the benchmark
  const drawStats = { max: 0, count: 0, total: 0 };
  function drawAll(force = false) {
    const t0 = performance.now();
    drawAllInner(force);
    const ms = performance.now() - t0;
    drawStats.max = Math.max(drawStats.max, ms); drawStats.count++; drawStats.total += ms;
  }
  // Writes a text or attribute only when it differs: a write of the same value still costs a style
  // recalculation in every frame.
  const setText = (el, text) => { if (el.textContent !== text) el.textContent = text; };
  const focused = () => session.runs[focus] ?? session.runs[0];
  // The panels, paced (pacer.js): while playing each animation frame draws at most one of them.
  let lastCounter = 0;
  // Only the panels in view (or within the observer's margin) are drawn, one per animation frame; the
  // others when they come near (the observer schedules a pass).
  const inView = new Set();
  const jobs = {
    gallery: { every: 250, key: () => [session, focused().softmax, focused().output, selected, focus], run: drawGallery },
    // (a curve panel draws once its code is here: curvesReady() in its key redraws it then)
    ...Object.fromEntries(Object.entries(CURVE_KEYS).map(([c, [keys]]) => [c, {
      every: 400, key: () => [session, curvesReady(), ...session.runs.map((r) => r.series.iteration.length)],
      run: () => { if (curvesReady()) plot(c).update(curveData(session, keys)); },
    }])),
    hist: { every: 500, key: () => [session, ...session.runs.map((r) => r.histogram)],
      run: () => plot('hist').update({ runs: session.runs.map((r) => ({ label: r.label, color: runColor(r), histogram: r.histogram })) }) },
    summary: { every: 500, key: () => [session, ...session.runs.flatMap((r) => [r.last, r.analysis])], run: drawSummary },
    weights: { every: 500, key: () => [session, ...session.runs.map((r) => r.W)],
      run: () => plot('weights').update({ items: weightItems(session), scheme: 'div', domain: [-1, 1], colorLabel: '', maxCell: 12 }) },
  };
  for (const [id, job] of Object.entries(jobs)) job.show = () => inView.has(id);
  const pacer = createPacer(jobs);
  const io = new IntersectionObserver((entries) => {
    for (const e of entries) {
      const id = e.target.id.replace(/^real-panel-/, '');
      if (e.isIntersecting) inView.add(id); else inView.delete(id);
      if (e.isIntersecting && PLAN_KINDS.includes(id)) planOf(id);
      if (e.isIntersecting && id in CURVE_KEYS) loadCurves();
    }
    if (!root.hidden) schedule(false);
  }, { rootMargin: '200px' });
  root.querySelectorAll('.panel').forEach((p) => io.observe(p));
  function drawAllInner(force) {
    if (!session) return;
    const st = session.status();
    const playing = st.playing;
    const play = $('real-play');
    setText(play.firstElementChild, playing ? '❚❚' : st.done && st.loaded ? '✓' : '▶');
    setText(play.lastElementChild, playing ? 'Pause' : st.done && st.loaded ? 'Done' : 'Play');
    play.disabled = !st.loaded || (st.done && !playing);
    $('real-reset').disabled = !st.loaded;
    if (!st.loaded) return;
    if (playing && performance.now() - lastWeights > 1000) fetchWeights();
    const { ran, waiting } = pacer.frame({ playing, force });
    // the counter at most 4 times a second while playing, or with a panel: a frame that changes
    // nothing on screen costs no paint and no compositor commit
    const now = performance.now();
    if (!playing || ran || now - lastCounter > 250) { lastCounter = now; setText($('real-iter'), `k = ${st.iteration} / ${st.maxIterations}`); }
    if (waiting) schedule(false);
    for (const f of figures) f.update(force || !playing);
  }

  function drawGallery() {
    if (!curvesQueued) {
      curvesQueued = true;
      (globalThis.requestIdleCallback ?? ((f) => setTimeout(f, 200)))(() => loadCurves(), { timeout: 4000 });
    }
    const run = focused();
    gallery.update({ pixels: run.info.testPixels, rows: run.info.rows, cols: run.info.cols, patch: 4, indices: session.gallery,
      labels: run.info.testLabels, softmax: run.softmax, output: run.output, gamma: run.gamma, classA: session.settings.classA, names: CLASS_NAMES, selected });
    const correct = run.output ? session.gallery.filter((idx, j) => (run.output[j] > 0) === (run.info.testLabels[idx] === session.settings.classA)).length : 0;
    setText($('real-sub-gallery'), `The first ${session.gallery.length / 2} test images (of the split) of ${CLASS_NAMES[session.settings.classA]} and of ${CLASS_NAMES[session.settings.classB]} ` +
      `(${run.label}): ${correct} of ${session.gallery.length} classified correctly now (✓/✗ from the sign of f_i). Orange: attention s_it; blue box: the selected patch. Click an image.`);
    const g = gallery.stats;
    setText($('real-gamma-count'), g.marked ? `${g.gammaOptimal} of ${g.marked} attended patches are γ-optimal now.` : 'No patch is attended yet (W = 0: uniform attention).');
  }

  // The table is built once per session and its cells rewritten only when their text changes.
  let summaryFor = null, summaryCells = null;
  function drawSummary() {
    const body = $('real-body-summary');
    if (summaryFor !== session) {
      summaryFor = session;
      const rows = session.runs.map((r) => `<tr><th scope="row"><span class="real-sw" style="background:${runColor(r)}"></span>${r.label}</th>` +
        '<td></td><td></td><td></td><td></td><td></td></tr>').join('');
      body.innerHTML = `<table class="real-table"><thead><tr><th scope="col">run</th><th>train acc.</th><th>test acc.</th><th>test loss</th><th>max s</th><th>sparsity</th></tr></thead><tbody>${rows}</tbody></table>`;
      summaryCells = session.runs.map((r, k) => {
        const p = document.createElement('p');
        p.className = 'sub';
        body.append(p);
        return { tds: [...body.querySelectorAll('tbody tr')[k].querySelectorAll('td')], p };
      });
    }
    session.runs.forEach((r, k) => {
      const l = r.last ?? {};
      [pct(l.trainAccuracy), pct(l.testAccuracy), num(l.testLoss), num(l.testMaxSoftmax), pct(l.sparsity)].forEach((t, i) => setText(summaryCells[k].tds[i], t));
      setText(summaryCells[k].p, `${r.label}: ${analysisText(r)}`);
    });
  }

  async function select(j) {
    if (!session?.info().loaded) return;
    selected = j;
    const my = session;
    const r = focus;
    try {
      detail = await my.detail(r, j);
    } catch (e) { return; }
    if (my !== session || selected !== j) return;
    drawDetail(my.runs[r]);
    schedule(false);
  }

  function drawDetail(run) {
    const d = detail;
    const g = Math.round(Math.sqrt(d.T));
    const grid = (arr) => Array.from({ length: g }, (_, r) => Array.from(arr.subarray(r * g, (r + 1) * g)));
    let sel = 0, optT = 0;
    for (let t = 1; t < d.T; t++) { if (d.softmax[t] > d.softmax[sel]) sel = t; if (d.gamma[t] > d.gamma[optT]) optT = t; }
    detailBox.replaceChildren(detailSoftmax, detailText);
    if (!detailMatrices) detailMatrices = createMatrices(detailSoftmax);
    detailMatrices.update({ items: [
      { label: 'softmax s_t over patches', M: grid(d.softmax), marks: [{ r: Math.floor(sel / g), c: sel % g, kind: 'selected' }, { r: Math.floor(optT / g), c: optT % g, kind: 'optimal' }] },
    ], scheme: 'seq', domain: [0, Math.max(...d.softmax)], showValues: true, maxCell: 30, colorLabel: 's_t' });
    detailText.replaceChildren(...[...imageDetailText(d, run, CLASS_NAMES, session.settings.classA), 'Solid box: selected patch; dashed: optimal patch.', analysisText(run)]
      .map((t) => Object.assign(document.createElement('p'), { className: 'sub', textContent: t })));
  }
  let detailMatrices = null;

  async function exportPanel(id) {
    if (id in CURVE_KEYS) await loadCurves();
    drawAll(true); // every panel as of now (the pacer may not have reached this one yet)
    const svgEl = PLAN_KINDS.includes(id) ? planOf(id).svg() : plot(id).svg();
    const text = svgString(svgEl, { title: `attnsvm — real images — ${id}` });
    const { width, height } = svgSize(svgEl);
    return svgToPng(text, width, height, 2);
  }

  const ro = new ResizeObserver(() => {
    gallery.resize($('real-body-gallery').clientWidth);
    for (const c of Object.keys(CURVE_KEYS)) made[c]?.resize();
    made.hist?.resize($('real-body-hist').clientWidth);
    made.weights?.resize($('real-body-weights').clientWidth);
  });
  root.querySelectorAll('.body').forEach((b) => ro.observe(b));
  // printed: every panel as of now, in the theme the lab set for paper (its hook runs first; the
  // pacer would draw one panel a frame), and again after in the reader's theme
  onPrint({
    before: () => {
      if (root.hidden) return;
      for (const kind of PLAN_KINDS) planOf(kind);
      if (session) drawAll(true);
    },
    after: () => { if (!root.hidden && session) schedule(true); },
  });

  return {
    show, hide,
    // the engine's version (of the experiments build this view's workers run)
    engineVersion: () => makeEngine(0).then((e) => e.call('version')),
    get visible() { return !root.hidden; },
    drawStats: () => ({ ...drawStats, panels: { ...pacer.stats } }),
    info: () => (session ? { ...session.info(), gallery: session.gallery.length, selected, detail: detail && { index: detail.index, label: detail.label, output: detail.output }, message: lastError } : null),
    session: () => session,
    plan: (kind) => planOf(kind).info(),
    planPanel: (kind) => planOf(kind),
    play: () => session?.play(),
    pause: () => session?.pause(),
    select: (j) => select(j),
    tileCenter: (j) => gallery.tileCenter(j),
    exportPanel,
  };
}
