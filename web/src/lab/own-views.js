// The scenarios with a view of their own (scenarios.js: own): real images (real-view.js) and the
// two-layer hierarchy (hierarchy-view.js, its module loaded when first opened). restart.js shows the
// state's own view, or hides them all for the token panels.
//
// createOwnViews($, { session, setMessage(key, text), markReady() }) ->
//   { owns(id), show(generation), hide(), view (the real-images view), hierarchy (its view, once loaded) }
import { createRealView } from './real-view.js';
import { HIER_ID } from './hierarchy-layout.js';

export function createOwnViews($, deps) {
  const { session: s, markReady } = deps;
  const real = createRealView($, deps);
  let hier = null;
  const section = () => document.querySelector(`[data-own-view="${HIER_ID}"]`);

  function hideHierarchy() {
    hier?.hide();
    section().hidden = true;
    if (document.documentElement.dataset.view === HIER_ID) delete document.documentElement.dataset.view;
  }
  async function showHierarchy(my) {
    real.hide();  // (the token layout and the player shown again: hidden below in the same task)
    document.documentElement.dataset.view = HIER_ID;
    document.querySelector('.layout:not(.real-layout)').hidden = true;
    document.querySelector('.topbar .player').hidden = true;
    section().hidden = false;
    s.cfg = null;
    s.writeHash();
    try {
      const { mountHierarchy } = await import('./hierarchy-view.js');
      if (my !== s.gen) return;
      hier ??= mountHierarchy({ setState: s.setState });
      await hier.show(s.state, () => my !== s.gen);
    } catch (e) {
      $('hier-status').textContent = `The hierarchy view could not load: ${e.message}`;
    }
    markReady();
  }
  return {
    owns: (id) => id === 'real-images' || id === HIER_ID,
    async show(my) {
      if (s.state.scenario === HIER_ID) { await showHierarchy(my); return; }
      hideHierarchy();
      await real.show(my);
    },
    hide() { hideHierarchy(); real.hide(); },
    get view() { return real.view; },
    get hierarchy() { return hier; },
  };
}
