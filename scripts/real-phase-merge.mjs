// Merges phase diagrams (`attnsvm experiment real-phase --out X.json`) run separately per token
// dimension d into one, as the CLI would have written it for all their d: the settings must agree on
// everything but dims, sizes (a larger d may have fewer n: the grid is then uneven, and said so in
// `sizesByDim`) and threads; rows and summaries are ordered by d (each d's own order kept),
// runs appended with new ids, CPU and wall seconds summed; `parts` records each file's d and seconds.
// Why: on a shared machine the d are run one process after another, so that each finished d is kept.
//   node scripts/real-phase-merge.mjs a.json b.json ... > phase.json
import { readFileSync } from 'node:fs';

const files = process.argv.slice(2);
if (files.length === 0) throw new Error('usage: node scripts/real-phase-merge.mjs a.json b.json ...');
const parts = files.map((f) => ({ file: f, j: JSON.parse(readFileSync(f, 'utf8')) }));
const comparable = (s) => JSON.stringify(Object.fromEntries(Object.entries(s).filter(([k]) => !['dims', 'sizes', 'threads'].includes(k)).sort()));
const first = comparable(parts[0].j.settings);
for (const { file, j } of parts) {
  if (j.settings?.experiment !== 'real-phase') throw new Error(`${file}: not a real-phase result`);
  if (comparable(j.settings) !== first) throw new Error(`${file}: its settings differ from ${files[0]}'s beyond dims`);
}
const dims = parts.flatMap(({ j }) => j.settings.dims);
if (new Set(dims).size !== dims.length) throw new Error(`a d is in two files: ${dims.join(', ')}`);
const byDim = (rows) => [...rows].sort((a, b) => a.dim - b.dim);  // stable: each d's order kept
const out = {
  settings: { ...parts[0].j.settings, dims: [...dims].sort((a, b) => a - b),
    sizes: [...new Set(parts.flatMap(({ j }) => j.settings.sizes))].sort((a, b) => a - b) },
  sizesByDim: Object.fromEntries(parts.flatMap(({ j }) => j.settings.dims.map((d) => [d, j.settings.sizes]))),
  table: byDim(parts.flatMap(({ j }) => j.table)),
  summary: byDim(parts.flatMap(({ j }) => j.summary)),
  runs: parts.flatMap(({ j }) => j.runs ?? []).map((r, id) => ({ ...r, id })),
  trainCpuSeconds: parts.reduce((a, { j }) => a + j.trainCpuSeconds, 0),
  analysisCpuSeconds: parts.reduce((a, { j }) => a + j.analysisCpuSeconds, 0),
  seconds: parts.reduce((a, { j }) => a + j.seconds, 0),
  parts: parts.map(({ file, j }) => ({ file, dims: j.settings.dims, seconds: j.seconds,
    cpuSeconds: j.trainCpuSeconds + j.analysisCpuSeconds })),
};
process.stdout.write(JSON.stringify(out) + '\n');
