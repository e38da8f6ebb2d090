// A plan of the core (the fair study, SPEC 6.1, or the regime ladder, 6.2) run by a pool of Web
// Workers (real-worker.js), without DOM. The core's planner lives in the pool's first worker
// (planCreate/planTake/planSubmit: cheap calls); each worker holds the two classes' images once and
// runs one run at a time, advanced in time-budgeted chunks (runAdvance), so that a run can be
// cancelled between chunks and its progress shown. The main thread only sends messages: no task of
// its own beyond a few milliseconds. The plan does not depend on the order in which results arrive,
// so the table is the CLI's for the same settings (real-study.js; tests/wasm/real-study.test.mjs).
//
// runPlanPool({ kind: 'study' | 'ladder', settings, engines: [worker engines (real-engine.js)],
//   images: {train, test} (asset.js's loadPair with the pool), key (e.g. '7v9'), onProgress(p), signal })
//   -> Promise<table> (the core's: study {settings, rows}; ladder {settings, rows, summary})
//   p: { planned, submitted, running: [{id, fraction}], fraction (0..1, of the runs planned so far) }
// A cancelled plan rejects with an AbortError; a failed run rejects with its error (the other runs are
// cancelled, the plan disposed).

const imagesSent = new WeakMap(); // engine -> Set of image keys it holds

async function ensureImages(engine, key, images) {
  let keys = imagesSent.get(engine);
  if (!keys) imagesSent.set(engine, (keys = new Set()));
  if (keys.has(key)) return;
  // copies whose buffers are transferred: cloning the ~3 MB of pixels in postMessage took 60-80 ms of
  // the main thread (a long task); a copy and a transfer take a few
  const own = (set) => ({ rows: set.rows, cols: set.cols, pixels: set.pixels.slice(), labels: set.labels.slice() });
  const train = own(images.train), test = own(images.test);
  await engine.request('setImages', { key, train, test }, [train.pixels.buffer, train.labels.buffer, test.pixels.buffer, test.labels.buffer]);
  keys.add(key);
}

const abortError = () => Object.assign(new Error('cancelled'), { name: 'AbortError' });

export async function runPlanPool({ kind, settings, engines, images, key, onProgress, signal, budgetMs = 120 }) {
  if (!engines?.length) throw new Error('runPlanPool: no workers');
  const coordinator = engines[0];
  for (const e of engines) await ensureImages(e, key, images);  // one at a time: each copy is its own task
  signal?.throwIfAborted();
  const { planId } = await coordinator.request('planCreate', { kind, settings });
  const running = new Map(); // run id -> {fraction, engine, runId}
  let planned = 0, submitted = 0;
  const report = () => {
    const partial = [...running.values()].reduce((a, r) => a + r.fraction, 0);
    onProgress?.({ planned, submitted, running: [...running.entries()].map(([id, r]) => ({ id, fraction: r.fraction })),
      fraction: planned ? Math.min(1, (submitted + partial) / planned) : 0 });
  };

  async function execute(engine, run) {
    const slot = { fraction: 0, engine, runId: null };
    running.set(run.id, slot);
    const { runId } = await engine.request('runStart', { kind, key, run });
    slot.runId = runId;
    for (;;) {
      if (signal?.aborted || stop) { await engine.cancel(runId).catch(() => {}); throw abortError(); }
      const r = await engine.request('runAdvance', { runId, budgetMs });
      const st = r.state;
      slot.fraction = kind === 'study' ? (st.epochs ? st.epoch / st.epochs : 0) : (st.trained ? 0.97 : st.steps ? 0.95 * st.step / st.steps : 0);
      report();
      if (r.done) return r.result;
    }
  }

  const idle = [...engines];
  const inFlight = new Map(); // run id -> Promise<{run, engine, result|error}>
  let failure = null, stop = false;
  try {
    for (;;) {
      if (!failure && !signal?.aborted && idle.length) {
        const { runs, state } = await coordinator.request('planTake', { planId, count: idle.length });
        planned = state.planned;
        for (const run of runs) {
          const engine = idle.pop();
          inFlight.set(run.id, execute(engine, run).then((result) => ({ run, engine, result }), (error) => ({ run, engine, error })));
        }
        report();
      }
      if (!inFlight.size) break;
      const done = await Promise.race(inFlight.values());
      inFlight.delete(done.run.id);
      running.delete(done.run.id);
      idle.push(done.engine);
      if (done.error) { failure ??= done.error; stop = true; continue; }
      if (failure || signal?.aborted) continue;
      const state = await coordinator.request('planSubmit', { planId, result: done.result });
      planned = state.planned;
      submitted = state.submitted;
      report();
    }
    if (failure) throw failure;
    if (signal?.aborted) throw abortError();
    return await coordinator.request('planTable', { planId });
  } finally {
    coordinator.request('planDispose', { planId }).catch(() => {});
  }
}

// The pool's size: the workers run while the page stays responsive (the main thread needs little;
// on 2 cores, 2 workers).
export const poolSize = () => Math.max(1, Math.min(4, (globalThis.navigator?.hardwareConcurrency || 2)));
