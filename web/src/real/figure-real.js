// The "Real images" scenario as an embedded figure (iframe embed.html#s=real-images... and
// <attnsvm-figure scenario="real-images">): the same session as the lab (session.js), drawn compactly
// with SVG curves (no uPlot in the embeds' budget). Panels: gallery, accuracy, loss, sparsity, hist,
// weights. The asset of the two classes and the experiments build of the module are fetched when
// the figure starts, never by figures of other scenarios. Same api as figure.js; options as
// figure.js plus realEngine(): Promise<real engine> (real-engine.js) and realBase (the folder of data/).
import { createCurves } from '../plots/curves-svg.js';
import { createMatrices } from '../plots/heatmaps.js';
import { CLASS_NAMES } from './asset.js';
import { createRealSession, realSettings } from './session.js';
import { createGallery } from './gallery.js';
import { createPacer } from './pacer.js';
import { curveSeries, curveData, createHistograms, weightItems, runColor, pct } from './panels.js';
import { REAL_PANEL_TITLES } from '../embed/params.js';
import { createFigureShell, el, setPlayButton } from '../embed/shell.js';
import { registerFigure, onPrint } from '../access/figure-access.js';
import { realFigureText } from './describe.js';
import { createPlanPanel } from './plan-panel.js';
import { studySettings, ladderSettings, phaseSettings } from './plan-text.js';
import { nativeResult } from './native.js';
import { loadPair } from './asset.js';

// the study and the ladder (plan-panel.js): panels of their own, run by a pool of workers
const PLAN_PANELS = ['study', 'ladder', 'phase'];

export function createRealFigure(root, options) {
  const state = options.state;
  const settings = realSettings(state);
  const { bPlay, bReset, iterOut, legend, bodies, has, showMessage, showNotice } = createFigureShell(root, {
    title: `Real images: ${CLASS_NAMES[settings.classA]} vs ${CLASS_NAMES[settings.classB]}`,
    panels: options.panels, panelTitles: REAL_PANEL_TITLES, labUrl: options.labUrl, iterText: 'loading…',
    caption: options.caption === 'scenario' ? 'Attention pooling over the 4 x 4 patches of Fashion-MNIST images; W and the linear head trained jointly from zero by l_p mirror descent.' : options.caption,
    page: !!options.page,
  });
  let session = null;
  const parts = {};
  if (has('gallery')) {
    parts.gallery = createGallery(bodies.gallery.body, { onSelect: () => {} });
    parts.gallery.reserve({ n: 12, cols: 28, maxTile: 3, perRow: 8 });  // 12 Fashion-MNIST images (below)
  }
  const CURVES = { accuracy: [['testAccuracy', 'trainAccuracy'], ['test', 'train'], 'accuracy', false],
    loss: [['testLoss', 'trainLoss'], ['test', 'train'], 'loss', true], sparsity: [['sparsity'], ['W'], 'sparsity', false] };
  for (const [id, [, , label, log]] of Object.entries(CURVES)) {
    if (has(id)) parts[id] = createCurves(bodies[id].body, { xlabel: 'iteration k', y: { label, log }, series: [], height: 180 });
  }
  if (has('hist')) parts.hist = createHistograms(bodies.hist.body, { height: 160 });
  if (has('weights')) parts.weights = createMatrices(bodies.weights.body);
  // each panel's text alternative and print picture (access/figure-access.js; real/describe.js)
  // the study's and the ladder's panels register their own figures; the training session runs only
  // when another panel shows it
  const needsSession = options.panels.some((p) => !PLAN_PANELS.includes(p));
  const planEngines = [];
  const plans = {};
  for (const kind of PLAN_PANELS.filter(has)) {
    plans[kind] = createPlanPanel(bodies[kind].body, {
      kind,
      settings: () => (kind === 'study' ? studySettings(state) : kind === 'ladder' ? ladderSettings(state) : phaseSettings(state)),
      native: () => nativeResult(kind, settings.classA, settings.classB),
      key: () => `${settings.classA}v${settings.classB}`,
      classes: () => [settings.classA, settings.classB],
      makeEngines: (count) => Promise.all(Array.from({ length: count }, (_, k) => (planEngines[k] ??= makeEngine().catch((e) => { planEngines[k] = undefined; throw e; })))),
      loadImages: (a, b) => loadPair(options.realBase ?? document.baseURI, a, b, { pool: true }),
      onUpdate: () => options.onUpdate?.(api),
    });
  }
  const figures = Object.keys(parts).map((id) => registerFigure(bodies[id].body, {
    title: REAL_PANEL_TITLES[id],
    describe: () => (session?.info().loaded ? realFigureText(id, session) : 'Loading the images.'),
    snapshot: () => (!session?.info().loaded ? null : id === 'gallery' ? parts.gallery.canvas : parts[id].svg()),
    interactive: id === 'gallery',
  }));

  let visible = false, userPaused = false, autoplay = options.autoplay !== false, started = false, error = null, destroyed = false;
  // the host makes the workers (embed-page.js: a worker file of the site; element.js: an inlined one)
  const makeEngine = options.realEngine ?? (() => Promise.reject(new Error('no realEngine given to the figure')));

  function start() {
    if (!needsSession) { bPlay.hidden = true; bReset.hidden = true; iterOut.textContent = ''; return; }
    session?.destroy();
    session = createRealSession({
      settings, compare: !!state.compare, baseUrl: options.realBase ?? document.baseURI, makeEngine, gallery: 12,
      onUpdate: (s, what) => {
        if (s !== session) return;
        if (what === 'error') {
          const i = s.info();
          error = i.error ? `The real images could not be loaded: ${i.error}` : `Training failed: ${s.runs.find((r) => r.error)?.error}`;
          showMessage(error);
        }
        if (what === 'loaded') {
          for (const id of Object.keys(CURVES)) if (parts[id]) parts[id].setSeries(curveSeries(s, CURVES[id][1]));
          legend.replaceChildren(...s.runs.map((r) => {
            const span = el('span', 'af-li');
            const sw = el('i', 'af-sw'); sw.style.background = runColor(r);
            span.append(sw, document.createTextNode(`${r.label} (${s.settings.optimizer === 'adam' ? 'Adam' : s.settings.optimizer === 'md' ? 'l_p MD' : 'normalized l_p MD'})`));
            return span;
          }));
          if (visible && autoplay && !userPaused) play();
        }
        if (what === 'analysis' || what === 'loaded' || (what === 'frame' && has('weights') && performance.now() - lastW > 500)) {
          lastW = performance.now();
          if (has('weights')) Promise.all(s.runs.map((r) => s.weights(r))).then(() => schedule(false), () => {});
        }
        schedule(what === 'loaded');
        options.onUpdate?.(api);
      },
    });
    session.load();
  }
  let lastW = 0;

  let queued = false, forceNext = false;
  function schedule(force) {
    forceNext ||= force;
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => { queued = false; const f = forceNext; forceNext = false; render(f); });
  }
  const setText = (e, text) => { if (e.textContent !== text) e.textContent = text; };
  // The panels, paced as in the lab (pacer.js): while playing, one panel per animation frame.
  const run0 = () => session.runs[0];
  const jobs = {};
  if (parts.gallery) {
    jobs.gallery = { every: 250, key: () => [session, run0().softmax, run0().output], run: () => {
      const run = run0();
      parts.gallery.update({ pixels: run.info.testPixels, rows: run.info.rows, cols: run.info.cols, patch: 4, indices: session.gallery,
        labels: run.info.testLabels, softmax: run.softmax, output: run.output, gamma: run.gamma, classA: settings.classA, names: CLASS_NAMES, selected: null, maxTile: 3 });
      const g = parts.gallery.stats;
      setText(bodies.gallery.note, `Orange: attention s_it of the current W (${run.label}); blue box: the selected patch; ✓/✗: the prediction. ` +
        `Green disc: the attended patch is γ-optimal (largest Y_i v^T x_it under the head); pink ring: not (dashed box: the optimal patch)` +
        (g.marked ? `: ${g.gammaOptimal} of ${g.marked} γ-optimal now.` : '.'));
    } };
  }
  for (const [id, [keys]] of Object.entries(CURVES)) {
    if (!parts[id]) continue;
    jobs[id] = { every: 400, key: () => [session, ...session.runs.map((r) => r.series.iteration.length)], run: () => {
      parts[id].update(curveData(session, keys));
      const now = session.runs.map((r) => `${r.label}: ${pct(r.last?.[keys[0]])}`).join(', ');
      setText(bodies[id].note, id === 'loss' ? 'Log scale.' : `Now ${now}.`);
    } };
  }
  if (parts.hist) {
    jobs.hist = { every: 500, key: () => [session, ...session.runs.map((r) => r.histogram)],
      run: () => parts.hist.update({ runs: session.runs.map((r) => ({ label: r.label, color: runColor(r), histogram: r.histogram })) }) };
  }
  if (parts.weights) {
    jobs.weights = { every: 500, key: () => [session, ...session.runs.map((r) => r.W)],
      run: () => parts.weights.update({ items: weightItems(session), scheme: 'div', domain: [-1, 1], colorLabel: '', maxCell: 8 }) };
  }
  let lastCounter = 0;
  const pacer = createPacer(jobs);
  function render(force) {
    if (!session || destroyed) return;
    const st = session.status();
    setPlayButton(bPlay, st.playing ? 'pause' : st.done && st.loaded ? 'done' : 'play');
    bPlay.disabled = !st.loaded || st.done;
    bReset.disabled = !st.loaded;
    if (!st.loaded) setText(iterOut, error ? '' : 'loading…');
    if (!st.loaded || (!visible && !force)) return;
    const { ran, waiting } = pacer.frame({ playing: st.playing, force });
    // the counter at most 4 times a second while playing, or with a panel (a frame that changes
    // nothing on screen costs no paint and no compositor commit)
    const now = performance.now();
    if (!st.playing || ran || now - lastCounter > 250) { lastCounter = now; setText(iterOut, `k = ${st.iteration} / ${st.maxIterations}`); }
    if (waiting) schedule(false);
    for (const f of figures) f.update(force || !st.playing);
  }

  function play() {
    if (!session?.info().loaded || destroyed) return;
    started = true;
    session.play();
    render(false);
  }
  bPlay.onclick = () => {
    if (session?.info().playing) { userPaused = true; session.pause(); } else { userPaused = false; play(); }
    render(false);
    options.onUpdate?.(api);
  };
  bReset.onclick = () => { userPaused = false; session?.reset(); };

  const ro = new ResizeObserver(() => {
    for (const [id, p] of Object.entries(parts)) p.resize?.(bodies[id].body.clientWidth);
    schedule(true);
  });
  for (const { body } of Object.values(bodies)) ro.observe(body);

  // printed: every panel as of now (the pacer draws one panel a frame, none while offscreen)
  const unprint = onPrint({ before: () => render(true), after: () => render(true) });
  const api = {
    root,
    play: () => { userPaused = false; play(); },
    pause: () => { userPaused = true; session?.pause(); },
    reset: () => session?.reset(),
    setVisible(v) {
      visible = v;
      // run=study,ladder in the link: the author asks for them; they start when first shown (autoplay is
      // about the training's motion: a study is a computation whose result is a still figure)
      if (v) for (const [kind, panel] of Object.entries(plans)) if ((state.realRun ?? []).includes(kind) && !panel.running && (!panel.info().table || panel.info().native) && !panel.info().error) panel.start();
      if (v) { render(true); if (autoplay && !userPaused && !session?.info().done) play(); } else session?.pause();
    },
    setAutoplay(v) { autoplay = v; },
    destroy() {
      destroyed = true; unprint(); ro.disconnect(); session?.destroy(); figures.forEach((f) => f.destroy());
      for (const p of Object.values(plans)) p.destroy();
      for (const e of planEngines) e?.then((x) => x.terminate(), () => {});
    },
    info() {
      const i = session?.info();
      return {
        ready: needsSession ? !!i?.loaded : true, playing: !!i?.playing, done: !!i?.done && !!i?.loaded, started, error, visible, busy: false,
        iteration: i?.iteration ?? 0, maxIterations: settings.iters, correlations: {}, selection: null, verdict: null,
        scenario: 'real-images', panels: [...options.panels], real: i ?? null,
        plans: Object.fromEntries(Object.entries(plans).map(([k, p]) => [k, p.info()])),
      };
    },
  };
  if (options.notice) showNotice(options.notice);
  start();
  return api;
}
