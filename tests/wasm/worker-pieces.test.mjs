// The worker's step of many iterations (web/src/engine/worker.js stepInPieces): a run of known length
// is stepped in pieces so that its reply carries the weights of each piece (the lab's curves and paths
// are drawn from these snapshots: at speed 1000 a 2000-iteration run had three points). The joined
// reply must be the same, field by field and bit for bit, as the same iterations stepped one reply a
// piece, and its snapshots the W (and head v) of those replies; a run of unknown length is not split.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine } from './helpers.mjs';
import { TraceStore } from '../../web/src/lab/trace.js';

globalThis.self ??= globalThis; // worker.js sets self.onmessage when evaluated
const { handlers, runs } = await import('../../web/src/engine/worker.js');

let engine;
before(async () => { engine = await loadEngine(); });

const configOf = (name, train = {}) => {
  const { dataset, model, train: t, init } = engine.scenario(name);
  return { dataset, model, train: { ...t, ...train }, init };
};

for (const [name, train] of [['local-convergence', {}], ['joint-pv', { trainHead: true }]]) {
  test(`${name}: a step of 1000 in a 2000-iteration run = ten-iteration replies, with their weights as snapshots`, () => {
    const config = configOf(name, train);
    const a = handlers.start(engine, { config, maxIterations: 2000 });
    const b = handlers.start(engine, { config, maxIterations: 2000 });
    try {
      handlers.step(engine, { runId: a, k: 0 });
      handlers.step(engine, { runId: b, k: 0 });
      const joined = structuredClone(handlers.step(engine, { runId: a, k: 1000 }));
      // every = max(2000 / 500, 1000 / 100) = 10 iterations a piece
      const pieces = [];
      for (let i = 0; i < 100; i++) pieces.push(structuredClone(handlers.step(engine, { runId: b, k: 10 })));
      assert.equal(joined.taken, 1000);
      assert.equal(joined.iterationNow, 1000);
      assert.equal(joined.frames, pieces.reduce((n, p) => n + p.frames, 0));
      // (every per-frame field: each typed array of a reply, the ten the trace reads among them)
      const perFrame = Object.keys(pieces[0]).filter((f) => ArrayBuffer.isView(pieces[0][f]));
      for (const f of ['iteration', 'loss', 'normFro', 'normNuc', 'normLp', 'selected', 'selectedProbability', 'corr', 'divergence', 'softmax']) assert.ok(perFrame.includes(f), f);
      for (const f of perFrame) {
        const want = pieces.flatMap((p) => Array.from(p[f] ?? []));
        assert.deepEqual(Array.from(joined[f] ?? []), want, `${f} joined`);
      }
      assert.deepEqual(joined.weights, pieces.at(-1).weights);
      assert.equal(joined.snapshots.length, 99);
      joined.snapshots.forEach((s, i) => {
        assert.equal(s.iteration, pieces[i].iterationNow);
        assert.deepEqual(s.weights, pieces[i].weights, `W at k = ${s.iteration}`);
        if (train.trainHead) assert.deepEqual(s.head, pieces[i].head, `v at k = ${s.iteration}`);
        else assert.equal(s.head, undefined);
      });
      // the page's trace keeps one snapshot a piece (and the k = 0 one)
      const trace = new TraceStore();
      trace.ingest(joined);
      assert.deepEqual(trace.corrSeries().x, Array.from({ length: 100 }, (_, i) => 10 * (i + 1)));
    } finally {
      handlers.cancel(engine, { runId: a });
      handlers.cancel(engine, { runId: b });
    }
  });
}

test('a run of unknown length, and a step within two pieces, are one reply without snapshots', () => {
  const config = configOf('paths2d');
  const open = handlers.start(engine, { config });
  const known = handlers.start(engine, { config, maxIterations: 2000 });
  try {
    assert.equal(handlers.step(engine, { runId: open, k: 1000 }).snapshots, undefined);
    assert.equal(handlers.step(engine, { runId: known, k: 8 }).snapshots, undefined);  // (every = 4)
    assert.equal(handlers.step(engine, { runId: known, k: 9 }).snapshots.length, 2);   // (4 + 4 + 1)
  } finally {
    handlers.cancel(engine, { runId: open });
    handlers.cancel(engine, { runId: known });
  }
  assert.equal(runs.size, 0);
});

test('a run that stops early (its iteration cap) ends the pieces there', () => {
  const config = configOf('paths2d');
  const id = handlers.start(engine, { config, maxIterations: 2000 });
  try {
    handlers.step(engine, { runId: id, k: 1990 });
    const last = handlers.step(engine, { runId: id, k: 1000 });  // (capped at the run's 2000)
    assert.equal(last.taken, 10);
    assert.equal(last.done, true);
  } finally {
    handlers.cancel(engine, { runId: id });
  }
});
