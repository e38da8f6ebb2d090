// The token plane's view (web/src/lab/views.js planeView) keeps what did not change between playing
// frames (its geometry, arrows, margin lines, support, the paths' scale factors): in node, a trace fed
// frame by frame must give, at every frame, the same view as a trace holding the same frames built at
// once (nothing kept), also when the references are solved again, the snapshots are thinned and a
// token is dragged (a dataset changed in place).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { planeView, computeProjection } from '../../web/src/lab/views.js';
import { TraceStore } from '../../web/src/lab/trace.js';

const cfg = {
  dataset: { X: [[[1, 0], [0, 1], [-1, 0.5]], [[0.5, 0.5], [1, -1], [0, 0]]], Y: [1, -1], Z: [[1, 0.2], [0.3, 1]] },
  model: { attention: 'cross', param: 'W', head: 'linear' },
  train: { traceP: 2 },
  iterations: 5000,
};
const projection = computeProjection(cfg);

// frame f: W(f) turning and growing (so the paths' largest norms keep changing), with a spike at an
// odd snapshot (the thinning drops it: the largest norms are then smaller)
function frame(f) {
  const a = 0.01 * f, r = 1 + 0.05 * f + (f === 1001 ? 1000 : 0);
  const W = [[r * Math.cos(a), -r * Math.sin(a)], [r * Math.sin(a), 0.5 * r * Math.cos(a)]];
  return {
    units: 2, T: 3, frames: 1, iteration: Int32Array.of(f), loss: Float64Array.of(1 / (1 + f)),
    normFro: Float64Array.of(r), normNuc: Float64Array.of(r), normLp: Float64Array.of(r),
    selected: Int32Array.of(0, 1), selectedProbability: Float64Array.of(0.6, 0.7),
    softmax: Float64Array.of(0.6, 0.3, 0.1, 0.2, 0.7, 0.1), weights: W,
  };
}
const sol = (W) => ({ status: 'optimal', W, support: [[0, 1], [1, 2]], objective: 1 });

test('a playing frame\'s plane view equals one computed afresh', () => {
  const live = new TraceStore();
  const frames = [];
  let refs = { fro: sol([[1, 0], [0, 1]]) }, refSelection = [0, 1];
  const ctx = (trace, dataset = cfg.dataset) => ({ cfg, trace, refs, refSelection, report: null, scores: { optimal: [0, 1] },
    projection, dataset, refList: ['fro'] });
  const fresh = (dataset) => {
    const t = new TraceStore();
    for (const f of frames) t.ingest(f);
    return planeView(ctx(t, dataset));
  };
  let dragged = null;
  for (let f = 0; f < 2100; f++) {
    frames.push(frame(f));
    live.ingest(frames.at(-1));
    // the references solved again (new objects) at 300; a drag from 600 to 620 (one dataset
    // changed in place at each move, as lab/drag.js does), then the data back
    if (f === 300) { refs = { fro: sol([[0.8, 0.1], [0, 1.2]]), nuclear: sol([[1, 0], [0, 0.2]]) }; refSelection = [1, 1]; }
    if (f === 600) dragged = structuredClone(cfg.dataset);
    if (dragged && f <= 620) dragged.X[0][1] = [0.05 * (f - 600), 1];
    const ds = dragged && f <= 620 ? dragged : cfg.dataset;
    // every frame near the events, else every 37th (a fresh view recounts the whole trace)
    if (f % 37 && !(f >= 298 && f <= 302) && !(f >= 600 && f <= 622) && !(f >= 1995 && f <= 2010)) { planeView(ctx(live, ds)); continue; }
    assert.deepEqual(planeView(ctx(live, ds)), fresh(ds), `frame ${f}`);
  }
  // the snapshots were thinned (trace.js keeps at most 2000): the kept view followed
  assert.ok(live.snapshots.length < 2000);
  assert.equal(planeView(ctx(live)).data.paths[0].points.length <= 401, true);
});

// Self attention: a sequence's path is W(k) x_iq, its query token's; dragging that token (the
// dataset changed in place, as lab/drag.js does) moves the path as it moves.
test('dragging a query token moves its path (self attention)', () => {
  const self = { ...cfg, model: { attention: 'self', param: 'W', head: 'linear' } };
  const live = new TraceStore();
  for (let f = 0; f < 50; f++) live.ingest(frame(f));
  const selfProjection = computeProjection(self);   // (the lab's: one object for the run)
  const ctx = (trace, dataset) => ({ cfg: self, trace, refs: {}, refSelection: null, report: null, scores: null,
    projection: selfProjection, dataset, refList: [] });
  const fresh = (dataset) => {
    const t = new TraceStore();
    for (let f = 0; f < 50; f++) t.ingest(frame(f));
    return planeView(ctx(t, dataset));
  };
  const before = planeView(ctx(live, self.dataset));
  const dragged = structuredClone(self.dataset);
  for (const step of [1, 2, 3]) {
    dragged.X[0][0] = [1 + 0.5 * step, -0.3 * step];   // sequence 0's query token (dataset.query: 0)
    const view = planeView(ctx(live, dragged));
    assert.deepEqual(view, fresh(dragged), `move ${step}`);
    assert.notDeepEqual(view.data.paths[0].points, before.data.paths[0].points);
  }
  // dropped: the scenario's data again, as before the drag
  assert.deepEqual(planeView(ctx(live, self.dataset)), before);
});
