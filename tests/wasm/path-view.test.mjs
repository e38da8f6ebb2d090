// The lab's path view's page-side maths (web/src/path/path-model.js) against the engine in node:
// the request it builds is one the engine answers for every ball (every lab scenario the view
// computes), at the schedule's radii; the plane it draws puts each unit's last point along
// W(R_k) z_i (projected) and each arrow along the SVM's W^mm z_i, at the distances it says; a
// configuration it cannot compute (a jointly trained head, no tokens) gets a sentence, not a call.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine } from './helpers.mjs';
import { PATH_RADII, PATH_BALLS, pathRequest, svmRequest, pathPlaneData, pathUnsupported, radiusIndex,
  describeRadius, lossStopsResolving } from '../../web/src/path/path-model.js';
import { computeProjection, scoreVector } from '../../web/src/lab/views.js';

let engine;
before(async () => { engine = await loadEngine(); });

test('the schedule and its index', () => {
  assert.equal(PATH_RADII.length, 13);
  assert.equal(PATH_RADII[0], 1);
  assert.ok(Math.abs(PATH_RADII.at(-1) - 1000) < 1e-9);
  assert.equal(radiusIndex(10), 4);
  assert.equal(radiusIndex(31), 6);
  assert.equal(radiusIndex(1e4), 12);
  assert.equal(radiusIndex(0.5), 0);
  assert.equal(radiusIndex(NaN), 0);
});

test('what the view cannot compute is said, not sent', () => {
  assert.match(pathUnsupported(null), /token scenarios/);
  assert.match(pathUnsupported({ train: { trainHead: true }, model: {} }), /head v jointly/);
  assert.equal(pathUnsupported({ train: {}, model: {} }), null);
});

for (const name of ['paths2d', 'paths2d-t5', 'prompt-global-local']) {
  test(`${name}: the view's requests are answered on every ball, and its plane draws them`, () => {
    const sc = engine.scenario(name);
    const cfg = { dataset: sc.dataset, model: sc.model, train: sc.train };
    const proj = computeProjection(cfg);
    const paths = {}, svms = {};
    for (const ball of PATH_BALLS) {
      const r = engine.path(pathRequest(cfg, cfg.dataset, ball, 3));
      assert.equal(r.points.length, PATH_RADII.length, `${ball}: one point a radius`);
      r.points.forEach((p, k) => {
        assert.ok(Math.abs(p.radius - PATH_RADII[k]) <= 1e-12 * PATH_RADII[k]);
        assert.ok(p.norm <= p.radius * (1 + 1e-9), `${ball} R=${p.radius}: W(R) in the ball`);
        assert.ok(p.relativeGap >= 0 && p.relativeGap <= 2 && Number.isFinite(p.corrOwn), `${ball} R=${p.radius}: a gap and corr`);
      });
      paths[ball] = r.points;
      svms[ball] = engine.solve(svmRequest(cfg, cfg.dataset, ball, 3, r.points.at(-1).selection));
      assert.equal(svms[ball].status, 'optimal', `${ball} SVM of the path's last selection`);
    }
    const k = 5;
    const data = pathPlaneData({ cfg, dataset: cfg.dataset, proj, paths, svms, shown: 'nuclear', k });
    const P = (v) => [v.reduce((a, x, j) => a + x * proj.axes[0][j], 0), v.reduce((a, x, j) => a + x * proj.axes[1][j], 0)];
    const units = cfg.model.param === 'prompt' ? [0] : [...cfg.dataset.X.keys()];
    assert.equal(data.paths.length, units.length);
    data.paths.forEach((path, j) => {
      assert.equal(path.points.length, k + 1, 'one point a radius up to the current one');
      const q = P(scoreVector(cfg, paths.nuclear[k].W, units[j], cfg.dataset));
      const last = path.points.at(-1);
      // the same direction (a positive multiple)
      assert.ok(Math.abs(last[0] * q[1] - last[1] * q[0]) <= 1e-9 * Math.hypot(...last) * Math.hypot(...q));
      assert.ok(last[0] * q[0] + last[1] * q[1] > 0);
    });
    assert.equal(data.arrows.length, units.length * PATH_BALLS.length, 'an arrow per unit and ball');
    const text = describeRadius(paths, k, 3);
    assert.match(text, /^At R = 17\.8: Frobenius ball: 1 − corr with its own SVM [0-9.e-]+, rank \d/);
    assert.doesNotMatch(text, /NaN|undefined/);
    const stop = lossStopsResolving(paths.fro);
    assert.ok(stop === null || PATH_RADII.includes(stop));
  });
}

// The drag's previews (path-compute.js): warm-started from the path before the token moved, a preview
// certifies its radii in fewer Frank-Wolfe iterations than one from W = 0, each point in its ball; a
// warm start of the wrong size is an input error naming its size.
test('a preview warm-started from the previous position\'s path: fewer iterations, the same certificates', () => {
  const sc = engine.scenario('paths2d');
  const cfg = { dataset: sc.dataset, model: sc.model, train: sc.train };
  const moved = structuredClone(sc.dataset);
  moved.X[0][1] = moved.X[0][1].map((v, k) => v + (k === 0 ? 0.05 : -0.03));
  for (const ball of PATH_BALLS) {
    const before = engine.path(pathRequest(cfg, cfg.dataset, ball, 3, { preview: true })).points;
    const guess = Float64Array.from(before.flatMap((p) => p.W.flat()));
    const cold = engine.path(pathRequest(cfg, moved, ball, 3, { preview: true })).points;
    const warm = engine.path({ ...pathRequest(cfg, moved, ball, 3, { preview: true }), warmStart: guess }).points;
    const its = (pts) => pts.reduce((a, p) => a + p.iterations, 0);
    console.log(`${ball}: preview iterations from W = 0 ${its(cold)}, warm-started ${its(warm)}`);
    assert.ok(its(warm) < its(cold), `${ball}: ${its(warm)} >= ${its(cold)}`);
    for (const [k, p] of warm.entries()) {
      assert.ok(p.norm <= p.radius * (1 + 1e-9));
      if (cold[k].certified) assert.ok(p.certified, `${ball} R = ${p.radius}: certified from W = 0, not warm-started`);
    }
    assert.throws(() => engine.path({ ...pathRequest(cfg, moved, ball, 3), warmStart: guess.subarray(0, 8) }), /warmStart has 8 numbers, expected 13 radii x/);
  }
});
