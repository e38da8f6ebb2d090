// The iframe embed's figure in two steps: its frame now, its code at its start.
//
// createLazyFigure(root, options) -> the api of figure.js's createFigure (options as there, with
// deferStart): the frame (shell.js: header, panel bodies of reserved size, legend, caption; the
// player disabled, "loading…") is built at once from this small module; figure.js with what only a
// started figure needs (the lab's views and configuration, the plots and d3, the player) is loaded
// and evaluated by start(), which start-queue.js calls when the figure comes near the view or in
// the background after the page's load. A page of figures (the lecture notes: an iframe 1.7 screens
// down is loaded at once, inside the browser's lazy-loading distance) no longer evaluates that code
// for figures that have not started: in the notes' load it was the iframe's largest task (module
// evaluation of ~20 ms CPU). A figure in view starts at once as before (the code then comes from
// the browser's module map: vite preloads the chunk with its imports).
import { SCENARIO_INFO } from '../lab/scenarios.js';
import { PANEL_TITLES } from './params.js';
import { createFigureShell, setPlayButton } from './shell.js';
import { createLazyRealFigure } from '../real/figure-lazy.js';

export function createLazyFigure(root, options) {
  if (options.state.scenario === 'real-images') return createLazyRealFigure(root, options);
  const info = SCENARIO_INFO[options.state.scenario];
  // the frame exactly as createFigure builds it (figureContext, then updatePlayer before any run)
  const shell = createFigureShell(root, {
    title: info.title, panels: options.panels, panelTitles: PANEL_TITLES, labUrl: options.labUrl, iterText: 'loading…',
    caption: options.caption === 'scenario' ? info.caption : options.caption, legendLabel: 'Legend', page: !!options.page,
  });
  root.classList.add('af-waiting');
  setPlayButton(shell.bPlay, 'play');
  shell.bPlay.disabled = true;
  shell.bReset.disabled = true;
  if (options.notice) shell.showNotice(options.notice);

  let fig = null, loading = null, visible = false, autoplay = options.autoplay !== false, destroyed = false, failed = null;
  function start() {
    loading ??= import('./figure.js').then(({ createFigure }) => {
      if (destroyed) return;
      // (the notice is shown already: the reader may have dismissed it)
      fig = createFigure(root, { ...options, autoplay, notice: null, shell, deferStart: true });
      if (visible) fig.setVisible(true);
      return fig.start();
    }).catch((e) => {
      failed = `This figure could not start: ${e.message}`;
      shell.showMessage(failed);
      options.onUpdate?.(api);
    });
    return loading;
  }
  const api = {
    root,
    start,
    play: () => fig?.play(),
    pause: () => fig?.pause(),
    reset: () => fig?.reset(),
    setVisible(v) { visible = v; fig?.setVisible(v); },
    setAutoplay(v) { autoplay = v; fig?.setAutoplay(v); },
    destroy() { destroyed = true; fig?.destroy(); },
    info: () => fig?.info() ?? {
      ready: false, playing: false, done: false, started: false, error: failed, visible, begun: !!loading, busy: !!loading,
      iteration: 0, maxIterations: null, correlations: {}, selection: null, verdict: null,
      scenario: options.state.scenario, panels: [...options.panels],
    },
  };
  return api;
}
