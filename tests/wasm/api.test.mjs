// The JS API over the wasm module: shapes of results, and every error path -> an Error carrying
// the core's message (compared with the native core's message for the same input where the core
// produces it; structural errors found while flattening are checked for field and index).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine, runNative, linearW } from './helpers.mjs';

let engine, ds;
before(async () => {
  engine = await loadEngine();
  ds = engine.sphere(4, 5, 6, 7); // d^2 = 36 > n(T-1) = 16 constraints: feasible
});

const clone = (x) => structuredClone(x);

// Asserts that fn throws an Error whose message matches `pattern`; returns the message.
function throwsError(fn, pattern) {
  let caught = null;
  try { fn(); } catch (e) { caught = e; }
  assert.ok(caught instanceof Error, `expected an Error, got ${caught}`);
  if (pattern) assert.match(caught.message, pattern);
  return caught.message;
}

// The same job natively must fail with the same message.
function sameAsNative(message, job) {
  const [r] = runNative([job]);
  assert.equal(r.ok, false, `native accepted ${job.cmd}`);
  assert.equal(message, r.error);
}

test('version, scenario names, scenario JSON', () => {
  assert.match(engine.version(), /^attnsvm \d+\.\d+\.\d+ \(wasm/);
  const names = engine.scenarioNames();
  assert.ok(names.includes('sphere') && names.includes('paths2d'), names.join(','));
  for (const name of names) {
    const sc = engine.scenario(name);
    assert.equal(sc.name, name);
    assert.ok(sc.title.length > 0);
    assert.ok(Array.isArray(sc.dataset.X) && Array.isArray(sc.dataset.X[0][0]));
    assert.ok(['cross', 'self', 'seq2seq', 'causal'].includes(sc.model.attention));
    assert.equal(sc.init.kind, 'given');
    assert.ok(sc.iterations > 0);
    // A scenario is runnable as is.
    const run = engine.train({ dataset: sc.dataset, model: sc.model, train: sc.train, init: sc.init });
    const chunk = run.step(3);
    assert.ok(chunk.frames >= 1 && chunk.loss.every(Number.isFinite), name);
    run.dispose();
  }
});

test('sphere dataset shape and validation', () => {
  assert.equal(ds.X.length, 4);
  assert.equal(ds.X[0].length, 5);
  assert.equal(ds.X[0][0].length, 6);
  assert.equal(ds.Z.length, 4);
  assert.equal(ds.alpha.length, 4);
  engine.validate(ds);
  engine.validate(ds, 'self');
});

test('forward, solve, analyze and a run have the documented shapes', () => {
  const f = engine.forward(ds, linearW, {});
  assert.equal(f.softmax.length, 4);
  assert.equal(f.softmax[0].length, 5);
  assert.ok(Math.abs(f.softmax[0].reduce((a, b) => a + b) - 1) < 1e-12);
  const s = engine.solve({ dataset: ds, norm: 'fro' });
  assert.equal(s.status, 'optimal');
  assert.equal(s.W.length, 6);
  assert.ok(s.support.length > 0 && s.support.every((p) => p.length === 2));
  assert.ok(s.gap <= 1e-8 && s.maxViolation <= 1e-9);
  const r = engine.analyze({ dataset: ds });
  assert.equal(r.verdict, 'globally_optimal');
  assert.deepEqual(r.selection, ds.alpha);
  const run = engine.train({ dataset: ds, model: linearW, train: { optimizer: 'ngd', lr: 0.1 }, init: { kind: 'zero' },
    references: [{ name: 'fro', W: s.W }] });
  const c = run.step(10);
  assert.ok(c.iteration instanceof Int32Array && c.loss instanceof Float64Array);
  assert.equal(c.selected.length, c.frames * c.units);
  assert.equal(c.corr.length, c.frames * c.references);
  assert.equal(c.references, 1);
  assert.equal(run.iteration, 10);
  assert.deepEqual(run.referenceNames, ['fro']);
  const w = run.weights();
  assert.equal(w.length, 6);
  assert.ok(run.params().W);
  run.reset();
  assert.equal(run.iteration, 0);
  run.dispose();
  run.dispose(); // idempotent
});

test('errors: malformed arrays are reported with field and index', () => {
  const ragged = clone(ds); ragged.X[2].pop();
  throwsError(() => engine.validate(ragged), /^X\[2\] has 4 tokens, expected T = 5/);
  const shortTok = clone(ds); shortTok.X[1][3] = [1, 2];
  throwsError(() => engine.solve({ dataset: shortTok, norm: 'fro' }), /^X\[1\]\[3\] has 2 coordinates, expected d = 6/);
  const str = clone(ds); str.X[0][0][1] = 'a';
  throwsError(() => engine.validate(str), /^X\[0\]\[0\]\[1\] is not a number/);
  const z = clone(ds); z.Z.pop();
  throwsError(() => engine.validate(z), /^Z has 3 rows, expected n = 4/);
  throwsError(() => engine.validate(null), /dataset must be an object/);
  throwsError(() => engine.validate({ X: ds.X, Z: ds.Z, v: ds.v }), /Y .* is missing/);
  throwsError(() => engine.solve({ dataset: ds, norm: 'fro', selection: [0, 1.5, 0, 0] }), /^selection\[1\] = 1.5 is not an integer/);
});

test('errors: the core\'s messages arrive unchanged (same as native)', () => {
  const nan = clone(ds); nan.X[2][1][0] = NaN;
  // NaN cannot travel through JSON to the native driver; the core's message is fixed text.
  throwsError(() => engine.validate(nan), /^X\[2\]\[1\]\[0\] \(sequence 2, token 1, coordinate 0\) is NaN$/);
  throwsError(() => engine.solve({ dataset: nan, norm: 'fro' }), /^X\[2\]\[1\]\[0\] .* is NaN$/);
  const inf = clone(ds); inf.Z[1][2] = Infinity;
  throwsError(() => engine.validate(inf), /^Z\[1\]\[2\] .* is infinite$/);

  const badAlpha = clone(ds); badAlpha.alpha[3] = 9;
  sameAsNative(throwsError(() => engine.solve({ dataset: badAlpha, norm: 'fro' }), /alpha\[3\] = 9 is out of range 0..4/),
    { cmd: 'solve', dataset: badAlpha, norm: 'fro' });
  sameAsNative(throwsError(() => engine.solve({ dataset: ds, norm: 'fro', selection: [0, 7, 0, 0] }), /7/),
    { cmd: 'solve', dataset: ds, norm: 'fro', selection: [0, 7, 0, 0] });
  for (const p of [1, 0.5, -2]) {
    sameAsNative(throwsError(() => engine.solve({ dataset: ds, norm: 'lp', p }), /p/),
      { cmd: 'solve', dataset: ds, norm: 'lp', p });
  }
  const badY = clone(ds); badY.Y.pop();
  sameAsNative(throwsError(() => engine.solve({ dataset: badY, norm: 'fro' }), /^Y has 3 labels, expected n = 4/),
    { cmd: 'solve', dataset: badY, norm: 'fro' });
  const zeroQ = clone(ds); zeroQ.Z[2] = [0, 0, 0, 0, 0, 0];
  throwsError(() => engine.validate(zeroQ), /^Z row 2 has zero norm/);
  sameAsNative(throwsError(() => engine.scenario('no-such-scenario'), /no-such-scenario/),
    { cmd: 'scenario', name: 'no-such-scenario' });
  throwsError(() => engine.sphere(0, 3, 3, 1), /^sphere dataset: n, T, d must be >= 1/);
  // Training settings the core rejects (mirror descent needs p > 1).
  const md = { dataset: ds, model: linearW, train: { optimizer: 'md', lr: 0.1, p: 1 }, init: { kind: 'zero' } };
  sameAsNative(throwsError(() => engine.train(md), /p/), { cmd: 'train', ...md, steps: [1] });
});

test('errors: names the bindings map (unknown kinds) and misuse of a Run', () => {
  // Unknown names come from the core's one table (attnsvm/vocab/names.hpp) and list the accepted ones.
  throwsError(() => engine.solve({ dataset: ds, norm: 'l7' }), /^norm = "l7" is unknown; expected one of fro, nuclear, lp$/);
  throwsError(() => engine.validate(ds, 'sideways'), /^attention = "sideways" is unknown; expected one of cross, self, seq2seq, causal$/);
  throwsError(() => engine.train({ dataset: ds, model: { ...linearW, param: 'X' }, init: { kind: 'zero' } }), /^model\.param = "X" is unknown; expected one of W, KQ, prompt$/);
  throwsError(() => engine.train({ dataset: ds, model: linearW, train: { optimizer: 'sgd' } }), /^train\.optimizer = "sgd" is unknown; expected one of gd, ngd, md, nmd, nmd-fro, adam$/);
  throwsError(() => engine.train({ dataset: ds, model: linearW, train: { headOptimizer: 'sgd' } }), /^train\.headOptimizer = "sgd" is unknown; /);
  throwsError(() => engine.train({ dataset: ds, model: linearW, init: { kind: 'lucky' } }), /^init\.kind = "lucky" is unknown; expected one of zero, random, given, cone$/);
  throwsError(() => engine.solve({ dataset: ds, norm: 'fro', problem: 'prompt' }), /needs the key matrix Wk/);
  const run = engine.train({ dataset: ds, model: linearW, init: { kind: 'zero' } });
  throwsError(() => run.step(-1), /k = -1 must be an integer >= 0/);
  throwsError(() => run.addReference('bad', [[1, 2], [3, 4]]), /./);
  run.dispose();
  for (const use of [() => run.step(1), () => run.weights(), () => run.params(), () => run.iteration,
    () => run.reset(), () => run.addReference('x', [[1]])]) {
    const e = throwsError(use, /^Run: used after dispose\(\)$/);
    assert.ok(e);
  }
});

test('errors are Error instances with a kind, and the module stays healthy after many', () => {
  const bad = clone(ds); bad.alpha[0] = -1;
  for (let i = 0; i < 2000; i++) {
    try { engine.solve({ dataset: bad, norm: 'fro' }); assert.fail('no error'); } catch (e) {
      assert.ok(e instanceof Error);
      assert.equal(e.kind, 'input');
    }
  }
  assert.equal(engine.solve({ dataset: ds, norm: 'fro' }).status, 'optimal');
});
