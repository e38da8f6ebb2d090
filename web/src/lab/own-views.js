// The scenarios with a view of their own (scenarios.js: own): real images (real-view.js) and the
// two-layer hierarchy (hierarchy-view.js, its module loaded when first opened). restart.js shows the
// state's own view, or hides them all for the token panels.
//
// createOwnViews($, { session, setMessage(key, text), markReady() }) ->
//   { owns(id), show(signal, { autoplay }), hide(), view (the real-images view), hierarchy (its view, once loaded) }
import { createRealView } from './real-view.js';
import { HIER_ID } from './hierarchy-layout.js';

export function createOwnViews($, deps) {
  const { session: s, markReady } = deps;
  const real = createRealView($, deps);
  let hier = null;
  const section = () => document.querySelector(`[data-own-view="${HIER_ID}"]`);

  const topPlayer = () => ({ play: $('btn-play'), step: $('btn-step'), reset: $('btn-reset'), iter: $('iter-out') });
  function hideHierarchy() {
    hier?.hide();
    hier?.unbindPlayer();
    section().hidden = true;
    if (document.documentElement.dataset.view === HIER_ID) delete document.documentElement.dataset.view;
  }
  // autoplay: the lab was playing (or starts playing): the view's player walks the snapshots
  async function showHierarchy(signal, autoplay) {
    real.hide();  // (the token layout shown again: hidden below in the same task; the top bar's
    // player stays: it walks the hierarchy's snapshots, hierarchy-view.js)
    document.documentElement.dataset.view = HIER_ID;
    document.querySelector('.layout:not(.real-layout)').hidden = true;
    section().hidden = false;
    s.writeHash();
    try {
      const { mountHierarchy } = await import('./hierarchy-view.js');
      if (signal.aborted) return;
      hier ??= mountHierarchy({ setState: s.setState });
      hier.bindPlayer(topPlayer());
      await hier.show(s.state, () => signal.aborted, { autoplay });
    } catch (e) {
      $('hier-status').textContent = `The hierarchy view could not load: ${e.message}`;
    }
    markReady();
  }
  return {
    owns: (id) => id === 'real-images' || id === HIER_ID,
    async show(signal, { autoplay = false } = {}) {
      if (s.state.scenario === HIER_ID) { await showHierarchy(signal, autoplay); return; }
      hideHierarchy();
      await real.show(signal);
    },
    hide() { hideHierarchy(); real.hide(); },
    get view() { return real.view; },
    get hierarchy() { return hier; },
  };
}
