// The real-images study and regime ladder in wasm with a pool of worker threads under node: the same
// structure a page uses (a coordinator holds the core's planner, workers hold the module and the two
// classes' images and run one run at a time in chunks), timed. Prints the wall time, the runs and the
// table's headline numbers; --out writes the table (the same JSON rows as the CLI's "table").
//
//   node scripts/bench-real-study.mjs --what ladder [--workers 2] [--settings '{...}'] [--out f.json]
//   node scripts/bench-real-study.mjs --what study --settings '{"tasks":"7v9","seeds":5,...}'
//
// Needs the attnsvm-experiments build in web/public/wasm (npm run build or scripts/build-wasm.sh)
// and Debian's dataset-fashion-mnist.
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadEngine } from '../tests/wasm/helpers.mjs';
import { loadPair } from '../web/src/real/asset.js';
import { realImagesFiles, fetchFromFiles } from './make-real-images-asset.mjs';
import {
  RealStudyPlanner, RealLadderPlanner, executeStudyRun, executeLadderRun, runPlan,
} from '../web/src/engine/real-study.js';

const DIR = process.env.ATTNSVM_FASHION_MNIST || '/usr/share/datasets/fashion-mnist';

// The experiments module of ATTNSVM_WASM_DIR, else web/public/wasm (tests/wasm/helpers.mjs).
const loadModule = async () => (await loadEngine('attnsvm-experiments')).module;

// A worker reads the site's asset files (gzipped class files) that the main thread made once, as a page
// fetches them: making them (reading and gzipping all of Fashion-MNIST, which the site's build does) in
// every worker inside the timing cost each worker about 4 s of a ladder's wall.
async function loadImages(classA, classB) {
  return loadPair('http://x/', classA, classB, { fetchImpl: fetchFromFiles(workerData.files), pool: true });
}

if (!isMainThread) {
  // A worker: the module and the images of each task it is asked for; one run at a time.
  const M = await loadModule();
  const images = new Map();
  parentPort.on('message', async ({ kind, run }) => {
    try {
      const key = `${run.classA}v${run.classB}`;
      if (!images.has(key)) images.set(key, await loadImages(run.classA, run.classB));
      const pair = images.get(key);
      const result = kind === 'study' ? await executeStudyRun(M, pair, run, { chunk: 10 })
        : await executeLadderRun(M, pair.train, run, { chunk: 5000 });
      parentPort.postMessage({ result });
    } catch (e) {
      parentPort.postMessage({ error: String(e?.message ?? e) });
    }
  });
  parentPort.postMessage({ ready: true });
} else {
  const args = Object.fromEntries(process.argv.slice(2).reduce((a, x, i, all) => (x.startsWith('--') ? [...a, [x.slice(2), all[i + 1]]] : a), []));
  const what = args.what ?? 'ladder';
  const workers = Number(args.workers ?? 2);
  const settings = args.settings ? JSON.parse(args.settings) : {};
  const M = await loadModule();
  const planner = what === 'study' ? new RealStudyPlanner(M, settings) : new RealLadderPlanner(M, settings);
  const files = realImagesFiles(DIR);  // the site's build step, before the timing
  const t0 = performance.now();
  const pool = await Promise.all(Array.from({ length: workers }, () => new Promise((ready) => {
    const w = new Worker(fileURLToPath(import.meta.url), { workerData: { files } });
    w.once('message', () => ready(w));
  })));
  const idle = [...pool];
  const waiting = [];
  const execute = (run) => new Promise((resolveRun, rejectRun) => {
    const start = (w) => {
      w.once('message', (m) => {
        idle.push(w);
        if (waiting.length) waiting.shift()(idle.pop());
        if (m.error) rejectRun(new Error(m.error)); else resolveRun(m.result);
      });
      w.postMessage({ kind: what, run });
    };
    if (idle.length) start(idle.pop()); else waiting.push(start);
  });
  let last = 0;
  const table = await runPlan(planner, execute, {
    concurrency: workers,
    onProgress: (p) => {
      if (performance.now() - last > 5000) { last = performance.now(); process.stderr.write(`${what}: ${p.submitted}/${p.planned}\n`); }
    },
  });
  const seconds = (performance.now() - t0) / 1000;
  for (const w of pool) await w.terminate();
  const runs = planner.progress().submitted;
  console.log(`${what}: ${runs} runs, ${seconds.toFixed(1)} s wall with ${workers} worker threads (wasm, node ${process.version})`);
  if (what === 'study') {
    for (const r of table.rows) {
      console.log(`  ${r.task} ${r.setting} ${r.method}: lr ${r.lr.toPrecision(3)} test ${r.testAccuracyBest.mean.toFixed(4)} +- ${r.testAccuracyBest.std.toFixed(4)}`);
    }
  } else {
    for (const s of table.summary) console.log(`  ${s.head} ${s.method}: largest n with corr >= target ${s.largestN}`);
  }
  const arrays = (k, v) => (ArrayBuffer.isView(v) ? Array.from(v) : v);
  if (args.out) writeFileSync(args.out, JSON.stringify({ seconds, workers, runs, settings: table.settings, table: table.rows, summary: table.summary }, arrays, 1));
  planner.dispose();
}
