// Computes the regularization path of a problem on the three balls in an engine's worker (never
// the main thread), one ball after the other so the first line is drawn while the others compute,
// then the SVM each ball's path points at. A newer request supersedes an older one: the older
// one's answers are dropped as they come (a worker call cannot be interrupted, so at most one
// stale ball finishes), and requests made in quick succession (a token being dragged) are
// debounced to the last one.
//
// createPathComputer({ engine: () => Promise<{ path, solve }>, onUpdate(result), onError(message),
//   debounceMs }) -> { request(problem, { debounce }), cancel(), get busy, get lastMs }
//   problem: { cfg, dataset, lpP, preview? }; result: { problem, paths: {ball: PathPoint[]}, svms: {ball:
//   Solution}, done: bool, ms }
import { PATH_BALLS, pathRequest, svmRequest } from './path-model.js';

export function createPathComputer({ engine, onUpdate, onError, debounceMs = 60 }) {
  let gen = 0;
  let timer = null;
  let running = 0;
  let lastMs = null;

  async function run(problem, my) {
    const t0 = performance.now();
    running++;
    try {
      const api = await engine();
      const { cfg, dataset, lpP } = problem;
      const result = { problem, paths: {}, svms: {}, done: false, ms: null };
      for (const ball of PATH_BALLS) {
        const pts = (await api.path(pathRequest(cfg, dataset, ball, lpP, { preview: !!problem.preview }))).points;
        if (my !== gen) return;
        result.paths[ball] = pts;
        onUpdate({ ...result, paths: { ...result.paths } });
      }
      for (const ball of PATH_BALLS) {
        const sel = result.paths[ball].at(-1)?.selection;
        if (!sel) continue;
        try {
          result.svms[ball] = await api.solve(svmRequest(cfg, dataset, ball, lpP, sel));
        } catch (e) {
          result.svms[ball] = { status: 'error', message: e.message };
        }
        if (my !== gen) return;
      }
      result.done = true;
      result.ms = lastMs = performance.now() - t0;
      onUpdate(result);
    } catch (e) {
      if (my === gen) onError(e.message ?? String(e));
    } finally {
      running--;
    }
  }

  return {
    request(problem, { debounce = false } = {}) {
      const my = ++gen;
      clearTimeout(timer);
      if (debounce) timer = setTimeout(() => run(problem, my), debounceMs);
      else run(problem, my);
    },
    cancel() { gen++; clearTimeout(timer); },
    get busy() { return running > 0; },
    get lastMs() { return lastMs; },
  };
}
