// The lab's renderer: the view context (the run state, views.js) -> each panel's data -> the
// panels' drawing and their subtitles. It decides what a frame redraws, not when frames happen
// (render-loop.js schedules them: lab/frame-queue.js, the staggered first drawing).
//
// createLabRenderer({ $, panels, lossChart }) ->
//   { plane(ctx, domainKey), firstDrawJobs(ctx, plane()) -> { [panel id]: jobs }, frame(ctx, { force, playing, show(id), plane() }),
//     curve(ctx, id) }
import { planeView, softmaxView, currentSoftmaxView, corrView, normsView, spectrumView, weightsView, readoutView } from './views.js';
import { themeColors } from '../plots/theme.js';
import { setText } from './dom-write.js';

// While playing, panels are redrawn at the rate they need: the token plane and the softmax
// heatmap (canvases, drawn incrementally) every frame; the uPlot curves at ~30 Hz, taking turns
// (each redraw re-renders axes and text); the current softmax, readout and subtitles at ~8 Hz; the
// spectrum and weight heatmaps at ~4 Hz.
const SLOW_MS = 120, SLOWEST_MS = 250;

export function createLabRenderer({ $, panels, lossChart }) {
  // the panels' subtitle and message elements, looked up once (the layout's, never replaced; a
  // lookup is a selector query, and a playing frame writes several)
  const found = new Map();
  const el = (id) => found.get(id) ?? found.set(id, $(id)).get(id);
  const sub = (id, text) => setText(el(`sub-${id}`), text);
  let lastSlowRender = 0, lastSlowestRender = 0, curveTurn = 'corr';

  function panelMessage(id, text) {
    const m = el(`msg-${id}`);
    setText(m, text ?? '');
    if (m.hidden !== !text) m.hidden = !text;
  }
  // steps: the plot drawn by panels.plane.updateInSteps (returns its steps, each for a task of its own)
  function plane(ctx, domainKey, { steps = false } = {}) {
    const v = planeView(ctx);
    const next = { ...v.data, draggable: true, domainKey };
    const rest = steps ? panels.plane.updateInSteps(next) : panels.plane.update(next);
    sub('plane', `${v.subtitle} Drag a token (or focus it, then arrow keys) to move it.`);
    panelMessage('plane', v.message);
    return rest ?? [];
  }
  const softmax = (ctx) => { const v = softmaxView(ctx); panels.softmax.update(v.data); sub('softmax', v.subtitle); };
  // (the panel's reserved height follows the drawn matrices' shape, lab.css: all their rows, the
  // columns, and how many matrices: one, or a T x T block per sequence)
  let currentShape = null;
  const reserve = (items) => {
    const rows = items.reduce((a, it) => a + it.M.length, 0), cols = items[0].M[0]?.length ?? 1;
    const shape = `${rows}x${cols}x${items.length}`;
    if (shape === currentShape) return;
    currentShape = shape;
    const b = $('body-current').style;
    b.setProperty('--current-rows', rows);
    b.setProperty('--current-cols', cols);
    b.setProperty('--current-items', items.length);
  };
  const current = (ctx) => { const v = currentSoftmaxView(ctx); if (v) { reserve(v.data.items); panels.current.update(v.data); sub('current', v.subtitle); } };
  const spectrum = (ctx) => { const v = spectrumView(ctx, themeColors().fg); panels.spectrum.update(v.data); sub('spectrum', v.subtitle); };
  const weights = (ctx) => { const v = weightsView(ctx); panels.weights.update(v.data); sub('weights', v.subtitle); };
  // a curve chart's series change with the references (its key): set them before the data (fresh:
  // set whatever the key, as at a run's first drawing)
  function series(id, v, fresh = false) { if (fresh || panels[id].__key !== v.key) { panels[id].__key = v.key; panels[id].setSeries(v.series); } }
  // A curve panel drawn in full: the convergence chart; the norms' chart (withLoss: and the loss's)
  function corrPanel(ctx, fresh = false) { const v = corrView(ctx); series('corr', v, fresh); panels.corr.update(v.data); sub('corr', v.subtitle); }
  function normsPanel(ctx, { fresh = false, withLoss = true } = {}) {
    const v = normsView(ctx);
    series('norms', v, fresh);
    panels.norms.update(v.norms);
    if (withLoss) lossChart.update(v.loss);
    sub('norms', v.subtitle);
  }
  // whether panel id's plot can be drawn now; if not, its code is asked for (panels.js draws again once in)
  const loaded = (id) => panels.ready(id) || (panels.load(id), false);

  // The first drawing of a run: each panel's jobs, by panel id (render-loop.js picks the panels to
  // draw, in its order, and runs each job in a task of its own; the token plane: four, its plot made
  // then drawn in steps).
  // (A job that returns an array: the jobs to run next, each in a task of its own.)
  function firstDrawJobs(ctx, drawPlaneSteps) {
    return {
      // the plot made, its data and subtitle, then its drawing's steps (tokenplane.js's updateInSteps)
      plane: [() => void panels.plane, drawPlaneSteps],
      softmax: [() => softmax(ctx)],
      current: [() => current(ctx)],
      // (a curve panel waits for its chart's code, panels.js: the job's promise; its charts are made and
      // drawn in the next task, not in the one that evaluated the code: together a long task. If the
      // code failed to load: no chart)
      corr: [() => panels.load('corr'), () => { if (panels.ready('corr')) corrPanel(ctx, true); }],
      norms: [
        () => panels.load('norms'),
        () => { if (panels.ready('norms')) normsPanel(ctx, { fresh: true, withLoss: false }); },
        () => { if (panels.ready('norms')) lossChart.update(normsView(ctx).loss); },
      ],
      spectrum: [() => spectrum(ctx)],
      weights: [() => weights(ctx)],
      readout: [() => panels.readout.update(readoutView(ctx).data)],
    };
  }

  // While playing, the convergence chart and the norm/loss charts take turns (each ~30 Hz), so
  // that no frame redraws all three uPlot charts.
  function curves(ctx, turn, show) {
    if (turn !== 'norms' && show('corr') && loaded('corr')) {
      const cv = corrView(ctx);
      series('corr', cv);
      panels.corr.update(cv.data);
    }
    if (turn !== 'corr' && show('norms') && loaded('norms')) {
      const v = normsView(ctx);
      series('norms', v);
      panels.norms.update(v.norms);
      lossChart.update(v.loss);
    }
  }

  // One frame while the run lives: show(id) says whether a panel is drawn (on screen, or forced).
  function frame(ctx, { force, playing, show, plane: drawPlane }) {
    const now = performance.now();
    if (show('plane')) drawPlane();
    if (show('softmax')) softmax(ctx);
    const slow = force || !playing || now - lastSlowRender > SLOW_MS;
    const turn = force || !playing ? 'both' : (curveTurn = curveTurn === 'corr' ? 'norms' : 'corr');
    if (show('current') && slow) current(ctx);
    curves(ctx, turn, show);
    if (slow) {
      lastSlowRender = now;
      sub('corr', corrView(ctx).subtitle);
      if (show('norms')) sub('norms', normsView(ctx).subtitle);
      if (show('readout')) panels.readout.update(readoutView(ctx).data);
    }
    // the spectrum (a d3 chart rebuilt per update, ~10 ms) and the weight heatmaps change slowly
    if (force || !playing || now - lastSlowestRender > SLOWEST_MS) {
      lastSlowestRender = now;
      if (show('spectrum')) spectrum(ctx);
      if (show('weights')) weights(ctx);
    }
  }

  // One curve panel (corr, or norms with the loss) drawn in full: its chart's code just came in.
  const curve = (ctx, id) => (id === 'corr' ? corrPanel(ctx) : normsPanel(ctx));

  return { plane, firstDrawJobs, frame, curve };
}
