// The plots' fonts resolved ahead of their first drawing (issue 24). Chromium on Linux resolves each
// new font size or weight of a family (a "strike") with synchronous calls to the browser process
// (the typeface's match and its render style): 2-25 ms each on this machine, up to 90 ms when it is
// busy, paid inside whatever task first lays out or measures text in it. The page's own text uses
// the sizes 11-20 px; the plots add the ones below (axis ticks and token labels 10 px, the current
// softmax's row and column names 9 px, uPlot's legend labels 600 11 px), which the lab's first
// drawing met in its tasks. A canvas's measureText resolves the same strikes as laid-out text of the
// same family (one cache per renderer), so the lab asks for them while it waits for the engine.
// (tests/browser/first-drawing.test.mjs: every font the drawn panels use is the page's or listed here)
export const PLOT_FONTS = ['400 10px', '400 9px', '600 11px'];

// family: the CSS font-family the plots' text gets (the panels' computed one)
export function warmPlotFonts(family) {
  const ctx = document.createElement('canvas').getContext('2d');
  if (!ctx) return;
  for (const f of PLOT_FONTS) {
    ctx.font = `${f} ${family}`;
    ctx.measureText('0');
  }
}
