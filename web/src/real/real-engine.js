// The page side of a real-images worker (real-worker.js): the engine's worker front end
// (worker-engine.js) over the attnsvm-experiments module, plus the three real-images requests.
// The caller makes the worker (new Worker(new URL('./real-worker.js', import.meta.url)) in the site,
// an inlined one in the single-script embed), so that each bundle decides how the file ships.
import { createWorkerEngine } from '../engine/worker-engine.js';

// options: { worker (running real-worker.js), baseUrl? (folder of attnsvm-experiments.js/.wasm) }
export async function createRealEngine({ worker, baseUrl } = {}) {
  const we = await createWorkerEngine({ worker, baseUrl, moduleName: 'attnsvm-experiments' });
  return Object.assign(we, {
    // transfer: the request's buffers handed to the worker (then unusable here): a structured clone of
    // the images (1.6 MB at the default sizes) cost the page's main thread 20-100 ms, a transfer ~0
    realStart: (request, { maxIterations, transfer = [] } = {}) => we.request('realStart', { request, maxIterations }, transfer),
    realAdvance: (runId, { budgetMs = 12, every = 1, rows } = {}) => we.request('realAdvance', { runId, budgetMs, every, rows }),
    realCall: (runId, method, ...args) => we.request('realCall', { runId, method, args }),
  });
}
