// The embeds' door to the real-images figure (figure-real.js): loaded on demand, so the iframe
// embed of any other scenario downloads none of its code (vite splits it into a chunk of its own;
// the single-script <attnsvm-figure> inlines it). Same api as figure.js from the first call on.
export function createLazyRealFigure(root, options) {
  let fig = null, visible = false, destroyed = false, autoplay = options.autoplay !== false, failed = null;
  import('./figure-real.js').then(({ createRealFigure }) => {
    if (destroyed) return;
    fig = createRealFigure(root, { ...options, autoplay });
    if (visible) fig.setVisible(true);
  }).catch((e) => {
    failed = `This figure could not start: ${e.message}`;
    root.textContent = failed;
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
      iteration: 0, maxIterations: null, correlations: {}, selection: null, verdict: null, scenario: 'real-images', panels: [...options.panels] },
  };
  return api;
}
