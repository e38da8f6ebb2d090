// The "Real images" scenario's own view (web/src/real/lab-real.js) in the lab: its module loaded
// when the view is first opened, shown in place of the token panels and hidden when left.
//
// createRealView($, { session, setMessage(key, text), markReady() }) -> { show(signal: the run's
// AbortSignal, restart.js), hide(), view }
export function createRealView($, { session: s, setMessage, markReady }) {
  let realView = null;
  async function show(signal) {
    document.documentElement.dataset.view = 'real-images';
    s.writeHash();
    try {
      // (a task of its own: a page opened on this view gets here in the task that evaluated the lab)
      await new Promise((resolve) => setTimeout(resolve, 0));
      if (signal.aborted) return;
      const { mountRealImages } = await import('../real/lab-real.js');
      if (signal.aborted) return;
      if (!realView) {
        realView = mountRealImages({ layout: document.querySelector('.layout:not(.real-layout)'), scenarioOptions: $('ctl-scenario').innerHTML, setState: s.setState });
        // A page opened on this view starts no lab engine (engine-early.js): the footer names the
        // engine this view runs, and the lab's starts when the reader reaches for another scenario.
        realView.engineVersion().then((v) => { if ($('engine-version').textContent === 'loading…') $('engine-version').textContent = v; }, () => {});
        const warm = () => s.client?.start?.();
        for (const ev of ['pointerdown', 'focus', 'keydown']) document.getElementById('real-scenario')?.addEventListener(ev, warm, { once: true });
      }
      // (its first session, which fetches and draws, in a task of its own after the mount's)
      await new Promise((resolve) => setTimeout(resolve, 0));
      if (signal.aborted) return;
      realView.show(s.state);
    } catch (e) {
      setMessage('engine-run', `The real-images view could not load: ${e.message}`);
    }
    markReady();
  }
  function hide() {
    delete document.documentElement.dataset.view;  // (set by prepaint.js for a page opened on the view)
    if (realView) { realView.hide(); return; }
    // opened on the view, left before its module came: the markup's attributes as prepaint.js set them
    document.getElementById('real-images')?.setAttribute('hidden', '');
    document.querySelector('.layout:not(.real-layout)').hidden = false;
    document.querySelector('.topbar .player').hidden = false;
  }
  return { show, hide, get view() { return realView; } };
}
