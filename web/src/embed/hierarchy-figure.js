// The hierarchy preset as an embedded figure (iframe embed.html#s=hierarchy and <attnsvm-figure
// scenario="hierarchy">; issue 40, SPEC 5.3 "Two layers"): one seed of `attnsvm experiment
// hierarchy` computed in a worker with the experiments build of the module (Engine.experimentSeeds,
// the numbers of the CLI and of the lab's view), then walked snapshot by snapshot by the figure's
// player (lab/hierarchy-player.js) and drawn as the lab draws it (lab/hierarchy-draw.js). Panels:
// layer1, layer2 (each layer's softmax sharpness and corr with its own certified SVM over the
// snapshots) and finals (the run's certificates and selections). Loaded on demand
// (hierarchy-lazy.js). Same api as figure.js; options as figure.js plus experimentsEngine():
// Promise<worker engine over attnsvm-experiments>, and shell (the frame, if built already).
import { createFigureShell, setPlayButton } from './shell.js';
import { HIER_PANEL_TITLES } from './params.js';
import { setText } from '../lab/dom-write.js';
import { registerFigure, announce, onPrint } from '../access/figure-access.js';
import { SCENARIO_INFO } from '../lab/scenarios.js';
import { aggregate } from '../experiments/aggregate.js';
import { hierarchyNumbers, createHierarchyCharts, snapshotText, HIER_SERIES, LAYER_NAME, fmt,
  HIER_DEFAULT_ITERS, HIER_MIN_ITERS } from '../lab/hierarchy-draw.js';
import { createSnapshotPlayer } from '../lab/hierarchy-player.js';

export function createHierarchyFigure(root, options) {
  const state = options.state;
  const seed = state.seed ?? 0, iters = state.iterations ?? HIER_DEFAULT_ITERS;
  const info = SCENARIO_INFO.hierarchy;
  // (the frame built by the door, hierarchy-lazy.js, before this code came; or here)
  const shell = options.shell ?? createFigureShell(root, {
    title: info.title, panels: options.panels, panelTitles: HIER_PANEL_TITLES, labUrl: options.labUrl, iterText: 'loading…',
    caption: options.caption === 'scenario' ? info.caption : options.caption, page: !!options.page,
  });
  const { bPlay, bReset, iterOut, bodies, showMessage, showNotice } = shell;
  // (the panels' notes and the legend line are the door's, hierarchy-lazy.js: in the frame from its first paint)
  const charts = createHierarchyCharts((id) => bodies[id === 'readout' ? 'finals' : id]?.body ?? null, { height: 200, label: false });
  let numbers = null, error = null, visible = false, userPaused = false, destroyed = false, started = false, begun = null;
  let autoplay = options.autoplay !== false, engine = null, ended = false;
  root.classList.add('af-waiting');

  const player = createSnapshotPlayer({
    onIndex: () => { render(); updatePlayer(); },
    onChange: () => {
      updatePlayer();
      // the run's end said once (a screen reader hears it; never per snapshot)
      if (numbers && player.done && !ended) { ended = true; announce(bPlay, `The run ended. ${snapshotText(numbers, player.index)}`); }
      if (!player.done) ended = false;
      options.onUpdate?.(api);
    },
  });
  const figures = Object.keys(bodies).filter((id) => id !== 'finals').map((id) => registerFigure(bodies[id].body, {
    title: HIER_PANEL_TITLES[id],
    describe: () => (!numbers ? 'Loading.' : `${LAYER_NAME[id]} at k = ${numbers.iteration[player.index]} of ${numbers.iters}: ` +
      HIER_SERIES[id].map((s) => `${s.label} ${fmt(numbers.series[s.key][player.index], 4)}`).join(', ') + '.'),
    snapshot: () => (numbers ? charts.svg(id) : null),
  }));

  function updatePlayer() {
    setPlayButton(bPlay, player.playing ? 'pause' : (player.done ? 'done' : 'play'));
    bPlay.disabled = !numbers || (player.done && !player.playing);
    bReset.disabled = !numbers;
    setText(iterOut, numbers ? `k = ${numbers.iteration[player.index]} / ${numbers.iters}` : (error ? '' : 'loading…'));
  }
  // drawn only when on screen (or printed); a figure drawn offscreen is drawn again when it shows
  let stale = false;
  function render(force = false) {
    if (!numbers) return;
    if (!visible && !force) { stale = true; return; }
    stale = false;
    charts.draw(numbers, player.index);
    for (const f of figures) f.update(!player.playing);
  }
  const unprint = onPrint({ before: () => render(true), after: () => render(true) });

  async function load() {
    if (iters < HIER_MIN_ITERS) throw new Error(`iterations must be at least ${HIER_MIN_ITERS} (a snapshot every iters / 40 steps); got ${iters}`);
    engine ??= await options.experimentsEngine();
    if (destroyed) return;
    const r = await engine.experimentSeeds('hierarchy', { seedStart: seed, seedCount: 1, iters });
    if (destroyed) return;
    numbers = hierarchyNumbers(aggregate([r]));
    player.load(numbers.iteration.length, 0);
    render(true);
    root.classList.remove('af-waiting');
    if (visible && autoplay && !userPaused) play();
    options.onUpdate?.(api);
  }
  function play() {
    if (!numbers || destroyed) return;
    if (player.play()) started = true;
  }
  function pause() { player.stop(); }

  bPlay.onclick = () => {
    if (player.playing) { userPaused = true; pause(); if (numbers) announce(bPlay, `Paused. ${snapshotText(numbers, player.index)}`); } else { userPaused = false; play(); }
  };
  bReset.onclick = () => { player.reset(); render(true); if (visible) play(); };
  const ro = new ResizeObserver(() => { charts.resize(); render(); });
  for (const { body } of Object.values(bodies)) ro.observe(body);
  updatePlayer();
  if (options.notice) showNotice(options.notice);

  const api = {
    root,
    start: () => (begun ??= load().catch((e) => {
      error = `This figure could not start: ${e.message}`;
      showMessage(error); updatePlayer(); options.onUpdate?.(api);
    })),
    play: () => { userPaused = false; play(); },
    pause: () => { userPaused = true; pause(); },
    reset: () => { player.reset(); render(true); },
    setVisible(v) {
      visible = v;
      if (v) { if (stale) render(true); if (numbers && autoplay && !userPaused && !player.done) play(); } else player.stop();
    },
    setAutoplay(v) { autoplay = v; },
    destroy() {
      destroyed = true; player.stop(); unprint(); ro.disconnect();
      figures.forEach((f) => f.destroy());
      engine?.terminate?.();
    },
    info: () => ({
      ready: !!numbers, playing: player.playing, done: player.done, started, error, visible, busy: !numbers && !error,
      iteration: numbers ? numbers.iteration[player.index] : 0, maxIterations: iters, correlations: {}, selection: null, verdict: null,
      scenario: 'hierarchy', panels: [...options.panels], snapshot: player.index, snapshots: player.count, numbers,
    }),
  };
  if (!options.deferStart) api.start();
  return api;
}
