// wasm vs the native CLI (`attnsvm`, issue 4's contract): the same dataset files give the same
// numbers (relative difference <= 1e-9) for generate, solve (every norm), analyze and train.
// Uses build/native-release/cli/attnsvm, else build/native-debug/cli/attnsvm (the one `npm test`
// builds), or ATTNSVM_CLI; skipped when none exists. Full training traces and the prompt, head,
// relaxed, seq2seq and causal problems are compared in agreement.test.mjs (native driver).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { builtCli, loadEngine, assertClose, linearW, worst } from './helpers.mjs';

const TOL = 1e-9;
const cli = builtCli();
const skip = cli ? false : 'no native CLI built (build/native-release or build/native-debug)';
const dir = mkdtempSync(join(tmpdir(), 'attnsvm-cli-'));

// Runs the CLI; exit code 2 (infeasible) still prints the JSON result.
function run(args, file) {
  try {
    return JSON.parse(execFileSync(cli, file ? [...args, file] : args, { maxBuffer: 1 << 28 }).toString());
  } catch (e) {
    if (e.status === 2) return JSON.parse(e.stdout.toString());
    throw new Error(`${args.join(' ')}: ${e.stderr}`, { cause: e });
  }
}
function fileOf(name, dataset) {
  const p = join(dir, `${name}.json`);
  writeFileSync(p, JSON.stringify(dataset));
  return p;
}

let engine;
after(() => console.log(`# largest relative difference at the 1e-9 bar: ${worst.diff.toExponential(2)} (${worst.what})`));
before(async () => { engine = await loadEngine(); });

test('generate sphere: same data', { skip }, () => {
  for (const [n, T, d, seed] of [[6, 8, 10, 1], [15, 15, 20, 2]]) {
    const c = run(['generate', 'sphere', '--n', `${n}`, '--T', `${T}`, '--d', `${d}`, '--seed', `${seed}`]);
    const w = engine.sphere(n, T, d, seed);
    assertClose(w.X, c.X, 'X', 1e-14);
    assertClose(w.Z, c.Z, 'Z', 1e-14);
    assert.deepEqual(w.Y, c.Y);
    assert.deepEqual(w.alpha, c.alpha);
  }
});

test('solve: every norm agrees with the CLI', { skip }, () => {
  const a = engine.sphere(6, 8, 10, 31);
  const b = engine.sphere(15, 15, 20, 32);
  const fa = fileOf('a', a), fb = fileOf('b', b);
  const cases = [
    ['fro (6,8,10)', fa, a, ['--norm', 'fro'], { norm: 'fro' }],
    ['fro (15,15,20)', fb, b, ['--norm', 'fro'], { norm: 'fro' }],
    ['nuclear', fa, a, ['--norm', 'nuclear'], { norm: 'nuclear' }],
    ['lp 1.5', fa, a, ['--norm', 'lp', '--p', '1.5'], { norm: 'lp', p: 1.5 }],
    ['lp 3', fa, a, ['--norm', 'lp', '--p', '3'], { norm: 'lp', p: 3 }],
  ];
  for (const [name, file, dataset, args, req] of cases) {
    const c = run(['solve', ...args], file);
    const w = engine.solve({ dataset, ...req });
    assert.equal(w.status, c.status, name);
    assert.deepEqual(w.support, c.support, `${name}: support`);
    // The nuclear and l_p solvers are interior-point methods that stop at a certified gap <= ~1e-9.
    // Against a CLI built with other flags (npm test uses the ASan -O1 build) their iterates can
    // take one step more or less, and W, lambda are then pinned only to ~1e-8 (the objective to
    // 1e-9). With the same arithmetic (agreement.test.mjs, -O3 driver) they agree to ~1e-11.
    const iterative = req.norm !== 'fro';
    assertClose(w.W, c.W, `${name}: W`, iterative ? 1e-7 : TOL);
    assertClose(w.lambda, c.lambda, `${name}: lambda`, iterative ? 1e-7 : TOL);
    assertClose(w.objective, c.objective, `${name}: objective`, TOL);
    assertClose(w.lowerBound, c.lowerBound, `${name}: lower bound`, TOL);
    assertClose(w.maxViolation, c.maxViolation, `${name}: max violation`, TOL, 1);
    // One spelling: every field of the API's solution is in the CLI's, under the same name (the
    // core's field list, attnsvm/vocab/fields.hpp); the CLI adds only norm, p and selection.
    assert.deepEqual(Object.keys(w).sort(), Object.keys(c).filter((k) => !['norm', 'p', 'selection'].includes(k)).sort(), `${name}: field names`);
    assert.deepEqual(w.supportQuery, c.supportQuery, `${name}: supportQuery`);
    assert.deepEqual(w.supportIndex, c.supportIndex, `${name}: supportIndex`);
    assert.equal(w.constraints, c.constraints, `${name}: constraints`);
    assert.equal(w.message, c.message, `${name}: message`);
  }
});

test('analyze agrees with the CLI', { skip }, () => {
  const a = engine.sphere(5, 4, 6, 41);
  const c = run(['analyze'], fileOf('an', a));
  const w = engine.analyze({ dataset: a });
  // Same field names and values (the core's field list of SelectionReport); the CLI adds alphaGiven
  // and attention.
  assert.deepEqual(Object.keys(w).sort(), Object.keys(c).filter((k) => !['alphaGiven', 'attention'].includes(k)).sort());
  for (const k of ['selection', 'optimal', 'ties', 'feasible', 'verdict', 'supportTokens', 'violators', 'explanation'])
    assert.deepEqual(w[k], c[k], `analyze: ${k}`);
  assert.deepEqual(Object.keys(w.svm).sort(), Object.keys(c.svm).sort(), 'analyze: svm field names');
  assert.equal(w.svm.status, c.svm.status);
  assert.deepEqual(w.svm.support, c.svm.support);
  assertClose(w.svm.objective, c.svm.objective, 'analyze: svm objective', TOL);
  assertClose(w.svm.W, c.svm.W, 'analyze: svm W', TOL);
});

test('train: final state agrees with the CLI (W ngd, W md, KQ ngd)', { skip }, () => {
  const a = engine.sphere(6, 8, 10, 51);
  const file = fileOf('tr', a);
  const cases = [
    ['W ngd', ['--param', 'w', '--optimizer', 'ngd', '--lr', '0.1', '--iters', '500', '--init', 'zero'],
      { model: linearW, train: { optimizer: 'ngd', lr: 0.1 }, init: { kind: 'zero' } }, 500],
    ['W md p=3', ['--param', 'w', '--optimizer', 'md', '--p', '3', '--lr', '0.1', '--iters', '300', '--init', 'zero'],
      { model: linearW, train: { optimizer: 'md', lr: 0.1, p: 3 }, init: { kind: 'zero' } }, 300],
    ['KQ ngd', ['--param', 'kq', '--optimizer', 'ngd', '--lr', '0.1', '--iters', '400', '--init', 'random', '--seed', '3', '--scale', '0.1'],
      { model: { ...linearW, param: 'KQ' }, train: { optimizer: 'ngd', lr: 0.1 }, init: { kind: 'random', seed: 3, scale: 0.1 } }, 400],
  ];
  for (const [name, args, cfg, iters] of cases) {
    const c = run(['train', ...args], file);
    const r = engine.train({ dataset: a, ...cfg });
    const chunk = r.step(iters);
    const last = chunk.frames - 1;
    const sel = Array.from(chunk.selected.subarray(last * chunk.units));
    const prob = chunk.selectedProbability.subarray(last * chunk.units);
    assert.deepEqual(sel, c.selection, `${name}: selection`);
    assertClose(prob, c.softmaxSelected, `${name}: softmaxSelected`, TOL);
    assertClose(chunk.loss[last], c.loss, `${name}: loss`, TOL);
    assertClose(r.weights(), c.W, `${name}: W`, TOL);
    r.dispose();
  }
});

// The CLI's `scenario NAME` is a file its other commands read back (the dataset's fields at the top,
// then scenario, title, iterations, model, train, init); the JS API returns the same content as
// {name, title, dataset, model, train, init: {kind: 'given', given}, iterations}. Same names, same
// spellings of enum values, same numbers, for every scenario.
test('scenario: every scenario has the same fields and values as the CLI', { skip }, () => {
  const names = engine.scenarioNames();
  assert.deepEqual(names, run(['scenario', '--list']), 'scenario names');
  const same = (w, c, what) => {
    if (Array.isArray(w) || ArrayBuffer.isView(w)) {
      assert.ok(Array.isArray(c), `${what}: the CLI has ${JSON.stringify(c)}`);
      assert.equal(w.length, c.length, `${what}: length`);
      if (w.length && typeof (Array.isArray(w[0]) ? w[0][0] : w[0]) === 'number') return assertClose(w, c, what, 1e-15);
      w.forEach((x, i) => same(x, c[i], `${what}[${i}]`));
    } else if (w && typeof w === 'object') {
      assert.deepEqual(Object.keys(w).sort(), Object.keys(c).sort(), `${what}: field names`);
      for (const k of Object.keys(w)) same(w[k], c[k], `${what}.${k}`);
    } else assert.equal(w, c, what);
  };
  for (const name of names) {
    const w = engine.scenario(name);
    const c = run(['scenario', name]);
    const { scenario, title, iterations, model, train, init, ...dataset } = c;
    // The relu head's V is also at the top of the CLI's file, where `attnsvm train FILE` reads it.
    if (dataset.V) { same(model.V, dataset.V, `${name}: V at the top of the file is model.V`); delete dataset.V; }
    // So is a self-attention scenario's attention kind (seq2seq, causal), where `attnsvm train FILE` reads it.
    if (dataset.attention) { assert.equal(dataset.attention, model.attention, `${name}: attention at the top of the file is model.attention`); delete dataset.attention; }
    assert.equal(w.name, scenario, name);
    assert.equal(w.title, title, `${name}: title`);
    assert.equal(w.iterations, iterations, `${name}: iterations`);
    same(w.dataset, dataset, `${name}: dataset`);
    same(w.model, model, `${name}: model`);
    same(w.train, train, `${name}: train`);
    assert.equal(w.init.kind, 'given', `${name}: init kind`);
    same(w.init.given, init, `${name}: init`);
  }
});
