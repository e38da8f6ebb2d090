// One embedded figure: a lab state (scenario + overrides) run in the engine's worker and drawn with
// the lab's panel components (web/src/plots) into a compact frame: a header with the player
// (play/pause, reset), the chosen panels, a compact legend, an optional caption and an "open in
// the lab" link. Used by the iframe page (embed-page.js) and by the <attnsvm-figure> element
// (element.js); neither knows about the other.
//
// createFigure(root, options) -> figure
//   options: { client: Promise<engine client (lab/engine-client.js shape)>, state (lab state),
//              panels: string[], caption: string|null ('scenario': the scenario's own), labUrl,
//              autoplay: bool, speed: iterations per frame (default state.speed), notice: text shown
//              above the panels (e.g. problems with the link), dark: bool, onUpdate(fig) }
//   figure:  { play(), pause(), reset(), setVisible(bool), destroy(), info() } ; info() is the test
//            hook: { ready, playing, done, started, iteration, maxIterations, correlations,
//            selection, verdict, error }
//
// Playing: the figure starts by itself when it becomes visible (setVisible(true), driven by the
// host's IntersectionObserver), unless autoplay is off (reduced motion, autoplay=0) or the reader
// paused it; it pauses when it leaves the view and resumes when it comes back.
//
// The configuration is built by the lab's own rules (lab/config.js: the scenario from the engine,
// the sphere generator if asked, then the state's overrides), so "open in the lab" replays the
// same run.
import { SCENARIO_INFO, REF_LABEL } from '../lab/scenarios.js';
import { TraceStore } from '../lab/trace.js';
import { currentSelection, defaultSelection, solveReferences, createFollower } from '../lab/reference-follower.js';
import { scenarioOptions, sphereArgs, buildConfig, initialWeights, validationKind, lpP as configLpP,
  effectiveRefs as configEffectiveRefs } from '../lab/config.js';
import { computeProjection, planeView, softmaxView, currentSoftmaxView, corrView, normsView, refName, refLegendLabel,
  spectrumView, weightsView, readoutView, verdictOf, fmt } from '../lab/views.js';
import { createTokenPlane } from '../plots/tokenplane.js';
import { createTimeHeatmap, createMatrices } from '../plots/heatmaps.js';
import { createCurves } from '../plots/curves-svg.js'; // SVG curves: no uPlot in the embeds' budget
import { createSpectrum } from '../plots/spectrum.js';
import { createReadout } from '../plots/readout.js';
import { REF_STYLE, OKABE_ITO, themeColors, seqColor } from '../plots/theme.js';
import { PANEL_TITLES } from './params.js';
import { createLazyRealFigure } from '../real/figure-lazy.js';

const el = (tag, cls, text) => {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text != null) e.textContent = text;
  return e;
};
const raf = (f) => requestAnimationFrame(f);

export function createFigure(root, options) {
  // real images (SPEC section 6): a figure of its own, loaded on demand (web/src/real/)
  if (options.state.scenario === 'real-images') return createLazyRealFigure(root, options);
  const state = options.state;
  const info = SCENARIO_INFO[state.scenario];
  const speed = Math.max(1, options.speed ?? state.speed ?? 5);
  root.classList.add('attnsvm-figure');

  // ---------- DOM ----------
  const head = el('div', 'af-head');
  const title = el('div', 'af-title', info.title);
  const player = el('div', 'af-player');
  const bPlay = el('button', 'af-btn af-primary', '▶ Play');
  bPlay.type = 'button';
  const bReset = el('button', 'af-btn', '↺ Reset');
  bReset.type = 'button';
  bReset.setAttribute('aria-label', 'Reset');
  const iterOut = el('output', 'af-iter', 'k = 0');
  player.append(bPlay, bReset, iterOut);
  const lab = el('a', 'af-lab', 'Open in the lab ↗');
  lab.href = options.labUrl ?? '#';
  lab.target = '_blank';
  lab.rel = 'noopener';
  head.append(title, player, lab);
  const msg = el('div', 'af-msg');
  msg.setAttribute('role', 'status');
  msg.hidden = true;
  const grid = el('div', `af-panels af-n${Math.min(options.panels.length, 3)}`);
  const legend = el('div', 'af-legend');
  legend.setAttribute('aria-label', 'Legend');
  const cap = el('p', 'af-caption');
  const capText = options.caption === 'scenario' ? info.caption : options.caption;
  cap.textContent = capText ?? '';
  cap.hidden = !capText;
  root.replaceChildren(head, msg, grid, legend, cap);

  const bodies = {};
  for (const id of options.panels) {
    const sec = el('section', `af-panel af-panel-${id}`);
    sec.dataset.panel = id;
    const h = el('h3', 'af-panel-title', PANEL_TITLES[id]);
    const note = el('p', 'af-note');
    const body = el('div', 'af-body');
    sec.append(h, body, note);
    grid.append(sec);
    bodies[id] = { sec, body, note };
  }

  // ---------- panels (the lab's components) ----------
  const panels = {};
  const has = (id) => !!bodies[id];
  if (has('plane')) panels.plane = createTokenPlane(bodies.plane.body, {});
  if (has('softmax')) panels.softmax = createTimeHeatmap(bodies.softmax.body);
  if (has('current')) panels.current = createMatrices(bodies.current.body);
  if (has('corr')) panels.corr = createCurves(bodies.corr.body, { xlabel: 'iteration k', y: { label: '1 − corr', log: true }, series: [], height: 200 });
  let lossChart = null;
  if (has('norms')) {
    panels.norms = createCurves(bodies.norms.body, {
      xlabel: 'iteration k', y: { label: 'norm of W(k)' }, height: 160,
      series: [
        { label: '‖W‖_F', color: OKABE_ITO.blue },
        { label: '‖W‖_*', color: OKABE_ITO.vermillion, dash: [2, 3] },
      ],
    });
    lossChart = createCurves(bodies.norms.body, { xlabel: 'iteration k', y: { label: 'loss' }, height: 130, series: [{ label: 'loss', color: 'fg' }] });
  }
  if (has('spectrum')) panels.spectrum = createSpectrum(bodies.spectrum.body);
  if (has('weights')) panels.weights = createMatrices(bodies.weights.body);
  if (has('readout')) panels.readout = createReadout(bodies.readout.body);

  // ---------- run state ----------
  let client = null;
  let cfg = null, baseDataset = null, proj = null, scores = null;
  let trace = new TraceStore();
  let refs = {}, refSelection = null, report = null, headSvm = null;
  const run = { id: null, playing: false, inFlight: false, done: false };
  let gen = 0, refGen = 0, solving = 0;
  let ready = false, started = false, error = null;
  let visible = false, userPaused = false, destroyed = false;
  let autoplay = options.autoplay !== false;

  function showMessage(text) { msg.textContent = text ?? ''; msg.hidden = !text; }
  function fail(text) { error = text; showMessage(text); updatePlayer(); options.onUpdate?.(api); }

  const effectiveRefs = () => configEffectiveRefs(state, cfg);
  const lpP = () => configLpP(state, cfg);

  async function load() {
    const my = ++gen;
    try {
      client = client ?? await options.client;
      let base = await client.scenario(state.scenario, scenarioOptions(state));
      if (state.generator === 'sphere') base = { ...base, dataset: await client.sphere(...sphereArgs(state, base.dataset)) };
      if (my !== gen || destroyed) return;
      let config = buildConfig(state, base);
      try {
        await client.validate(config.dataset, validationKind(config));
      } catch (e) {
        if (!state.data) throw e;
        showMessage(`The link's dataset cannot be used (${e.message}); showing the scenario's data.`);
        config = buildConfig({ ...state, data: null }, base);
      }
      cfg = config;
      baseDataset = base.dataset;
      proj = computeProjection(cfg, baseDataset);
      try { scores = await client.scores(cfg.dataset); } catch { scores = null; }
      const id = await client.startRun({ dataset: cfg.dataset, model: cfg.model, train: cfg.train, init: cfg.init }, cfg.iterations);
      if (my !== gen || destroyed) { client.cancel(id); return; }
      run.id = id;
      trace.setInitial(initialWeights(cfg));
      trace.ingest(await client.step(id, 0));
      await refreshReferences();
      if (my !== gen || destroyed) return;
      ready = true;
      render(true);
      if (visible && autoplay && !userPaused) play();
      options.onUpdate?.(api);
    } catch (e) {
      if (my === gen) fail(`This figure could not start: ${e.message}`);
    }
  }

  // ---------- reference SVMs (lab/reference-follower.js: the same rules as the lab) ----------
  async function refreshReferences(selection = currentSelection(cfg, trace, state.selection) ?? defaultSelection(cfg, scores)) {
    if (!cfg) return;
    const my = gen, mine = ++refGen;
    solving++;
    try {
      const out = await solveReferences(client, { cfg, selection, refList: effectiveRefs(), lpP: lpP() });
      if (my !== gen || mine !== refGen) return;
      refs = out.refs;
      headSvm = out.headSvm;
      refSelection = selection ?? out.report?.selection ?? scores?.optimal ?? null;
      report = out.report;
      const failed = Object.entries(refs).find(([, s]) => s.status === 'error' || s.status === 'infeasible');
      if (failed) showMessage(`The ${REF_LABEL[failed[0]]} SVM has no solution for this selection: ${failed[1].message || failed[1].status}`);
      else if (msg.textContent.startsWith('The ') && msg.textContent.includes(' SVM has no solution')) showMessage(null);
      trace.setReferences(Object.fromEntries(Object.entries(refs)
        .filter(([, s]) => s.status === 'optimal' || s.status === 'max_iterations').map(([k, s]) => [k, s.W])));
      scheduleRender();
    } finally {
      solving--;
    }
  }
  const follower = createFollower({ refresh: (sel) => refreshReferences(sel), solvedFor: () => refSelection, generation: () => gen });

  // ---------- player ----------
  function play() {
    if (!ready || !run.id || run.done || run.playing || destroyed) return;
    run.playing = true;
    started = true;
    updatePlayer();
    raf(tick);
    options.onUpdate?.(api);
  }
  function pause() { run.playing = false; updatePlayer(); options.onUpdate?.(api); }
  function tick() {
    if (!run.playing || destroyed) return;
    if (!run.inFlight) advance(speed);
    raf(tick);
  }
  async function advance(k) {
    if (!run.id || run.inFlight || run.done) return;
    const my = gen;
    run.inFlight = true;
    try {
      const frame = await client.step(run.id, k);
      if (my !== gen) return;
      trace.ingest(frame);
      if (frame.done) {
        run.done = true;
        run.playing = false;
        if (frame.stopped && frame.stopReason) showMessage(`Stopped at k = ${trace.iterationNow()}: ${frame.stopReason}`);
      }
      const sel = currentSelection(cfg, trace, state.selection);
      if (sel) follower.follow(sel);
      scheduleRender();
      if (run.done) options.onUpdate?.(api);
    } catch (e) {
      if (my === gen) { run.playing = false; fail(`Training failed: ${e.message}`); }
    } finally {
      if (my === gen) run.inFlight = false;
    }
  }
  async function reset() {
    if (!run.id || !client) return;
    const my = ++gen;
    run.playing = false;
    run.done = false;
    userPaused = false;
    showMessage(null);
    while (run.inFlight) await new Promise((r) => setTimeout(r, 10));
    await client.reset(run.id);
    if (my !== gen) return;
    trace = new TraceStore();
    trace.setInitial(initialWeights(cfg));
    trace.ingest(await client.step(run.id, 0));
    refs = {}; refSelection = null; report = null; follower.reset();
    await refreshReferences();
    render(true);
    if (visible) play();
  }
  function updatePlayer() {
    bPlay.textContent = run.playing ? '❚❚ Pause' : (run.done ? '✓ Done' : '▶ Play');
    bPlay.setAttribute('aria-label', run.playing ? 'Pause' : 'Play');
    bPlay.setAttribute('aria-pressed', String(run.playing));
    bPlay.disabled = !ready || run.done;
    bReset.disabled = !ready;
    iterOut.textContent = cfg ? `k = ${trace.iterationNow()} / ${cfg.iterations}` : (error ? '' : 'loading…');
  }
  bPlay.onclick = () => {
    if (run.playing) { userPaused = true; pause(); } else { userPaused = false; play(); }
  };
  bReset.onclick = () => { reset(); };

  // ---------- rendering ----------
  let queued = false;
  function scheduleRender() {
    if (queued) return;
    queued = true;
    raf(() => { queued = false; render(); });
  }
  // The lab's view functions (lab/views.js) turn the run state into each panel's data; the
  // figure keeps its own short notes (the lab's subtitles are written for a full page).
  function viewContext() {
    return { cfg, trace, refs, refSelection, report, scores, headSvm, projection: proj,
      refList: effectiveRefs(), lpP: lpP(), followSelection: state.selection === 'auto' };
  }
  let lastSlow = 0;
  function render(force = false) {
    updatePlayer();
    if (!cfg) return;
    if (!visible && !force) return;
    const now = performance.now();
    const ctx = viewContext();
    if (has('plane')) {
      const v = planeView(ctx);
      panels.plane.update({ ...v.data, draggable: false, domainKey: state.scenario });
      bodies.plane.note.textContent = v.message ?? [
        ctx.cfg.model.param === 'prompt' ? 'Path: W_kᵀp(k) (scaled by max ‖p(k)‖); arrows: the SVM direction.'
          : 'Paths: W(k) z_i (scaled by max ‖W(k)‖); arrows: W^mm z_i; dashed lines: margins.',
        proj.note ?? '',
      ].filter(Boolean).join(' ');
    }
    if (has('softmax')) {
      panels.softmax.update(softmaxView(ctx).data);
      bodies.softmax.note.textContent = 'Rows: tokens, grouped by sequence (left strip). Selection shows as one bright row per sequence.';
    }
    if (has('current')) {
      const v = currentSoftmaxView(ctx);
      if (v) panels.current.update(v.data);
      bodies.current.note.textContent = 'Solid box: selected token; dashed: optimal token.';
    }
    if (has('corr')) {
      const v = corrView(ctx);
      if (panels.corr.__key !== v.key) { panels.corr.__key = v.key; panels.corr.setSeries(v.series); }
      panels.corr.update(v.data);
      const cNow = trace.correlations();
      const names = Object.keys(trace.refs);
      bodies.corr.note.textContent = names.length
        ? `Log scale; 0 = same direction. Now: ${names.map((r) => `${refName(r, ctx)} corr = ${fmt(cNow[r], 5)}`).join(', ')}.`
        : 'No reference SVM for this selection.';
    }
    if (has('norms')) {
      const v = normsView(ctx);
      panels.norms.update({ ...v.norms, ys: v.norms.ys.slice(0, 2) });
      lossChart.update(v.loss);
      bodies.norms.note.textContent = 'The norm grows without bound; the direction converges.';
    }
    if (force || !run.playing || now - lastSlow > 66) {
      lastSlow = now;
      if (has('spectrum')) {
        panels.spectrum.update(spectrumView(ctx, themeColors().fg).data);
        bodies.spectrum.note.textContent = 'Divided by the Frobenius norm. The nuclear solution is low rank.';
      }
      if (has('weights')) {
        panels.weights.update(weightsView(ctx).data);
        bodies.weights.note.textContent = 'Each divided by its Frobenius norm; purple > 0, orange < 0.';
      }
      if (has('readout')) panels.readout.update(readoutView(ctx).data);
    }
  }

  // ---------- compact legend (what the chosen panels draw) ----------
  function buildLegend() {
    if (!cfg) return;
    const items = [];
    const n = cfg.dataset.X.length;
    const showSeq = has('plane') || has('current') || has('softmax');
    if (showSeq && cfg.model.param !== 'prompt') {
      for (let i = 0; i < Math.min(n, 8); i++) items.push({ swatch: seqColor(i), text: `seq ${i}` });
      if (n > 8) items.push({ text: `… ${n} sequences` });
    }
    // (the token plane draws its own legend of marks and line styles)
    if (!has('plane') && (has('corr') || has('spectrum'))) {
      const ctx = viewContext();
      for (const r of effectiveRefs()) items.push({ line: REF_STYLE[r], text: refLegendLabel(r, ctx) });
    }
    legend.replaceChildren(...items.map((it) => {
      const span = el('span', 'af-li');
      if (it.swatch) { const s = el('i', 'af-sw'); s.style.background = it.swatch; span.append(s); }
      if (it.glyph) span.append(el('b', 'af-glyph', it.glyph));
      if (it.line) {
        const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
        svg.setAttribute('width', '24'); svg.setAttribute('height', '8'); svg.setAttribute('aria-hidden', 'true');
        const l = document.createElementNS('http://www.w3.org/2000/svg', 'line');
        l.setAttribute('x1', '0'); l.setAttribute('x2', '24'); l.setAttribute('y1', '4'); l.setAttribute('y2', '4');
        l.setAttribute('stroke', it.line.color); l.setAttribute('stroke-width', '2'); l.setAttribute('stroke-dasharray', it.line.dash);
        svg.append(l);
        span.append(svg);
      }
      span.append(document.createTextNode(it.text));
      return span;
    }));
  }

  // ---------- sizing ----------
  const ro = new ResizeObserver(() => {
    for (const p of Object.values(panels)) p.resize?.();
    lossChart?.resize();
    if (cfg) scheduleRender();
  });
  for (const { body } of Object.values(bodies)) ro.observe(body);

  const api = {
    root,
    play: () => { userPaused = false; play(); },
    pause: () => { userPaused = true; pause(); },
    reset,
    // The host's visibility (IntersectionObserver): start or resume when shown, pause when hidden.
    setVisible(v) {
      visible = v;
      if (v) {
        render(true);
        if (ready && autoplay && !userPaused && !run.done) play();
      } else if (run.playing) {
        run.playing = false;
        updatePlayer();
      }
    },
    setAutoplay(v) { autoplay = v; },
    destroy() {
      destroyed = true;
      run.playing = false;
      ro.disconnect();
      if (run.id !== null && client) client.cancel(run.id);
    },
    info() {
      return {
        ready, playing: run.playing, done: run.done, started, error, visible,
        busy: run.inFlight || solving > 0,
        iteration: trace.iterationNow(), maxIterations: cfg?.iterations ?? null,
        correlations: trace.correlations(), selection: refSelection && [...refSelection],
        verdict: cfg ? (verdictOf(viewContext())?.kind ?? null) : null, scenario: state.scenario, panels: [...options.panels],
      };
    },
  };
  updatePlayer();
  if (options.notice) showMessage(options.notice);
  load().then(buildLegend);
  return api;
}
