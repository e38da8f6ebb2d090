// The api of a figure whose code comes later (the embeds' doors: real/figure-lazy.js,
// hierarchy-lazy.js): the same api as figure.js from the first call on, forwarded to the figure
// once its code is in; until then info() says "busy", and what the reader or the host asked
// (visible, autoplay) is kept and handed over.
//
// lazyFigureApi(root, options, door) -> figure api
//   options: the figure's (figure.js: panels, autoplay, deferStart, onUpdate, ...)
//   door: { scenario, load(): Promise<module>, create(module, options): figure,
//           showError(text): the failure said where the figure would be,
//           startable: the api has start() (the figure waits for it when options.deferStart) }
export function lazyFigureApi(root, options, door) {
  let fig = null, visible = false, destroyed = false, autoplay = options.autoplay !== false, failed = null;
  let startAsked = !options.deferStart;
  const loaded = door.load().then((module) => {
    if (destroyed) return;
    fig = door.create(module, { ...options, autoplay });
    if (visible) fig.setVisible(true);
    if (door.startable && startAsked) return fig.start();
  }).catch((e) => {
    failed = `This figure could not start: ${e.message}`;
    door.showError(failed);
    options.onUpdate?.(api);
  });
  const api = {
    root,
    play: () => fig?.play(),
    pause: () => fig?.pause(),
    reset: () => fig?.reset(),
    setVisible(v) { visible = v; fig?.setVisible(v); },
    setAutoplay(v) { autoplay = v; fig?.setAutoplay(v); },
    destroy() { destroyed = true; fig?.destroy(); },
    info: () => fig?.info() ?? { ready: false, playing: false, done: false, started: false, error: failed, visible, busy: true,
      iteration: 0, maxIterations: null, correlations: {}, selection: null, verdict: null, scenario: door.scenario, panels: [...options.panels] },
  };
  if (door.startable) api.start = () => { startAsked = true; return fig ? fig.start() : loaded; };
  return api;
}
