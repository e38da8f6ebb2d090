// The numbers the hierarchy figures must show for one seed (the lab's view, the iframe embed and the
// element): the engine's own, computed under node by the wasm module the page runs (the lab's
// experiment API, aggregated as the page aggregates it). tests/wasm/experiment-seq.test.mjs holds
// that engine equal to the native CLI (`attnsvm experiment hierarchy`, 1e-9), so page = engine here
// and engine = CLI there make page = CLI, with no native CLI needed in the browser stage: the test
// pipeline builds its release CLI after the browser tests start, and these comparisons used to be
// skipped there whenever none was found. One seed costs about 0.2 s.
import assert from 'node:assert/strict';
import { loadEngine } from '../wasm/helpers.mjs';
import { aggregate } from '../../web/src/experiments/aggregate.js';

const FINALS = ['softmax1', 'corrW1Attended', 'corrW1All', 'softmax2', 'softmax2Set', 'corrW2', 'accuracy', 'holds'];
let engine = null;

// { finals: {name: value}, series: {name: mean per snapshot}, layer2: the layer-2 selection }.
export async function hierarchyReference({ seed, iters }) {
  engine ??= await loadEngine('attnsvm-experiments');
  const a = aggregate([engine.experimentSeeds('hierarchy', { seedStart: seed, seedCount: 1, iters })]);
  return {
    finals: Object.fromEntries(FINALS.map((k) => [k, a.values[k][0]])),
    series: Object.fromEntries(Object.entries(a.series).map(([k, s]) => [k, s.mean])),
    layer2: a.selections.layer2[0],
  };
}

// A figure's numbers (info().numbers of the view or the embed) against the reference, within 1e-9
// (NaN equals NaN or null); `series`: the names whose every snapshot is compared.
export function assertHierarchyNumbers(h, ref, who, series = ['softmax1', 'softmax2', 'corrW2']) {
  const close = (a, b) => (Number.isNaN(a) && (b === null || Number.isNaN(b))) || Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b));
  for (const k of FINALS) assert.ok(close(h.finals[k], ref.finals[k] ?? NaN), `${who} ${k}: figure ${h.finals[k]}, engine ${ref.finals[k]}`);
  for (const k of series) {
    assert.equal(h.series[k].length, ref.series[k].length, `${who} ${k}: snapshots`);
    for (const [i, v] of ref.series[k].entries()) assert.ok(close(h.series[k][i], v ?? NaN), `${who} ${k}[${i}]: figure ${h.series[k][i]}, engine ${v}`);
  }
  assert.deepEqual(h.selections.layer2, ref.layer2, `${who} layer 2's selection`);
}
