// The batched trainer in wasm (issue 18): all seeds advanced together (BatchedTrainer) give the
// final weights of one Trainer per seed (the experiments module's trainSeeds) to 1e-12 relative,
// with the same iterations and stop reasons, for W and (K,Q) and each optimizer; bad requests give
// an error status, not a crash.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine, relDiff } from './helpers.mjs';

let M;
before(async () => { M = (await loadEngine('attnsvm-experiments')).module; });

const call = (req) => {
  const r = M.trainSeeds(req);
  assert.ok(r.ok, r.error);
  return r;
};

const CASES = [
  { param: 'W', optimizer: 'ngd', lr: 0.1 },
  { param: 'W', optimizer: 'gd', lr: 1 },
  { param: 'W', optimizer: 'md', lr: 1, p: 3 },
  { param: 'W', optimizer: 'nmd-fro', lr: 0.1, p: 3 },
  { param: 'KQ', optimizer: 'ngd', lr: 0.1 },
];
for (const c of CASES) {
  test(`batched = single runs in wasm: ${c.param}, ${c.optimizer}`, () => {
    const req = { ...c, n: 6, T: 8, d: 10, iters: 500, seedStart: 3, seedCount: 6 };
    const b = call({ ...req, batched: true }), s = call({ ...req, batched: false });
    assert.deepEqual([...b.iterations], [...s.iterations]);
    assert.deepEqual(b.stopReasons, s.stopReasons);
    const dd = 100;
    for (let k = 0; k < req.seedCount; k++) {
      const diff = relDiff(b.weights.subarray(k * dd, (k + 1) * dd), s.weights.subarray(k * dd, (k + 1) * dd));
      assert.ok(diff <= 1e-12, `run ${k}: relative difference ${diff}`);
    }
  });
}

test('trainSeeds: bad requests give an error status', () => {
  for (const bad of [{ seedCount: 0 }, { param: 'prompt' }, { optimizer: 'sgd' }, { iters: -1 }, { lr: -1 }]) {
    const r = M.trainSeeds({ n: 6, T: 8, d: 10, iters: 10, ...bad });
    assert.equal(r.ok, false, JSON.stringify(bad));
    assert.equal(typeof r.error, 'string');
  }
});
