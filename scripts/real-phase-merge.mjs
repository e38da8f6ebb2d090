// Merges phase diagrams (`attnsvm experiment real-phase --out X.json`) run separately (per token
// dimension d, or per n of a d) into one, as the CLI would have written it for all their cells: the
// settings must agree on everything but dims, sizes (a larger d may have fewer n: the grid is then uneven,
// and said so in `sizesByDim`) and threads; a cell (d, head, method, n) may come from one file only.
// Rows are ordered by d, head and method as the core orders them, then n; the summary per (d, head,
// method) is recomputed from the merged rows by the core's rule (RealLadder::summary: the largest n
// before the first n at which some seed misses the limit, and what fails there), checked against each
// file's own summary where a d comes from one file. Runs appended with new ids, CPU and wall seconds
// summed; `parts` records each file's cells and seconds.
// Why: on a shared machine the cells are run one process after another, so that each finished part is kept.
//   node scripts/real-phase-merge.mjs a.json b.json ... > phase.json
import { readFileSync } from 'node:fs';

const files = process.argv.slice(2);
if (files.length === 0) throw new Error('usage: node scripts/real-phase-merge.mjs a.json b.json ...');
const parts = files.map((f) => ({ file: f, j: JSON.parse(readFileSync(f, 'utf8')) }));
const comparable = (s) => JSON.stringify(Object.fromEntries(Object.entries(s).filter(([k]) => !['dims', 'sizes', 'threads'].includes(k)).sort()));
const first = comparable(parts[0].j.settings);
for (const { file, j } of parts) {
  if (j.settings?.experiment !== 'real-phase') throw new Error(`${file}: not a real-phase result`);
  if (comparable(j.settings) !== first) throw new Error(`${file}: its settings differ from ${files[0]}'s beyond dims and sizes`);
}
const cell = (r) => `${r.dim}|${r.head}|${r.method}|${r.n}`;
const seen = new Set();
for (const { file, j } of parts) {
  for (const r of j.table) {
    if (seen.has(cell(r))) throw new Error(`${file}: the cell d = ${r.dim}, ${r.head}, ${r.method}, n = ${r.n} is in two files`);
    seen.add(cell(r));
  }
}
// The core's row order within a d: head descending (frozen after joint), method descending, n ascending.
const desc = (a, b) => (a < b ? 1 : a > b ? -1 : 0);
const table = parts.flatMap(({ j }) => j.table).sort((a, b) => a.dim - b.dim || desc(a.head, b.head) || desc(a.method, b.method) || a.n - b.n);
const failingText = (r) => [['degenerate', r.failDegenerate], ['infeasible', r.failInfeasible], ['undecided', r.failUndecided],
  ['no positive token', r.failNoPositiveToken], ['head faster', r.failHeadFaster], ['selection moving', r.failSelectionMoving],
  ['not separated', r.failNotSeparated], ['slow', r.failSlow]].filter(([, c]) => c > 0).map(([n, c]) => `${n} ${c}`).join(', ');
const summary = [];
for (const r of table) {
  let s = summary.find((x) => x.dim === r.dim && x.head === r.head && x.method === r.method);
  if (!s) summary.push(s = { dim: r.dim, head: r.head, method: r.method, largestN: 0, firstFailingN: 0, failingBeyond: '' });
  if (s.firstFailingN > 0) continue;
  if (r.seeds > 0 && r.limitReached === r.seeds) s.largestN = r.n;
  else { s.firstFailingN = r.n; s.failingBeyond = failingText(r); }
}
for (const { file, j } of parts) {
  for (const own of j.summary) {
    const inOneFile = parts.filter((p) => p.j.settings.dims.includes(own.dim)).length === 1;
    const mine = summary.find((x) => x.dim === own.dim && x.head === own.head && x.method === own.method);
    const key = (x) => JSON.stringify([x.largestN, x.firstFailingN, x.failingBeyond]);
    if (inOneFile && key(mine) !== key(own)) throw new Error(`${file}: the recomputed summary of d = ${own.dim}, ${own.head}, ${own.method} differs from the file's`);
  }
}
const sizesByDim = {};
for (const r of table) (sizesByDim[r.dim] ??= new Set()).add(r.n);
const out = {
  settings: { ...parts[0].j.settings, dims: Object.keys(sizesByDim).map(Number).sort((a, b) => a - b),
    sizes: [...new Set(table.map((r) => r.n))].sort((a, b) => a - b) },
  sizesByDim: Object.fromEntries(Object.entries(sizesByDim).map(([d, s]) => [d, [...s].sort((a, b) => a - b)])),
  table,
  summary,
  runs: parts.flatMap(({ j }) => j.runs ?? []).map((r, id) => ({ ...r, id })),
  trainCpuSeconds: parts.reduce((a, { j }) => a + j.trainCpuSeconds, 0),
  analysisCpuSeconds: parts.reduce((a, { j }) => a + j.analysisCpuSeconds, 0),
  seconds: parts.reduce((a, { j }) => a + j.seconds, 0),
  parts: parts.map(({ file, j }) => ({ file, dims: j.settings.dims, sizes: j.settings.sizes, seconds: j.seconds,
    cpuSeconds: j.trainCpuSeconds + j.analysisCpuSeconds })),
};
process.stdout.write(JSON.stringify(out) + '\n');
