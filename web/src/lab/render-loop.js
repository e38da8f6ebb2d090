// When the lab draws (render.js draws a frame): redraws coalesced to one an animation frame, a run's
// first drawing spread over tasks, panels off screen skipped while playing, and a resized panel
// redrawn in a task of its own.
import { PANELS } from './layout.js';
import { panelImage } from './lab-export.js';
import { createFrameQueue } from './frame-queue.js';

// createRenderLoop({ session, panels, lossChart, renderer, isPlaying(), updatePlayerUI(),
//   describeFigures(now) }) -> { scheduleRender(), renderAll(force), renderPlane(ctx?),
//   renderStaggered(done), renderCurves(), exportPanel(id, fmt) -> Promise, renders, resizes }
export function createRenderLoop({ session: s, panels, lossChart, renderer, isPlaying, updatePlayerUI, describeFigures }) {
  const scheduleRender = createFrameQueue(() => renderAll());

  // steps: returns the plot's drawing steps to run (renderer.plane), else draws it whole
  function renderPlane(ctx = s.viewContext(), { steps = false } = {}) {
    if (!s.cfg || !s.projection) return [];
    return renderer.plane(ctx, `${s.state.scenario}|${s.gen}`, { steps });
  }

  let renders = 0;
  let staggered = false;
  // The first drawing of a run is spread over several tasks (one per panel), so that no main-thread
  // task is long; later frames redraw incrementally.
  // Only the panels in view (or within the observer's margin) are drawn: the others are drawn, and
  // their plots made, when they come near (the observer below schedules a frame).
  function renderStaggered(done) {
    const ctx = s.viewContext();
    const jobs = renderer.firstDrawJobs(ctx, () => renderPlane(ctx, { steps: true }), (id) => visible.has(id));
    const my = s.gen;
    staggered = true;
    const next = () => {
      // a newer run took over: still resolve, or the superseded restart would wait forever (and the
      // page would stay "busy")
      if (my !== s.gen) { staggered = false; done?.(); return; }
      const job = jobs.shift();
      if (!job) { staggered = false; updatePlayerUI(); done?.(); return; }
      const wait = job();  // (a promise: the job's code is loading, panels.js)
      if (wait) wait.then(() => setTimeout(next, 0), () => setTimeout(next, 0)); else setTimeout(next, 0);
    };
    next();
  }

  function renderAll(force = false) {
    if (!s.cfg) { updatePlayerUI(); return; }
    if (staggered && !force) return;
    renders++;
    const ctx = s.viewContext();
    renderer.frame(ctx, { force, playing: isPlaying(), show: (id) => force || visible.has(id), plane: () => renderPlane(ctx) });
    updatePlayerUI();
    describeFigures(force);
  }

  // The curve charts' code came in (panels.js): the curve panels in view drawn, each in a task of its
  // own (not with the module's evaluation, nor in a full frame: the other panels are drawn already,
  // and the playing frames keep drawing them). A run's first drawing draws them itself.
  function renderCurves() {
    if (!s.cfg || staggered) return;
    const ids = ['corr', 'norms'].filter((id) => visible.has(id));
    const my = s.gen;
    const step = () => {
      if (my !== s.gen || staggered) return;
      const id = ids.shift();
      if (visible.has(id)) { renderer.curve(s.viewContext(), id); describeFigures(false); }
      if (ids.length) setTimeout(step, 0);
    };
    if (ids.length) setTimeout(step, 0);
  }

  // A panel's picture: everything drawn as of now first.
  async function exportPanel(id, fmt) {
    await panels.load(id);
    renderAll(true);
    return panelImage(id, fmt, panels, lossChart);
  }

  // Visibility: panels off screen are not redrawn while playing.
  const visible = new Set(PANELS.map((p) => p.id));
  const io = new IntersectionObserver((entries) => {
    for (const e of entries) {
      const id = e.target.id.replace(/^panel-/, '');
      if (e.isIntersecting) { visible.add(id); panels.load(id); } else visible.delete(id);  // (a curve chart's code: panels.js)
    }
    scheduleRender();
  }, { rootMargin: '200px' });
  document.querySelectorAll('.panel').forEach((p) => io.observe(p));

  // Resize: only panels whose width changed are redrawn, each in a task of its own.
  let resizes = 0;
  const widths = new Map();
  const resizeQueue = new Set();
  let resizeTimer = null;
  const ro = new ResizeObserver((entries) => {
    for (const e of entries) {
      const id = e.target.id.replace(/^body-/, '');
      const w = Math.round(e.contentRect.width);
      if (widths.get(id) === w) continue;
      const first = !widths.has(id);
      widths.set(id, w);
      if (!first) resizeQueue.add(id);
    }
    if (!resizeQueue.size || resizeTimer) return;
    resizes++;
    const step = () => {
      const [id] = resizeQueue;
      if (id === undefined) { resizeTimer = null; return; }
      resizeQueue.delete(id);
      const w = widths.get(id);
      if (panels.made(id)) panels[id].resize?.(w);
      if (id === 'norms') lossChart.resize(w);
      resizeTimer = setTimeout(step, 0);
    };
    resizeTimer = setTimeout(step, 0);
  });
  document.querySelectorAll('.panel .body').forEach((b) => ro.observe(b));

  return {
    scheduleRender, renderAll, renderPlane, renderStaggered, renderCurves, exportPanel,
    get renders() { return renders; },
    get resizes() { return resizes; },
  };
}
