// The lab's optimizers: the core's optimizer registry (core/src/train/optimizers.cpp, through
// engine.vocabulary().optimizers) as the page needs it before the engine arrives (the controls are
// painted first): the wire name, whether the step goes through the mirror map of p (the p control
// shows), and the select's text (null: not offered there; a scenario or the link sets it).
// tests/wasm/vocabulary.test.mjs checks the names, their order and `mirror` against the registry.
export const OPTIMIZERS = [
  { name: 'gd', mirror: false, label: 'GD' },
  { name: 'ngd', mirror: false, label: 'normalized GD' },
  { name: 'md', mirror: true, label: 'l_p mirror descent' },
  { name: 'nmd', mirror: true, label: 'normalized l_p MD (dual norm)' },
  { name: 'nmd-fro', mirror: true, label: 'normalized l_p MD (Frobenius)' },
  { name: 'adam', mirror: false, label: null },  // the real-images baseline
];
export const OPTIMIZER_NAMES = OPTIMIZERS.map((o) => o.name);
export const MIRROR_OPTIMIZERS = OPTIMIZERS.filter((o) => o.mirror).map((o) => o.name);
