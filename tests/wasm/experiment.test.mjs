// wasm experimentSeeds vs the native CLI (`attnsvm experiment NAME --out`): the same seeds give the
// same per-seed numbers and, aggregated by the lab's aggregate.js, the same mean/std bands
// (relative difference <= 1e-9). Uses build/native-release/cli/attnsvm (or native-debug, or
// ATTNSVM_CLI); the CLI comparisons are skipped when none is built.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { builtCli, loadEngine, assertClose, repoRoot, worst } from './helpers.mjs';
import { aggregate, aggregateWithSpread } from '../../web/src/experiments/aggregate.js';
import { rankCell, rankMaxAttempts } from '../../web/src/experiments/rank.js';

const TOL = 1e-9;
const cli = builtCli();
const skip = cli ? false : 'no native CLI built (build/native-release or build/native-debug)';

const experiment = (args) =>
  JSON.parse(execFileSync(cli, ['experiment', ...args, '--quiet', '--threads', '2'], { maxBuffer: 1 << 28 }).toString());

let engine;
before(async () => { engine = await loadEngine('attnsvm-experiments'); });

// The names of a CLI series block (without its iteration axis), sorted; the first chunk of results.
const seriesKeys = (block) => Object.keys(block).filter((k) => k !== 'iteration').sort();
const a0 = (chunks) => chunks[0];
const nan = (a) => a.map((x) => (x === null ? NaN : x));
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
  // The same names on both sides: the CLI's series are the wasm series; a run's fields of W are the
  // wasm columns "W/<field>" (values and labels).
  assert.deepEqual(seriesKeys(c.series), [...a0(chunks).seriesNames].sort());
  const columns = new Set([...a0(chunks).valueNames, ...a0(chunks).labelNames]);
  for (const p of ['W', 'KQ']) {
    for (const r of c.runs) {
      for (const f of Object.keys(r[p])) assert.ok(f === 'selection' || columns.has(`${p}/${f}`), `runs[].${p}.${f} is the wasm column ${p}/${f}`);
    }
    for (const f of Object.keys(c.summary[p])) {
      assert.ok(/^fraction(Globally|Locally)Optimal$/.test(f) || columns.has(`${p}/${f}`), `summary.${p}.${f} is the wasm column ${p}/${f}`);
    }
    for (const field of ['softmaxSelected', 'corrFro', 'corrNuclear', 'loss']) {
      assertClose(a.values[`${p}/${field}`], c.runs.map((r) => r[p][field]), `${p} ${field} per seed`, TOL);
    }
    assert.deepEqual(a.selections[p], c.runs.map((r) => r[p].selection), `${p} selections`);
    assert.deepEqual(a.labels[`${p}/verdict`], c.runs.map((r) => r[p].verdict), `${p} verdicts`);
    for (const s of ['softmax', 'corrFro', 'corrNuclear']) {
      const name = `${p}/${s}`;
      assertClose(a.series[name].mean, c.series[name].mean, `${name} mean`, TOL);
      // A std over seeds is a difference of values of size ~1 (probabilities, correlations): its
      // rounding error scales with the values, not with the (small) std itself, hence floor 1.
      assertClose(a.series[name].std, c.series[name].std, `${name} std`, TOL, 1);
    }
    assertClose(a.finals[`${p}/corrFro`].mean, c.summary[p].corrFro.mean, `${p} summary corrFro`, TOL);
  }
});

test('rates (ngd, md_p3) and overparam agree with the CLI', { skip }, () => {
  const seeds = 3, iters = 300;
  const c = experiment(['rates', '--seeds', `${seeds}`, '--iters', `${iters}`]);
  for (const method of ['ngd', 'md_p3']) {
    const a = aggregate([engine.experimentSeeds('rates', { method, seedStart: 0, seedCount: seeds, iters })]);
    const m = c.methods.find((x) => x.method === method);
    assert.deepEqual(a.iteration, m.series.iteration);
    assert.deepEqual(seriesKeys(m.series), Object.keys(a.series).sort(), 'rates: series names');
    assertClose(a.series.oneMinusCorr.mean, m.series.oneMinusCorr.mean, `rates ${method} mean`, TOL);
    assertClose(a.finals.oneMinusCorr.mean, m.finalOneMinusCorr.mean, `rates ${method} final`, TOL);
  }
  const o = experiment(['overparam', '--seeds', `${seeds}`, '--iters', `${iters}`, '--dims', '4,10']);
  for (const [k, d] of [[0, 4], [1, 10]]) {
    const a = aggregate([engine.experimentSeeds('overparam', { d, seedStart: 0, seedCount: seeds, iters })]);
    assert.ok('minSoftmax' in a.finals && 'minSoftmax' in o.perD[k], 'overparam: minSoftmax on both sides');
    assert.deepEqual(a.values.global, o.perD[k].globalPerSeed, `overparam d=${d} global per seed`);
    assertClose(a.finals.minSoftmax.mean, o.perD[k].minSoftmax.mean, `overparam d=${d} min softmax`, TOL);
  }
});

// Rank: the lab's cells (instances of experimentSeeds('rank') in uneven chunks, kept by rank.js's
// rankCell) equal the CLI's: the same seeds, attempts and integer ranks; hence the same mean/std.
test('rank: per-cell seeds, attempts and ranks equal the CLI\'s', { skip }, () => {
  const instances = 4, base = 2, dims = [1, 2, 3, 5];
  const c = experiment(['rank', '--seeds', `${instances}`, '--dims', dims.join(','), '--seed-base', `${base}`]);
  const maxAttempts = rankMaxAttempts(instances);
  assert.equal(c.settings.maxAttempts, maxAttempts);
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
    // the lab's cell is the CLI's row: the same field names
    assert.deepEqual(Object.keys(a).sort(), Object.keys(cell).sort(), `${what}: field names`);
    assert.deepEqual(a.seeds, cell.seeds, `${what} seeds`);
    assert.equal(a.attempts, cell.attempts, `${what} attempts`);
    assert.deepEqual(a.ranksFro, cell.ranksFro, `${what} Frobenius ranks`);
    assert.deepEqual(a.ranksNuclear, cell.ranksNuclear, `${what} nuclear ranks`);
    assert.equal(a.nuclearFailures, cell.nuclearFailures, `${what} nuclear failures`);
    for (const key of ['rankFro', 'rankNuclear']) {
      for (const f of ['mean', 'std']) {
        const x = a[key][f], y = cell[key][f];
        assert.ok((Number.isNaN(x) && y === null) || x === y, `${what} ${key} ${f}: ${x} vs ${y}`);
      }
    }
    for (const f of ['fractionNuclearLower', 'fractionNuclearLe']) {
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
  const p = one('prompt-global-local'), pc = cli('prompt-global-local');
  for (const c of pc.cases) {
    for (const r of c.runs) {
      const key = `${c.case}/${r.start}`;
      assert.deepEqual(p.iteration, r.iteration);
      // the lab's columns "<case>/<start>/<metric>" are the CLI run's fields
      for (const metric of ['corrOwnSvm', 'corrGlobalSvm']) assert.ok(metric in r && `${key}/${metric}` in p.values, `${key}/${metric}`);
      assert.equal(p.values[`${key}/global`][0], r.convergesTo === 'global' ? 1 : 0, `${key} converges to`);
      assertClose([p.values[`${key}/corrOwnSvm`][0], p.values[`${key}/corrGlobalSvm`][0]],
        nan([r.corrOwnSvm, r.corrGlobalSvm]), `${key} final corr`, TOL);
    }
  }
  const l = one('loss-function'), lc = cli('loss-function');
  for (const r of lc.runs) {
    const key = `${r.loss}/C${r.C}/corrPmm`;
    assert.ok('corrPmm' in r && key in l.values, `${key}: the run's corrPmm`);
    assertClose(l.series[key].mean, nan(r.corrSeries), `${key} series`, TOL);
    assertClose(l.values[key], nan([r.corrPmm]), `${key} final`, TOL);
  }
  const j = one('joint-pv'), jc = cli('joint-pv');
  for (const v of jc.variants) {
    assertClose(j.series[`v${v.variant}/corrPRelaxed`].mean, nan(v.corrPRelaxedSeries), `joint-pv ${v.variant} p`, TOL);
    assertClose(j.series[`v${v.variant}/corrVHead`].mean, nan(v.corrVSeries), `joint-pv ${v.variant} v`, TOL);
    assertClose([j.values[`v${v.variant}/corrPPlain`][0], j.values[`v${v.variant}/minLogistic`][0]],
      [v.corrPPromptSvm, Math.min(...v.logisticProbability)], `joint-pv ${v.variant} finals`, TOL);
  }
});

test('paths2d, paths2d-t5: the paths W(k) z_i, SVM directions and tokens agree with the CLI', { skip }, () => {
  const iters = 300, base = 2;
  for (const name of ['paths2d', 'paths2d-t5']) {
    const a = aggregate([engine.experimentSeeds(name, { seedStart: base, seedCount: 1, iters })]);
    const c = experiment([name, '--iters', `${iters}`, '--seed-base', `${base}`]);
    for (const P of ['W', 'KQ']) {
      assert.deepEqual(a.iteration, c[P].iteration);
      c[P].pathsWz.forEach((path, i) => {
        for (const k of [0, 1]) assertClose(a.series[`${P}/Wz[${i}][${k}]`].mean, path.map((q) => q[k]), `${name} ${P} path ${i}`, TOL);
        for (const ref of ['fro', 'nuclear']) {
          const want = c[P].svmDirectionsWz[i][ref];
          if (want) assertClose([0, 1].map((k) => a.values[`${P}/${ref}/Wmmz[${i}][${k}]`][0]), want, `${name} ${P} ${ref} ${i}`, TOL);
        }
      });
      for (const f of ['corrFro', 'corrNuclear']) assertClose(a.values[`${P}/${f}`], nan([c[P][f]]), `${name} ${P} ${f}`, TOL);
    }
    // the tokens X[i][t][a] are the data's X, index for index
    c.data.X.forEach((seq, i) => seq.forEach((x, t) => x.forEach((value, k) => assert.equal(a.values[`X[${i}][${t}][${k}]`][0], value, `${name} X[${i}][${t}][${k}]`))));
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
    const row = c.perP[pi];
    assert.deepEqual(a.iteration, row.series.iteration);
    assert.deepEqual(seriesKeys(row.series), [...a0(chunks).seriesNames].sort(), `p=${p}: series names`);
    // every final and run field is a wasm column (value or label) of the same name
    const columns = new Set([...a0(chunks).valueNames, ...a0(chunks).labelNames]);
    for (const f of Object.keys(row.final)) assert.ok(columns.has(f), `p=${p}: final.${f} is a wasm column`);
    for (const f of Object.keys(row.runs[0])) assert.ok(['seed', 'selection'].includes(f) || columns.has(f), `p=${p}: runs[].${f} is a wasm column`);
    assert.deepEqual(a.selections.W, row.runs.map((r) => r.selection), `p=${p} selections`);
    for (const q of c.settings.qs) {
      for (const m of ['div', 'corr']) {
        const key = `q${q}/${m}`;
        assertClose(a.values[key], row.runs.map((r) => r[key]), `p=${p} ${key} per seed`, TOL);
        assertClose(a.series[key].mean, row.series[key].mean, `p=${p} ${key} mean`, TOL);
        assertClose(a.series[key].std, row.series[key].std, `p=${p} ${key} std`, TOL, 1);
      }
      const qi = c.settings.qs.indexOf(q);
      assertClose([a.finals[`q${q}/div`].mean], [c.table.divMean[pi][qi]], `table p=${p} q=${q}`, TOL);
    }
  });
});

// The seeds' quantiles (median, q10, q90: the log axes' bands, issue 43) are the core's seriesSpread on
// both sides: the CLI's JSON and engine.seriesSpread over the wasm seeds (as the lab's panel calls it,
// aggregateWithSpread) agree for md-convergence's D_p and rates' 1 − corr; and the module's mean/std are the
// lab's aggregate.js arithmetic to the bit.
test('seed quantiles (median, q10, q90) agree between the CLI JSON and wasm seriesSpread', { skip }, async () => {
  const seeds = 7, iters = 300, base = 2;
  const md = experiment(['md-convergence', '--seeds', `${seeds}`, '--iters', `${iters}`, '--seed-base', `${base}`, '--ps', '2']);
  const chunks = [engine.experimentSeeds('md-convergence', { p: 2, seedStart: base + 3, seedCount: 4, iters }),
    engine.experimentSeeds('md-convergence', { p: 2, seedStart: base, seedCount: 3, iters })];
  const a = await aggregateWithSpread(chunks, engine);
  let compared = 0;
  for (const q of md.settings.qs) {
    for (const m of ['div', 'corr']) {
      const key = `q${q}/${m}`, cli = md.perP[0].series[key];
      for (const f of ['median', 'q10', 'q90']) {
        assert.equal(cli[f].length, a.series[key][f].length, `${key} ${f} length`);
        assertClose(a.series[key][f], nan(cli[f]), `md-convergence p=2 ${key} ${f}`, TOL);
        compared++;
      }
      // the quantiles are not the mean: a band of positive D_p is positive where mean − std may not be
      if (m === 'div') assert.ok(a.series[key].q10.every((v) => !(v <= 0)), `${key}: q10 > 0`);
    }
  }
  assert.equal(compared, 18);
  const rates = experiment(['rates', '--seeds', `${seeds}`, '--iters', `${iters}`]);
  for (const method of ['gd', 'ngd']) {
    const r = await aggregateWithSpread([engine.experimentSeeds('rates', { method, seedStart: 0, seedCount: seeds, iters })], engine);
    const cli = rates.methods.find((x) => x.method === method).series.oneMinusCorr;
    for (const f of ['median', 'q10', 'q90']) assertClose(r.series.oneMinusCorr[f], nan(cli[f]), `rates ${method} ${f}`, TOL);
  }
  // the module's mean and std: aggregate.js's to the bit (one arithmetic, in seed order)
  const names = [...chunks[0].seriesNames];
  const { spreadRequest } = await import('../../web/src/experiments/aggregate.js');
  const { request } = spreadRequest(chunks);
  const s = engine.seriesSpread(request);
  names.forEach((name, k) => {
    const I = request.length;
    assert.deepEqual(Array.from(s.mean.subarray(k * I, (k + 1) * I)), Array.from(a.series[name].mean), `${name} mean`);
    assert.deepEqual(Array.from(s.std.subarray(k * I, (k + 1) * I)), Array.from(a.series[name].std), `${name} std`);
  });
});

test('seriesSpread: type-7 quantiles by hand, NaN left out, bad input named', () => {
  // two series of 3 runs x 2 snapshots; run k's value at snapshot i of series m at (m * 3 + k) * 2 + i
  const s = engine.seriesSpread({ values: [1, 10, 3, NaN, 2, 30, /* series 1 */ 5, 0, 5, 0, 5, -1], runs: 3, length: 2 });
  assert.deepEqual(Array.from(s.median), [2, 20, 5, 0]);
  assert.deepEqual(Array.from(s.q10).map((v) => +v.toFixed(12)), [1.2, 12, 5, -0.8]);
  assert.deepEqual(Array.from(s.q90).map((v) => +v.toFixed(12)), [2.8, 28, 5, 0]);
  assert.deepEqual(Array.from(s.mean), [2, 20, 5, -1 / 3]);
  assert.throws(() => engine.seriesSpread({ values: [1, 2, 3], runs: 2, length: 1 }), /not a multiple of runs x length = 2/);
  assert.throws(() => engine.seriesSpread({ values: [1], runs: 0, length: 1 }), /runs = 0/);
  assert.throws(() => engine.seriesSpread({ values: [1], runs: 1, length: 1, band: 0.8 }), /band/);
});

test('joint-wv: every p\'s series, selection and probabilities agree with the CLI', { skip }, () => {
  const iters = 400;
  const raw = engine.experimentSeeds('joint-wv', { seedStart: 0, seedCount: 1, iters });
  const a = aggregate([raw]);
  const c = experiment(['joint-wv', '--iters', `${iters}`]);
  assert.deepEqual(a.iteration, c.series.iteration);
  assert.deepEqual(seriesKeys(c.series), [...raw.seriesNames].sort(), 'joint-wv: series names');
  for (const r of c.runs) {
    const P = `p${r.p}`;
    assert.deepEqual(a.selections[P][0], r.selection, `${P} selection`);
    // a run's scalar fields are the wasm columns "<P>/<field>"
    for (const f of ['corrW', 'divW', 'corrV', 'divV']) {
      assert.ok(f in r, `${P}: run field ${f}`);
      assertClose(a.values[`${P}/${f}`], nan([r[f]]), `${P} ${f}`, TOL);
    }
    for (const m of ['corrW', 'divW', 'corrV', 'divV', 'meanSoftmax', 'meanLogistic']) {
      assertClose(a.series[`${P}/${m}`].mean, c.series[`${P}/${m}`].mean, `${P} ${m}`, TOL);
    }
    assertClose([0, 1].map((i) => a.values[`${P}/softmax[${i}]`][0]), r.softmaxSelected, `${P} softmax`, TOL);
    assertClose([0, 1].map((i) => a.values[`${P}/logistic[${i}]`][0]), r.logisticProbability, `${P} logistic`, TOL);
    r.Wmmz.forEach((row, i) => assertClose(row.map((_, k) => a.values[`${P}/Wmmz[${i}][${k}]`][0]), nan(row), `${P} Wmmz[${i}]`, TOL));
    assertClose(r.vmm.map((_, k) => a.values[`${P}/vmm[${k}]`][0]), nan(r.vmm), `${P} vmm`, TOL);
  }
});

// docs/NAMES.md (issue 17): one spelling. Every key of the CLI's JSON of every experiment, every
// column of its CSV and every column name of the wasm results is a camelCase name (indices in
// brackets, X[0][1][0]) or such names joined by '/' with scopes: a number (a start, or a d keying
// a JSON map) or an exponent (p1.75, q3). The only keys that are values are the verdict names
// counted under `verdicts` (real-images). Fails when a snake_case name comes back.
const SEGMENT = /^([A-Za-z][A-Za-z0-9]*(\[\d+\])*|\d+|[pq]\d+(\.\d+)?)$/;
function badNames(names, where) {
  const bad = [];
  for (const name of names) for (const part of name.split('/')) if (!SEGMENT.test(part)) bad.push(`${where}: '${name}' ('${part}')`);
  return bad;
}
// Every key of a JSON value, with its path; keys under `verdicts` must be verdict names.
function badKeys(x, path, verdictNames, bad = []) {
  if (ArrayBuffer.isView(x)) return bad;  // typed arrays: numbers
  if (Array.isArray(x)) x.forEach((v, k) => badKeys(v, `${path}[${k}]`, verdictNames, bad));
  else if (x && typeof x === 'object') {
    for (const [k, v] of Object.entries(x)) {
      if (path.endsWith('.verdicts')) {
        if (!verdictNames.includes(k)) bad.push(`${path}: '${k}' is no verdict`);
      } else bad.push(...badNames([k], path));
      badKeys(v, `${path}.${k}`, verdictNames, bad);
    }
  }
  return bad;
}
const REDUCED = {
  'local-convergence': ['--seeds', '2', '--iters', '60'],
  rank: ['--seeds', '2', '--dims', '2'],
  multitoken: ['--seeds', '2', '--iters', '60', '--dims', '4'],
  'prompt-global-local': ['--iters', '60'],
  'loss-function': ['--iters', '60'],
  'joint-pv': ['--iters', '60'],
  'mirror-descent': ['--seeds', '2', '--iters', '60', '--ps', '1.75'],
  overparam: ['--seeds', '2', '--iters', '60', '--dims', '4'],
  'basin-map': ['--grid', '3', '--iters', '30'],
  rates: ['--seeds', '2', '--iters', '60'],
  paths2d: ['--iters', '60'],
  'paths2d-t5': ['--iters', '60'],
  'md-convergence': ['--seeds', '2', '--iters', '60'],
  'joint-wv': ['--iters', '60'],
  'reg-path': ['--seeds', '2', '--iters', '30'],
  'seq2seq-convergence': ['--seeds', '2', '--iters', '60'],
  hierarchy: ['--seeds', '2', '--iters', '60'],
  'real-images': ['--seeds', '1', '--iters', '3', '--train', '20', '--test', '20', '--n-svm', '10', '--ps', '2', '--optimizer', 'nmd,adam'],
  'real-study': ['--settings', JSON.stringify({ tasks: '7v9', nTrain: 40, nValidation: 20, nTest: 40, epochs: 2, seeds: 2, tuneSeeds: 2,
    design: 'main', methods: 'md:2,adam', ablationMethods: 'md:2', gridPoints: 3, maxExtensions: 0 })],
  'real-ladder': ['--settings', JSON.stringify({ sizes: [8], heads: 'frozen', methods: 'nmd:2', maxSteps: 200, minSteps: 50, work: 2000, headSteps: 50, seeds: 1 })],
  'real-phase': ['--settings', JSON.stringify({ dims: [18], sizes: [16], heads: 'frozen', methods: 'nmd:2', headSteps: 50, steps: 50, seeds: 1 })],
};

test('every experiment\'s JSON keys, CSV columns and wasm column names are camelCase (joined by /)', { skip, timeout: 300000 }, () => {
  const list = JSON.parse(execFileSync(cli, ['experiment', '--list']).toString());
  assert.deepEqual([...list].sort(), Object.keys(REDUCED).sort(), 'a reduced run for every experiment');
  const verdictNames = [...engine.vocabulary().verdict, 'not_globally_optimal'];
  const dir = mkdtempSync(join(tmpdir(), 'attnsvm-names-'));
  const bad = [];
  const json = {};
  for (const [name, args] of Object.entries(REDUCED)) {
    const out = join(dir, `${name}.json`), csv = join(dir, `${name}.csv`);
    try {
      execFileSync(cli, ['experiment', name, ...args, '--quiet', '--threads', '2', '--out', out, '--csv', csv], { stdio: ['ignore', 'ignore', 'pipe'] });
    } catch (e) {
      if ((name.startsWith('real-') || name === 'hierarchy') && /apt-get install dataset-fashion-mnist/.test(e.stderr)) continue;  // no data on this machine
      throw e;
    }
    json[name] = JSON.parse(readFileSync(out, 'utf8'));
    bad.push(...badKeys(json[name], name, verdictNames));
    const header = readFileSync(csv, 'utf8').split('\n')[0].split(',');
    bad.push(...badNames(header, `${name} CSV`));
    assert.ok(header.length >= 2, `${name}: CSV header`);
  }
  // the wasm results of every experiment the lab runs
  for (const name of engine.experimentNames()) {
    const options = { seedStart: 1, seedCount: 2, iters: 30, ...(name === 'rates' ? { method: 'md_p1.75' } : {}) };
    const r = engine.experimentSeeds(name, options);
    for (const key of ['seriesNames', 'valueNames', 'labelNames', 'selectionNames']) bad.push(...badNames(r[key], `wasm ${name} ${key}`));
    bad.push(...badKeys(r, `wasm ${name}`, verdictNames));
  }
  bad.push(...badKeys(engine.basinMap({ grid: 3, rowStart: 0, rowCount: 1, iters: 20 }), 'wasm basinMap', verdictNames));
  bad.push(...badKeys(engine.basinLimits({}), 'wasm basinLimits', verdictNames));
  bad.push(...badKeys(rankCell(5, 5, 2, [engine.experimentSeeds('rank', { n: 5, T: 5, d: 2, seedStart: 0, seedCount: 3 })], 2, 40), 'lab rank cell', verdictNames));
  assert.deepEqual(bad, []);

  // Where the CLI and the wasm columns hold the same result, the same names: the series blocks of
  // mirror-descent and multitoken are the wasm series, their finals and runs' fields wasm values.
  const same = (name, block, options, extra) => {
    const r = engine.experimentSeeds(name, { seedStart: 0, seedCount: 1, iters: 60, ...options });
    assert.deepEqual(seriesKeys(block.series), [...r.seriesNames].sort(), `${name}: series names`);
    const columns = new Set([...r.valueNames, ...r.labelNames]);
    for (const f of Object.keys(block.final)) assert.ok(columns.has(f), `${name}: final.${f} is a wasm column`);
    for (const f of Object.keys(block.runs[0])) assert.ok(extra.includes(f) || columns.has(f), `${name}: runs[].${f} is a wasm column`);
  };
  same('mirror-descent', json['mirror-descent'].perP[0], { p: 1.75 }, ['seed', 'selection']);
  // the settings blocks name a seed's settings as the lab's request (SeedsRequest's field list) does
  const requestFields = engine.module.experimentVocabulary().fields.experimentSeeds;
  for (const [name, keys] of [['local-convergence', ['iters', 'every', 'n', 'T', 'd']], ['mirror-descent', ['iters', 'every', 'n', 'T', 'd']],
    ['multitoken', ['iters', 'every']], ['overparam', ['iters', 'n', 'T']]]) {
    for (const k of keys) assert.ok(requestFields.includes(k) && k in json[name].settings, `${name}: settings.${k} is a request field`);
  }
  same('multitoken', json.multitoken.perD[0], { d: 4 }, ['seed', 'selectedSets']);
  assert.ok(json['mirror-descent'].perP[0].heatmapSeed0.WmmLp, 'mirror-descent: the l_p SVM as heatmapSeed0.WmmLp');
});

test('experimentSeeds: bad input is a clear error naming the field', () => {
  assert.throws(() => engine.experimentSeeds('nope', {}), /experiment 'nope' has no per-seed form.*local-convergence/);
  assert.throws(() => engine.experimentSeeds('local-convergence', { seedCount: 0 }), /seedCount = 0 is out of range/);
  assert.throws(() => engine.experimentSeeds('local-convergence', { seedStart: -1 }), /seedStart must be an integer/);
  assert.throws(() => engine.experimentSeeds('local-convergence', { iters: 0 }), /iters = 0 is out of range/);
  assert.throws(() => engine.experimentSeeds('rates', { method: 'adam' }), /method 'adam' is unknown/);
  assert.throws(() => engine.experimentSeeds('mirror-descent', { p: 1 }), /p must be in \(1, 1000\]/);
  assert.deepEqual(engine.experimentNames(), ['local-convergence', 'overparam', 'rates', 'mirror-descent', 'multitoken', 'rank',
    'prompt-global-local', 'loss-function', 'joint-pv', 'paths2d', 'paths2d-t5', 'md-convergence', 'joint-wv',
    'reg-path', 'seq2seq-convergence', 'hierarchy']);
  // the types list the same names
  const dts = readFileSync(resolve(repoRoot, 'web/src/engine/attnsvm.d.ts'), 'utf8');
  const union = /export type SeedExperimentName = ([^;]+);/.exec(dts)[1];
  assert.deepEqual([...union.matchAll(/'([^']*)'/g)].map((m) => m[1]), engine.experimentNames(), 'attnsvm.d.ts SeedExperimentName');
  assert.throws(() => engine.experimentSeeds('md-convergence', { p: 0.5 }), /p = 0.5.* must be in \(1, 1000\]/);
  assert.throws(() => engine.experimentSeeds('rank', { T: 1 }), /T = 1 is out of range 2..1024/);
  assert.throws(() => engine.experimentSeeds('rank', { rankTol: -1 }), /rank tolerance must be > 0/);
});

// The requests of the experiment entry points are read through the core's field lists (SeedsRequest,
// BasinMapRequest; experimentVocabulary): a key that is not a field is an error listing them.
test('experiment requests: an unknown key is an error listing the fields; what the lab sends is accepted', () => {
  const { fields } = engine.module.experimentVocabulary();
  const notAField = (fn, key, accepted) => assert.throws(fn, (e) => {
    assert.equal(e.kind, 'input', e.message);
    assert.equal(e.message, `${key} is not a field; expected one of ${accepted.join(', ')}`);
    return true;
  }, key);
  assert.deepEqual(fields.experimentSeeds, ['seedStart', 'seedCount', 'iters', 'every', 'd', 'n', 'T', 'rankTol', 'p', 'method']);
  notAField(() => engine.experimentSeeds('local-convergence', { seedStart: 0, itres: 10 }), 'itres', fields.experimentSeeds);
  notAField(() => engine.experimentSeeds('rank', { n: 5, T: 5, d: 2, rank_tol: 1e-7 }), 'rank_tol', fields.experimentSeeds);
  assert.deepEqual(fields.basinMap, ['grid', 'rowStart', 'rowCount', 'iters', 'seed']);
  notAField(() => engine.basinMap({ grid: 3, rowStart: 0, rows: 1 }), 'rows', fields.basinMap);
  notAField(() => engine.basinLimits({ sed: 1 }), 'sed', ['seed']);
  const t = engine.module.trainSeeds({ n: 6, T: 8, d: 10, iters: 1, learningRate: 0.1 });
  assert.equal(t.ok, false);
  assert.equal(t.error, 'learningRate is not a field; expected one of n, T, d, seedStart, seedCount, iters, param, batched, optimizer, lr, p');
  // values are checked by type with the field's name, as before
  assert.throws(() => engine.experimentSeeds('rates', { method: 3 }), /method must be a string/);
  assert.throws(() => engine.experimentSeeds('local-convergence', { every: 1.5 }), /every = 1\.5\d* must be an integer/);
  assert.throws(() => engine.basinMap({ grid: 3, seed: -1 }), /seed must be an integer in 0\.\.2\^53-1/);
  // what the lab's runner.js, rank.js and basin map send: every key a field
  const few = { seedStart: 2, seedCount: 1, iters: 20, every: 5 };
  for (const [name, options] of [['rates', { method: 'md_p3' }], ['overparam', { d: 4 }], ['mirror-descent', { p: 1.75 }],
    ['multitoken', { d: 4 }], ['rank', { n: 5, T: 5, d: 2, rankTol: 1e-7 }], ['local-convergence', {}]]) {
    assert.equal(engine.experimentSeeds(name, { ...options, ...few }).count, 1, name);
  }
  assert.equal(engine.basinMap({ grid: 3, seed: 0, iters: 20, rowStart: 1, rowCount: 2 }).selection.length, 6);
  assert.equal(engine.basinLimits({ seed: 0 }).tokens.length, 3);
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
    assertClose(t.direction, l.svmDirection, `basin SVM direction of token ${l.selection}`, TOL);
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
