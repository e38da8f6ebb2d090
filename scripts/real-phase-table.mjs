// The (d, n) phase diagram's tables for docs/RESULTS.md from `attnsvm experiment real-phase --out X.json`:
// per (head, method) the summary (largest n where every seed reaches the limit, per d, and what fails
// at the first n beyond), then a row per cell.
//   node scripts/real-phase-table.mjs phase.json
import { readFileSync } from 'node:fs';

const j = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const f = (x, d) => (x == null || !Number.isFinite(x) ? '–' : x.toFixed(d));
const fails = (r) => [['degenerate', r.failDegenerate], ['infeasible', r.failInfeasible], ['undecided', r.failUndecided],
  ['no positive token', r.failNoPositiveToken], ['head faster', r.failHeadFaster], ['selection moving', r.failSelectionMoving],
  ['not separated', r.failNotSeparated], ['slow', r.failSlow]].filter(([, c]) => c > 0).map(([n, c]) => `${n} ${c}`).join(', ') || '–';
console.log('**Summary: largest n up to which every seed reaches corr >= 0.99 (0: none), and the first failing n**\n');
console.log('| head | method | d | largest n | first failing n | failing there (runs) |');
console.log('|---|---|---|---|---|---|');
for (const s of j.summary) console.log(`| ${s.head} | ${s.method} | ${s.dim} | ${s.largestN} | ${s.firstFailingN || '–'} | ${s.failingBeyond || '–'} |`);
console.log('\n**Cells** (seeds per cell: ' + j.settings.seeds + '; steps ' + j.settings.steps + ' for every n)\n');
console.log('| head | method | d | n | limit reached | degenerate | ended by budget | SVM feasible (Fro / l_p) | corr mean (min) | D_p | train acc. | min / mean selected softmax | gamma-opt. | failing conditions |');
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
for (const r of j.table) {
  console.log(`| ${r.head} | ${r.method} | ${r.dim} | ${r.n} | ${r.limitReached}/${r.seeds} | ${r.degenerate} | ${r.endedByBudget}/${r.seeds} | ${r.feasible}/${r.seeds} / ${r.method === 'nmd:2' ? '–' : r.feasibleLp} | ${f(r.corrMean, 4)} (${f(r.corrMin, 4)}) | ${f(r.divergenceMean, 3)} | ${f(r.trainAccuracy, 3)} | ${f(r.minSoftmax, 3)} / ${f(r.meanSoftmax, 3)} | ${f(r.gammaOptimal, 2)} | ${fails(r)} |`);
}
const runs = j.runs ?? [];
console.log(`\nCPU: training ${f(j.trainCpuSeconds, 0)} s, analysis (solves) ${f(j.analysisCpuSeconds, 0)} s; wall ${f(j.seconds, 0)} s; ${runs.length} runs`);
const byDim = {};
for (const r of runs) { const k = r.dim; byDim[k] ??= [0, 0]; byDim[k][0] += r.trainSeconds; byDim[k][1] += r.analysisSeconds; }
for (const [d, [t, a]] of Object.entries(byDim)) console.log(`  d = ${d}: training ${t.toFixed(0)} s, analysis ${a.toFixed(0)} s`);
