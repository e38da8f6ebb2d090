// The fair study (SPEC 6.1) and the regime ladder (6.2) in the browser: their settings from the lab's
// state (a reduced size, stated), the numbers a figure plots from the core's table, and what the
// numbers say, in words (captions and text alternatives). Pure: no DOM.
import { CLASS_NAMES } from './asset.js';

// ---------- settings (the lab's state: ca, cb, seed, sseeds, lmax) ----------
export const STUDY_METHODS = 'md:1.1,md:2,md:3,nmd:1.1,nmd:2,nmd:3,adam';

// The browser's reduced study: one task, the main setting only (minibatches of 50 from a small random
// start), 400 training / 200 validation / 400 test images, 40 epochs, a 5-point grid (extended up to
// twice at an edge), `sseeds` seeds (default 5) that both choose the step and report. The CLI's
// default is 1000 / 500 / 1000 images, 200 epochs, 5 grid points, 10 seeds, two tasks, three settings.
// seed: the lab's seed k runs the study's seeds k + 1 .. k + S (the CLI's --settings seedBase).
// (the defaults of `sseeds` and `lmax`: also what the view's controls show for a link without them)
export const STUDY_SEEDS = 5, LADDER_MAX = 128;
export function studySettings(state) {
  const seeds = state.studySeeds ?? STUDY_SEEDS;
  return {
    tasks: `${state.classA ?? 7}v${state.classB ?? 9}`, nTrain: 400, nValidation: 200, nTest: 400,
    methods: STUDY_METHODS, design: 'main-only', batch: 50, epochs: 40,
    seeds, tuneSeeds: seeds, seedBase: (state.seed ?? 0) + 1, gridPoints: 5, maxExtensions: 2,
  };
}

// The browser's ladder: n = 8, 16, ... up to lmax (default 128), frozen and joint head, normalized GD,
// one seed, at most 20000 steps (steps = min(20000, max(1000, 5e5 / n))). The CLI's default: n up to
// 1000, NGD and normalized l_1.1 MD, two seeds, up to 10^5 steps.
export function ladderSettings(state) {
  const max = state.ladderMax ?? LADDER_MAX;
  const sizes = [];
  for (let n = 8; n <= max; n *= 2) sizes.push(n);
  if (sizes.at(-1) !== max && max % 2 === 0) sizes.push(max);
  return {
    classA: state.classA ?? 7, classB: state.classB ?? 9, sizes, heads: 'frozen,joint', methods: 'nmd:2',
    seeds: 1, seedBase: (state.seed ?? 0) + 1, maxSteps: 20000, minSteps: 1000, work: 5e5,
  };
}

export function studySizeText(s) {
  return `Reduced for the browser: task ${s.tasks}, ${s.nTrain} training / ${s.nValidation} validation / ${s.nTest} test images, ` +
    `minibatches of ${s.batch} from a small random start, ${s.epochs} epochs at most (stop at 99.5% training accuracy), ` +
    `a ${s.gridPoints}-step grid per method (extended at an edge), ${s.seeds} seeds (${s.seedBase}..${s.seedBase + s.seeds - 1}). ` +
    'The CLI\'s full study (attnsvm experiment real-study) uses 1000 / 500 / 1000 images, 200 epochs, 10 seeds and two tasks.';
}

export function ladderSizeText(s) {
  return `Reduced for the browser: n = ${s.sizes.join(', ')} training images of ${CLASS_NAMES[s.classA]} vs ${CLASS_NAMES[s.classB]}, ` +
    `normalized GD on W, head frozen (trained alone first) or joint, ${s.seeds} seed, up to ${s.maxSteps} steps. ` +
    'The CLI\'s ladder (attnsvm experiment real-ladder) goes to n = 1000, adds l_1.1 mirror descent and two seeds.';
}

// ---------- numbers ----------
// Two-sided 95% Student t quantiles, df 1..30 (then the normal's 1.96 is within 2%).
const T95 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
  2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042];
export const t95 = (df) => (df >= 1 ? T95[Math.min(df, 30) - 1] : NaN);

// The 95% confidence interval of a mean from the core's {mean, std, n}.
export function meanCI(stat) {
  if (!stat || !(stat.n >= 2)) return { mean: stat?.mean ?? NaN, lo: NaN, hi: NaN };
  const h = t95(stat.n - 1) * stat.std / Math.sqrt(stat.n);
  return { mean: stat.mean, lo: stat.mean - h, hi: stat.mean + h };
}

export function methodLabel(m) {
  if (m === 'adam') return 'Adam';
  const [opt, p] = m.split(':');
  if (p === '2') return opt === 'md' ? 'GD' : 'NGD';
  return `${opt === 'md' ? 'MD' : 'NMD'} p=${p}`;
}

const ORDER = ['md:2', 'md:1.1', 'md:3', 'nmd:2', 'nmd:1.1', 'nmd:3', 'adam'];
// The rows the figure draws: the main setting of the first task, GD first.
export function studyRows(table) {
  const rows = table?.rows ?? [];
  const task = rows[0]?.task, setting = rows.find((r) => r.setting === 'mini-random') ? 'mini-random' : rows[0]?.setting;
  return rows.filter((r) => r.task === task && r.setting === setting)
    .sort((a, b) => (ORDER.indexOf(a.method) + 99 * (ORDER.indexOf(a.method) < 0)) - (ORDER.indexOf(b.method) + 99 * (ORDER.indexOf(b.method) < 0)))
    .map((r) => ({
      method: r.method, label: methodLabel(r.method), lr: r.lr, atEdge: !!r.atEdge, extended: (r.extendedDown ?? 0) + (r.extendedUp ?? 0),
      accuracy: meanCI(r.testAccuracyBest), std: r.testAccuracyBest?.std, n: r.testAccuracyBest?.n,
      vsGd: r.method === 'md:2' ? null : (r.vsGdBest ?? null), gammaOptimal: r.gammaOptimal?.mean, sparsity: r.sparsity?.mean,
      diverged: r.diverged ?? 0, reachedStop: r.reachedStop ?? 0,
    }));
}

const pp = (x) => `${x >= 0 ? '+' : '−'}${Math.abs(100 * x).toFixed(1)}`;
const pc = (x) => `${(100 * x).toFixed(1)}%`;
export const stepText = (lr) => (lr >= 0.1 ? String(Number(lr.toPrecision(3))) : lr.toExponential(1));

// What the study's numbers say (the caption and the text alternative).
export function studyCaption(table) {
  const rows = studyRows(table);
  if (!rows.length) return '';
  const r0 = table.rows[0];
  const best = rows.reduce((a, b) => (b.accuracy.mean > a.accuracy.mean ? b : a));
  const gd = rows.find((r) => r.method === 'md:2');
  const parts = [`Task ${CLASS_NAMES[r0.classA]} vs ${CLASS_NAMES[r0.classB]}, each method at its own step chosen on validation accuracy, test accuracy at the best-validation epoch over ${best.n} seeds.`];
  parts.push(`Highest mean: ${best.label} ${pc(best.accuracy.mean)}` + (gd && gd !== best ? `; GD ${pc(gd.accuracy.mean)} (step ${stepText(gd.lr)}).` : '.'));
  const better = [], worse = [], tied = [];
  for (const r of rows) {
    if (!r.vsGd || !Number.isFinite(r.vsGd.lo)) continue;
    const t = `${r.label} ${pp(r.vsGd.mean)} points [${pp(r.vsGd.lo)}, ${pp(r.vsGd.hi)}]`;
    if (r.vsGd.lo > 0) better.push(t); else if (r.vsGd.hi < 0) worse.push(t); else tied.push(r.label);
  }
  if (better.length) parts.push(`Better than GD (95% CI of the paired difference above 0): ${better.join('; ')}.`);
  if (worse.length) parts.push(`Worse than GD (CI below 0): ${worse.join('; ')}.`);
  if (tied.length) parts.push(`No difference from GD detectable at this size (CI contains 0): ${tied.join(', ')}.`);
  const l11 = rows.find((r) => r.method === 'md:1.1');
  if (l11?.vsGd && Number.isFinite(l11.vsGd.lo)) {
    parts.push(l11.vsGd.lo > 0 ? 'Here plain l_1.1 MD generalizes better than GD, as the mirror-descent paper reports (its IMDb gap: +1.8 points).'
      : l11.vsGd.hi < 0 ? 'Here plain l_1.1 MD generalizes worse than GD: the paper\'s claim (l_1.1 better; +1.8 points on IMDb) does not hold at this size.'
        : 'Whether l_1.1 MD beats GD, as the paper reports (+1.8 points on IMDb), cannot be told at this size.');
  }
  const edge = rows.filter((r) => r.atEdge).map((r) => r.label);
  if (edge.length) parts.push(`The chosen step is at an edge of the grid for ${edge.join(', ')}: their accuracy may be underestimated.`);
  return parts.join(' ');
}

// ---------- the ladder ----------
export const FAILING = {
  failDegenerate: 'the run is degenerate (training accuracy at chance)',
  failInfeasible: 'the Att-SVM of the reached selection is infeasible',
  failUndecided: 'the SVM solver could not decide',
  failNoPositiveToken: 'an image has no patch of positive score γ_it under the head',
  failHeadFaster: 'the head\'s norm grows faster than W\'s',
  failSelectionMoving: 'the selection still changes',
  failNotSeparated: 'the training images are not separated',
  failSlow: 'the budget ended first (the conditions hold)',
};

// feasible (every seed's SVM certified), infeasible (none, every seed certified infeasible), undecided
// (none certified and some undecided), mixed (some seeds feasible, some not: n at the edge; not the
// solver's status boundary, which the ladder counts as undecided).
export function feasibility(row) {
  if (row.feasible === row.seeds) return 'feasible';
  if (row.feasible > 0) return 'mixed';
  if (row.undecided > 0) return 'undecided';
  return 'infeasible';
}

export function failingOf(row) {
  return Object.entries(FAILING).filter(([k]) => row[k] > 0).map(([, v]) => v);
}

const headOrder = (h) => (h === 'frozen' ? 0 : 1);
export function ladderRows(table) {
  return (table?.rows ?? []).map((r) => ({
    head: r.head, method: r.method, n: r.n, seeds: r.seeds, steps: r.steps,
    k: Array.from(r.snapshotSteps ?? []), corr: Array.from(r.corrAlongK ?? []),
    corrFinal: r.corrMean, feasibility: feasibility(r), limit: r.limitReached === r.seeds && r.seeds > 0,
    failing: failingOf(r), minSoftmax: r.minSoftmax, trainAccuracy: r.trainAccuracy,
  })).sort((a, b) => headOrder(a.head) - headOrder(b.head) || a.method.localeCompare(b.method) || a.n - b.n);
}

export function ladderCaption(table) {
  const rows = ladderRows(table);
  if (!rows.length) return '';
  const target = table.settings?.corrTarget ?? 0.99;
  const groups = [...new Set(rows.map((r) => `${r.head}|${r.method}`))];
  const parts = ['The theory predicts corr(W(k), Att-SVM of the selection reached) → 1 once the training loss goes to zero with one patch per image.'];
  for (const g of groups) {
    const [head, method] = g.split('|');
    const rs = rows.filter((r) => r.head === head && r.method === method);
    const reached = rs.filter((r) => r.limit).map((r) => r.n);
    const firstFail = rs.find((r) => !r.limit);
    const name = `${head === 'frozen' ? 'Frozen head' : 'Joint head'} (${methodLabel(method)})`;
    let t = reached.length ? `${name}: corr ≥ ${target} at n = ${reached.join(', ')}` : `${name}: corr ≥ ${target} at no n`;
    if (firstFail) t += `; at n = ${firstFail.n} it stops at corr ${Number.isFinite(firstFail.corrFinal) ? firstFail.corrFinal.toFixed(3) : '— (no SVM)'} because ${firstFail.failing.join(' and ') || 'the limit is not reached'}`;
    parts.push(`${t}.`);
  }
  const infeasible = [...new Set(rows.filter((r) => r.feasibility === 'infeasible').map((r) => r.n))];
  if (infeasible.length) parts.push(`No Att-SVM separates the reached selection at n = ${infeasible.join(', ')}: there the theory's limit does not exist.`);
  else parts.push(`The Att-SVM of the reached selection is ${rows.every((r) => r.feasibility === 'feasible') ? 'feasible (certified) at every n' : 'not certified feasible at every n'}.`);
  const failed = rows.filter((r) => !r.limit);
  const counts = new Map();
  for (const r of failed) for (const f of r.failing) counts.set(f, (counts.get(f) ?? 0) + 1);
  const top = [...counts.entries()].sort((a, b) => b[1] - a[1]);
  if (top.length) parts.push(`Where the limit is not reached, the most frequent failing condition is: ${top[0][0]} (${top[0][1]} of ${failed.length} rungs)${top[1] ? `, then ${top[1][0]} (${top[1][1]})` : ''}.`);
  return parts.join(' ');
}

// ---------- the (d, n) phase diagram (SPEC 6.5) ----------
// The browser's phase diagram: d = 18, 32, 64, n = 16, 32, 64, frozen and joint head, normalized GD, one
// seed, 1000 steps for every n (the budget does not depend on n). The CLI's (attnsvm experiment
// real-phase) adds d up to 512, n up to 1000, l_1.1 MD and three seeds.
export const PHASE_DIMS = [18, 32, 64], PHASE_SIZES = [16, 32, 64];
export function phaseSettings(state) {
  return {
    classA: state.classA ?? 7, classB: state.classB ?? 9, dims: PHASE_DIMS, sizes: PHASE_SIZES,
    heads: 'frozen,joint', methods: 'nmd:2', steps: 1000, headSteps: 500, seeds: 1, seedBase: (state.seed ?? 0) + 1,
  };
}

export function phaseSizeText(s) {
  return `Reduced for the browser: d = ${s.dims.join(', ')} (token dimension), n = ${s.sizes.join(', ')} training images of ${CLASS_NAMES[s.classA]} vs ${CLASS_NAMES[s.classB]}, ` +
    `normalized GD on W, head frozen or joint, ${s.seeds} seed, ${s.steps} steps for every n. ` +
    'The CLI\'s phase diagram (attnsvm experiment real-phase) goes to d = 512 and n = 1000 with l_1.1 mirror descent and three seeds.';
}

// One cell per (d, head, method, n): the share of seeds that reach the limit, the degenerate runs
// (chance accuracy: a failure of their own), the feasibility and the failing conditions.
export function phaseRows(table) {
  return (table?.rows ?? []).map((r) => ({
    dim: r.dim, head: r.head, method: r.method, n: r.n, seeds: r.seeds, steps: r.steps,
    reached: r.limitReached, share: r.seeds ? r.limitReached / r.seeds : NaN, degenerate: r.degenerate ?? r.failDegenerate ?? 0,
    feasibility: feasibility(r), corr: r.corrMean, minSoftmax: r.minSoftmax, meanSoftmax: r.meanSoftmax,
    trainAccuracy: r.trainAccuracy, gammaOptimal: r.gammaOptimal, failing: failingOf(r), endedByBudget: r.endedByBudget,
  })).sort((a, b) => headOrder(a.head) - headOrder(b.head) || a.method.localeCompare(b.method) || a.dim - b.dim || a.n - b.n);
}

export function phaseCaption(table) {
  const rows = phaseRows(table);
  if (!rows.length) return '';
  const target = table.settings?.corrTarget ?? 0.99;
  const parts = [`Each cell: the share of seeds whose W reaches corr ≥ ${target} with the Att-SVM of its own selection (dark: all), × a degenerate run (training accuracy at chance).`];
  const groups = [...new Set(rows.map((r) => `${r.head}|${r.method}`))];
  for (const g of groups) {
    const [head, method] = g.split('|');
    const name = `${head === 'frozen' ? 'Frozen head' : 'Joint head'} (${methodLabel(method)})`;
    const sums = (table.summary ?? []).filter((s) => s.head === head && s.method === method).sort((a, b) => a.dim - b.dim);
    const per = sums.map((s) => `d = ${s.dim}: ${s.largestN ? `n ≤ ${s.largestN}` : 'no n'}${s.firstFailingN ? ` (at n = ${s.firstFailingN}: ${s.failingBeyond})` : ''}`);
    parts.push(`${name}, the regime holds for ${per.join('; ')}.`);
  }
  const degenerate = rows.reduce((a, r) => a + r.degenerate, 0);
  if (degenerate) parts.push(`${degenerate} run${degenerate > 1 ? 's are' : ' is'} degenerate (training accuracy at chance), counted as failures.`);
  return parts.join(' ');
}
