// wasm experimentSeeds vs the native CLI (`attnsvm experiment NAME --out`): the same seeds give the
// same per-seed numbers and, aggregated by the lab's aggregate.js, the same mean/std bands
// (relative difference <= 1e-9). Uses build/native-release/cli/attnsvm (or native-debug, or
// ATTNSVM_CLI); the CLI comparisons are skipped when none is built.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadEngine, assertClose, repoRoot, worst } from './helpers.mjs';
import { aggregate } from '../../web/src/experiments/aggregate.js';
import { rankCell, rankMaxAttempts } from '../../web/src/experiments/rank.js';

const TOL = 1e-9;
const cli = [process.env.ATTNSVM_CLI, 'build/native-release/cli/attnsvm', 'build/native-debug/cli/attnsvm']
  .filter(Boolean).map((p) => resolve(repoRoot, p)).find((p) => existsSync(p));
const skip = cli ? false : 'no native CLI built (build/native-release or build/native-debug)';

const experiment = (args) =>
  JSON.parse(execFileSync(cli, ['experiment', ...args, '--quiet', '--threads', '2'], { maxBuffer: 1 << 28 }).toString());

let engine;
before(async () => { engine = await loadEngine('attnsvm-experiments'); });
after(() => console.log(`# largest relative difference at the 1e-9 bar: ${worst.diff.toExponential(2)} (${worst.what})`));

test('local-convergence: per-seed finals and mean/std bands agree with the CLI', { skip }, () => {
  const seeds = 4, iters = 400, base = 7;
  const c = experiment(['local-convergence', '--seeds', `${seeds}`, '--iters', `${iters}`, '--seed-base', `${base}`]);
  // Two chunks, as two workers would compute them.
  const chunks = [engine.experimentSeeds('local-convergence', { seedStart: base + 2, seedCount: 2, iters }),
    engine.experimentSeeds('local-convergence', { seedStart: base, seedCount: 2, iters })];
  const a = aggregate(chunks);
  assert.deepEqual(a.seeds, [7, 8, 9, 10]);
  assert.deepEqual(a.iteration, c.series.iteration);
  for (const p of ['W', 'KQ']) {
    for (const [field, value] of [['softmax_selected', 'softmax_selected'], ['corr_fro', 'corr_fro'],
      ['corr_nuclear', 'corr_nuclear'], ['loss', 'loss']]) {
      assertClose(a.values[`${p}_${value}`], c.runs.map((r) => r[p][field]), `${p} ${field} per seed`, TOL);
    }
    assert.deepEqual(a.selections[p], c.runs.map((r) => r[p].selection), `${p} selections`);
    assert.deepEqual(a.labels[`${p}_verdict`], c.runs.map((r) => r[p].verdict), `${p} verdicts`);
    for (const s of ['softmax', 'corr_fro', 'corr_nuclear']) {
      assertClose(a.series[`${p}_${s}`].mean, c.series[`${p}_${s}`].mean, `${p}_${s} mean`, TOL);
      // A std over seeds is a difference of values of size ~1 (probabilities, correlations): its
      // rounding error scales with the values, not with the (small) std itself, hence floor 1.
      assertClose(a.series[`${p}_${s}`].std, c.series[`${p}_${s}`].std, `${p}_${s} std`, TOL, 1);
    }
    assertClose(a.finals[`${p}_corr_fro`].mean, c.summary[p].corr_fro.mean, `${p} summary corr_fro`, TOL);
  }
});

test('rates (ngd, md_p3) and overparam agree with the CLI', { skip }, () => {
  const seeds = 3, iters = 300;
  const c = experiment(['rates', '--seeds', `${seeds}`, '--iters', `${iters}`]);
  for (const method of ['ngd', 'md_p3']) {
    const a = aggregate([engine.experimentSeeds('rates', { method, seedStart: 0, seedCount: seeds, iters })]);
    const m = c.methods.find((x) => x.method === method);
    assert.deepEqual(a.iteration, m.series.iteration);
    assertClose(a.series.one_minus_corr.mean, m.series.one_minus_corr.mean, `rates ${method} mean`, TOL);
    assertClose(a.finals.one_minus_corr.mean, m.final_one_minus_corr.mean, `rates ${method} final`, TOL);
  }
  const o = experiment(['overparam', '--seeds', `${seeds}`, '--iters', `${iters}`, '--dims', '4,10']);
  for (const [k, d] of [[0, 4], [1, 10]]) {
    const a = aggregate([engine.experimentSeeds('overparam', { d, seedStart: 0, seedCount: seeds, iters })]);
    assert.deepEqual(a.values.global, o.per_d[k].global_per_seed, `overparam d=${d} global per seed`);
    assertClose(a.finals.min_softmax.mean, o.per_d[k].min_softmax.mean, `overparam d=${d} min softmax`, TOL);
  }
});

// Rank: the lab's cells (instances of experimentSeeds('rank') in uneven chunks, kept by rank.js's
// rankCell) equal the CLI's: the same seeds, attempts and integer ranks; hence the same mean/std.
test('rank: per-cell seeds, attempts and ranks equal the CLI\'s', { skip }, () => {
  const instances = 4, base = 2, dims = [1, 2, 3, 5];
  const c = experiment(['rank', '--seeds', `${instances}`, '--dims', dims.join(','), '--seed-base', `${base}`]);
  const maxAttempts = rankMaxAttempts(instances);
  assert.equal(c.settings.max_attempts, maxAttempts);
  for (const cell of c.cells) {
    const chunks = [];
    // uneven chunks, later ones first (as a pool might finish them), up to the CLI's attempts + 3
    const upTo = Math.min(maxAttempts, cell.attempts + 3);
    for (let s = 0, k = 1; s < upTo; s += k, k = k % 3 + 1) {
      chunks.unshift(engine.experimentSeeds('rank', { n: cell.n, T: cell.T, d: cell.d, seedStart: base + s,
        seedCount: Math.min(k, upTo - s) }));
    }
    const a = rankCell(cell.n, cell.T, cell.d, chunks, instances, maxAttempts);
    const what = `n=${cell.n} T=${cell.T} d=${cell.d}`;
    assert.deepEqual(a.seeds, cell.seeds, `${what} seeds`);
    assert.equal(a.attempts, cell.attempts, `${what} attempts`);
    assert.deepEqual(a.ranks_fro, cell.ranks_fro, `${what} Frobenius ranks`);
    assert.deepEqual(a.ranks_nuclear, cell.ranks_nuclear, `${what} nuclear ranks`);
    assert.equal(a.nuclear_failures, cell.nuclear_failures, `${what} nuclear failures`);
    for (const key of ['rank_fro', 'rank_nuclear']) {
      for (const f of ['mean', 'std']) {
        const x = a[key][f], y = cell[key][f];
        assert.ok((Number.isNaN(x) && y === null) || x === y, `${what} ${key} ${f}: ${x} vs ${y}`);
      }
    }
    for (const f of ['fraction_nuclear_lower', 'fraction_nuclear_le']) {
      assert.ok((Number.isNaN(a[f]) && cell[f] === null) || a[f] === cell[f], `${what} ${f}`);
    }
  }
});

// The single-run experiments: the lab's columns (one "seed" = the CLI's --seed-base) equal the
// CLI's JSON, run by run, series by series (<= 1e-9).
test('prompt-global-local, loss-function, joint-pv: every run\'s series and finals agree with the CLI', { skip }, () => {
  const iters = 300, base = 1;
  const one = (name) => aggregate([engine.experimentSeeds(name, { seedStart: base, seedCount: 1, iters })]);
  const cli = (name) => experiment([name, '--iters', `${iters}`, '--seed-base', `${base}`]);
  const nan = (a) => a.map((x) => (x === null ? NaN : x));
  const p = one('prompt-global-local'), pc = cli('prompt-global-local');
  for (const c of pc.cases) {
    for (const r of c.runs) {
      const key = `${c.case}_${r.start}`;
      assert.deepEqual(p.iteration, r.iteration);
      assert.equal(p.values[`${key}_global`][0], r.converges_to === 'global' ? 1 : 0, `${key} converges to`);
      assertClose([p.values[`${key}_corr_own_svm`][0], p.values[`${key}_corr_global_svm`][0]],
        nan([r.corr_own_svm, r.corr_global_svm]), `${key} final corr`, TOL);
    }
  }
  const l = one('loss-function'), lc = cli('loss-function');
  for (const r of lc.runs) {
    const key = `${r.loss}_C${r.C}_corr_pmm`;
    assertClose(l.series[key].mean, nan(r.corr_series), `${key} series`, TOL);
  }
  const j = one('joint-pv'), jc = cli('joint-pv');
  for (const v of jc.variants) {
    assertClose(j.series[`v${v.variant}_corr_p_relaxed`].mean, nan(v.corr_p_relaxed_series), `joint-pv ${v.variant} p`, TOL);
    assertClose(j.series[`v${v.variant}_corr_v_head`].mean, nan(v.corr_v_series), `joint-pv ${v.variant} v`, TOL);
    assertClose([j.values[`v${v.variant}_corr_p_plain`][0], j.values[`v${v.variant}_min_logistic`][0]],
      [v.corr_p_prompt_svm, Math.min(...v.logistic_probability)], `joint-pv ${v.variant} finals`, TOL);
  }
});

test('paths2d, paths2d-t5: the paths W(k) z_i, SVM directions and tokens agree with the CLI', { skip }, () => {
  const iters = 300, base = 2;
  for (const name of ['paths2d', 'paths2d-t5']) {
    const a = aggregate([engine.experimentSeeds(name, { seedStart: base, seedCount: 1, iters })]);
    const c = experiment([name, '--iters', `${iters}`, '--seed-base', `${base}`]);
    for (const P of ['W', 'KQ']) {
      assert.deepEqual(a.iteration, c[P].iteration);
      c[P].paths_Wz.forEach((path, i) => {
        for (const k of [0, 1]) assertClose(a.series[`${P}_z${i}_${k}`].mean, path.map((q) => q[k]), `${name} ${P} path ${i}`, TOL);
        for (const ref of ['fro', 'nuclear']) {
          const want = c[P].svm_directions_Wz[i][ref];
          if (want) assertClose([0, 1].map((k) => a.values[`${P}_${ref}_z${i}_${k}`][0]), want, `${name} ${P} ${ref} ${i}`, TOL);
        }
      });
      assertClose(a.values[`${P}_corr_fro`], [c[P].corr_fro], `${name} ${P} corr_fro`, TOL);
    }
    assert.equal(a.values.x_1_0_0[0], c.data.X[1][0][0], `${name} token (1, 0)`);
  }
});

// The mirror-descent paper's experiments (issue 14): per-seed divergences and correlations against
// every l_q SVM, the bands and the 3 x 3 table; joint-wv's runs, at reduced iterations.
test('md-convergence: per-seed D_p and corr against every l_q SVM, bands and table agree with the CLI', { skip }, () => {
  const seeds = 3, iters = 300, base = 5;
  const c = experiment(['md-convergence', '--seeds', `${seeds}`, '--iters', `${iters}`, '--seed-base', `${base}`]);
  c.settings.ps.forEach((p, pi) => {
    const chunks = [engine.experimentSeeds('md-convergence', { p, seedStart: base + 1, seedCount: 2, iters }),
      engine.experimentSeeds('md-convergence', { p, seedStart: base, seedCount: 1, iters })];
    const a = aggregate(chunks);
    const row = c.per_p[pi];
    assert.deepEqual(a.iteration, row.series.iteration);
    assert.deepEqual(a.selections.W, row.runs.map((r) => r.selection), `p=${p} selections`);
    for (const q of c.settings.qs) {
      for (const m of ['div', 'corr']) {
        const key = `${m}_q${q}`;
        assertClose(a.values[key], row.runs.map((r) => r[key]), `p=${p} ${key} per seed`, TOL);
        assertClose(a.series[key].mean, row.series[key].mean, `p=${p} ${key} mean`, TOL);
        assertClose(a.series[key].std, row.series[key].std, `p=${p} ${key} std`, TOL, 1);
      }
      const qi = c.settings.qs.indexOf(q);
      assertClose([a.finals[`div_q${q}`].mean], [c.table.div_mean[pi][qi]], `table p=${p} q=${q}`, TOL);
    }
  });
});

test('joint-wv: every p\'s series, selection and probabilities agree with the CLI', { skip }, () => {
  const iters = 400;
  const a = aggregate([engine.experimentSeeds('joint-wv', { seedStart: 0, seedCount: 1, iters })]);
  const c = experiment(['joint-wv', '--iters', `${iters}`]);
  assert.deepEqual(a.iteration, c.series.iteration);
  for (const r of c.runs) {
    const P = `p${r.p}`;
    assert.deepEqual(a.selections[P][0], r.selection, `${P} selection`);
    for (const m of ['corr_W', 'div_W', 'corr_v', 'div_v', 'mean_softmax', 'mean_logistic']) {
      assertClose(a.series[`${P}_${m}`].mean, c.series[`${P}_${m}`].mean, `${P} ${m}`, TOL);
    }
    assertClose([0, 1].map((i) => a.values[`${P}_softmax_${i}`][0]), r.softmax_selected, `${P} softmax`, TOL);
    assertClose([0, 1].map((i) => a.values[`${P}_logistic_${i}`][0]), r.logistic_probability, `${P} logistic`, TOL);
  }
});

test('experimentSeeds: bad input is a clear error naming the field', () => {
  assert.throws(() => engine.experimentSeeds('nope', {}), /experiment 'nope' has no per-seed form.*local-convergence/);
  assert.throws(() => engine.experimentSeeds('local-convergence', { seedCount: 0 }), /seedCount = 0 is out of range/);
  assert.throws(() => engine.experimentSeeds('local-convergence', { seedStart: -1 }), /seedStart must be an integer/);
  assert.throws(() => engine.experimentSeeds('local-convergence', { iters: 0 }), /iters = 0 is out of range/);
  assert.throws(() => engine.experimentSeeds('rates', { method: 'adam' }), /method 'adam' is unknown/);
  assert.throws(() => engine.experimentSeeds('mirror-descent', { p: 1 }), /p must be in \(1, 1000\]/);
  assert.deepEqual(engine.experimentNames(), ['local-convergence', 'overparam', 'rates', 'mirror-descent', 'multitoken', 'rank',
    'prompt-global-local', 'loss-function', 'joint-pv', 'paths2d', 'paths2d-t5', 'md-convergence', 'joint-wv']);
  assert.throws(() => engine.experimentSeeds('md-convergence', { p: 0.5 }), /p = 0.5.* must be in \(1, 1000\]/);
  assert.throws(() => engine.experimentSeeds('rank', { T: 1 }), /T = 1 is out of range 2..1024/);
  assert.throws(() => engine.experimentSeeds('rank', { rankTol: -1 }), /rank tolerance must be > 0/);
});

test('experimentSeeds: a seed gives the same numbers alone or inside a range', () => {
  const iters = 100;
  const range = engine.experimentSeeds('local-convergence', { seedStart: 3, seedCount: 3, iters });
  const one = engine.experimentSeeds('local-convergence', { seedStart: 4, seedCount: 1, iters });
  const S = range.seriesNames.length, I = range.iteration.length, V = range.valueNames.length;
  assert.deepEqual(Array.from(one.series), Array.from(range.series.subarray(S * I, 2 * S * I)));
  assert.deepEqual(Array.from(one.values), Array.from(range.values.subarray(V, 2 * V)));
});

test('basinMap: the same limits as the CLI basin-map, row for row', { skip }, () => {
  const grid = 20;
  const c = experiment(['basin-map', '--grid', `${grid}`]);
  const top = engine.basinMap({ grid, rowStart: 0, rowCount: 12 });
  const rest = engine.basinMap({ grid, rowStart: 12, rowCount: 8 });
  const sel = [...top.selection, ...rest.selection];
  assert.deepEqual(sel, c.selection.flat());
  const limits = engine.basinLimits({});
  for (const l of c.limits) {
    const t = limits.tokens.find((x) => x.token === l.selection);
    assert.equal(t.global, l.kind === 'global', `token ${l.selection} kind`);
    assertClose(t.direction, l.svm_direction, `basin SVM direction of token ${l.selection}`, TOL);
  }
  assert.throws(() => engine.basinMap({ grid, rowStart: 19, rowCount: 2 }), /exceed the grid of 20/);
  assert.throws(() => engine.basinMap({ grid: 1 }), /grid = 1 is out of range|exceed the grid/);
});

test('the default build (pages, embeds) has no experiment entry points and says which build has them', async () => {
  const plain = await loadEngine();
  assert.throws(() => plain.experimentSeeds('local-convergence', {}), /only in the attnsvm-experiments build/);
  assert.throws(() => plain.basinMap({}), /only in the attnsvm-experiments build/);
  // the experiments build is the default build plus those entry points: same results for the rest
  const a = plain.sphere(6, 8, 10, 3), b = engine.sphere(6, 8, 10, 3);
  assert.deepEqual(a, b);
  assert.deepEqual(plain.solve({ dataset: a, norm: 'fro' }).W, engine.solve({ dataset: b, norm: 'fro' }).W);
});
