// When the lab draws (render.js draws a frame): redraws coalesced to one an animation frame, a run's
// first drawing spread over tasks (the panels on screen first), panels off screen skipped while
// playing, and a resized panel redrawn in a task of its own.
import { PANELS } from './layout.js';
import { panelImage } from './lab-export.js';
import { createFrameQueue } from './frame-queue.js';
import { viewDrawn } from './ready.js';

// (in a run's first drawing: the panels on screen are drawn)
const MARK = Symbol('panels on screen drawn');
// f in a task of its own, right after the tasks queued before it: a posted task where the browser has
// them (setTimeout(0) chained from timer to timer is held >= 4 ms after five, an idle gap before
// each later job of a first drawing)
const nextTask = globalThis.scheduler?.postTask ? (f) => void globalThis.scheduler.postTask(f) : (f) => setTimeout(f, 0);
// f in a task of its own ahead of the browser's rendering updates (a posted task of priority
// 'user-blocking'): the jobs that draw the panels on screen run back to back. Between normal tasks
// the browser rendered the half-drawn page after each job (style, layout, paint and a commit that
// copies every changed canvas: 10-30 ms each, ~100 ms of a 1280 x 800 lab's first frame), which
// the reader never needed to see (the token plane stays hidden until its last step). Each job is
// still a task of its own (no long task), and the browser still renders if they take long (it does
// not hold a frame back for more than ~100 ms).
const urgentTask = globalThis.scheduler?.postTask ? (f) => void globalThis.scheduler.postTask(f, { priority: 'user-blocking' }) : nextTask;
// f once the browser has painted what is drawn (the panels on screen before the others are drawn), or
// after 50 ms in a tab that does not paint (hidden)
function afterPaint(f) {
  let go = () => { go = () => {}; nextTask(f); };
  requestAnimationFrame(() => go());
  setTimeout(() => go(), 50);
}

// createRenderLoop({ session, panels, lossChart, renderer, isPlaying(), updatePlayerUI(),
//   describeFigures(now) }) -> { scheduleRender(), renderAll(force), renderPlane(ctx?),
//   renderStaggered(done), renderCurves(), exportPanel(id, fmt) -> Promise, renders, resizes, curvesPending }
export function createRenderLoop({ session: s, panels, lossChart, renderer, isPlaying, updatePlayerUI, describeFigures }) {
  // A queued frame (the observers, the references, the player) waits while a restart's drawing is
  // still to come: its first drawing draws every panel itself, in short tasks (a frame queued in
  // between drew the whole cold token plane and the heatmaps in one task of ~100 ms, the new
  // configuration with no trace yet), or a failed restart draws what it has (renderAll below).
  let drawnRun = null;  // (the run whose drawing has begun: session.run)
  const scheduleRender = createFrameQueue(() => {
    if (s.cfg && drawnRun !== s.run) updatePlayerUI(); else renderAll();
  });

  // steps: returns the plot's drawing steps to run (renderer.plane), else draws it whole
  function renderPlane(ctx = s.viewContext(), { steps = false } = {}) {
    if (!s.cfg || !s.projection) return [];
    return renderer.plane(ctx, `${s.state.scenario}|${s.run.serial}`, { steps });
  }

  let renders = 0;
  let staggered = false;
  // The first drawing of a run is spread over several tasks (one per panel, the token plane's four),
  // so that no main-thread task is long; later frames redraw incrementally.
  // The panels on screen are drawn first, then the first frame is marked (ready.js: what the reader
  // sees is drawn), then the panels within the observer's margin (just below the fold, drawn in the
  // tasks that follow, before a reader scrolls to them). done() once all are drawn (the lab's
  // ready flag waits for it). The panels farther away are drawn, and their plots made, when they
  // come near (the observer below schedules a frame). The readout is text: always written.
  function renderStaggered(done) {
    if (spoken.size < 2) placePanels();
    const ctx = s.viewContext();
    const byPanel = renderer.firstDrawJobs(ctx, () => renderPlane(ctx, { steps: true }));
    const ids = Object.keys(byPanel).filter((id) => id === 'readout' || visible.has(id));
    const first = ids.filter((id) => onScreen.has(id)), then = ids.filter((id) => !onScreen.has(id));
    const jobs = [presizer(ids), ...first.flatMap((id) => byPanel[id]), MARK, ...then.flatMap((id) => byPanel[id])];
    const run = s.run.signal;
    staggered = true;
    drawnRun = s.run;
    let later = urgentTask;  // (the panels on screen: urgent; after the mark, in turn with rendering)
    const next = () => {
      // a newer run took over: still resolve, or the superseded restart would wait forever (and the
      // page would stay "busy")
      if (run.aborted) { staggered = false; done?.(); return; }
      const job = jobs.shift();
      if (job === MARK) { later = nextTask; viewDrawn(); afterPaint(next); return; }
      if (!job) { staggered = false; updatePlayerUI(); done?.(); return; }
      const wait = job();  // (a promise: the job's code is loading, panels.js; an array: more jobs)
      if (Array.isArray(wait)) jobs.unshift(...wait);
      const go = later;
      if (wait?.then) wait.then(() => go(next), () => go(next)); else go(next);
    };
    next();
  }

  // The widths of the panels to draw whose plots are not made yet (panels.js makes each plot with
  // its width), read at once before the first drawing writes (the curves': once their code is in).
  const PRESIZED = new Set(['plane', 'softmax', 'current', 'spectrum', 'weights']);
  const presizer = (ids) => () => panels.presize(new Map(ids.filter((id) => PRESIZED.has(id) && !panels.made(id))
    .map((id) => [id, document.getElementById(`body-${id}`).clientWidth])));

  function renderAll(force = false) {
    if (!s.cfg) { updatePlayerUI(); return; }
    if (staggered && !force) return;
    renders++;
    drawnRun = s.run;
    const ctx = s.viewContext();
    renderer.frame(ctx, { force, playing: isPlaying(), show: (id) => force || visible.has(id), plane: () => renderPlane(ctx) });
    updatePlayerUI();
    describeFigures(force);
  }

  // The curve charts' code came in (panels.js): the curve panels in view drawn, each in a task of its
  // own (not with the module's evaluation, nor in a full frame: the other panels are drawn already,
  // and the playing frames keep drawing them). A run's first drawing draws them itself.
  // curvesPending: those tasks are still to run (the test hook's drawing: a run that ended before the
  // code came in has its curves drawn only then).
  let curvesPending = false;
  function renderCurves() {
    if (!s.cfg || staggered) return;
    const ids = ['corr', 'norms'].filter((id) => visible.has(id));
    const run = s.run.signal;
    const step = () => {
      if (run.aborted || staggered) { curvesPending = false; return; }
      const id = ids.shift();
      if (visible.has(id)) { renderer.curve(s.viewContext(), id); describeFigures(false); }
      if (ids.length) setTimeout(step, 0); else curvesPending = false;
    };
    if (ids.length) { curvesPending = true; setTimeout(step, 0); }
  }

  // A panel's picture: everything drawn as of now first.
  async function exportPanel(id, fmt) {
    await panels.load(id);
    renderAll(true);
    return panelImage(id, fmt, panels, lossChart);
  }

  // Visibility: panels off screen are not redrawn while playing; those within 200 px of the
  // viewport count as visible (visible), those in it as on screen (onScreen: a run's first drawing
  // draws them first). Until an observer has spoken, every panel counts as both; but a run's first
  // drawing reads where they are itself (placePanels): the observers' first report comes in a task
  // after the browser's next rendering update, which at the lab's start can come after the engine's
  // answer (with every panel on screen, the first frame waited for all eight).
  const visible = new Set(PANELS.map((p) => p.id));
  const onScreen = new Set(visible);
  const spoken = new Set();  // the observers that have reported ('near', 'screen')
  const panelId = (e) => e.target.id.replace(/^panel-/, '');
  const NEAR_PX = 200;
  function placePanels() {
    const h = window.innerHeight, w = window.innerWidth;
    for (const p of document.querySelectorAll('.panel')) {
      const r = p.getBoundingClientRect();
      // (a panel not rendered, e.g. under the real-images view, is nowhere: as the observers say)
      const within = (m) => p.getClientRects().length > 0 && r.bottom >= -m && r.top <= h + m && r.right >= -m && r.left <= w + m;
      const id = p.id.replace(/^panel-/, '');
      if (within(NEAR_PX)) visible.add(id); else visible.delete(id);
      if (within(0)) onScreen.add(id); else onScreen.delete(id);
    }
  }
  const io = new IntersectionObserver((entries) => {
    spoken.add('near');
    for (const e of entries) {
      const id = panelId(e);
      if (e.isIntersecting) { visible.add(id); panels.load(id); } else visible.delete(id);  // (a curve chart's code: panels.js)
    }
    scheduleRender();
  }, { rootMargin: `${NEAR_PX}px` });
  const screenIo = new IntersectionObserver((entries) => {
    spoken.add('screen');
    for (const e of entries) if (e.isIntersecting) onScreen.add(panelId(e)); else onScreen.delete(panelId(e));
  });
  document.querySelectorAll('.panel').forEach((p) => { io.observe(p); screenIo.observe(p); });

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
    get curvesPending() { return curvesPending; },
    get renders() { return renders; },
    get resizes() { return resizes; },
  };
}
