// Computes the regularization path of a problem on the three balls in an engine's worker (never
// the main thread), one ball after the other so the first line is drawn while the others compute,
// then the SVM each ball's path points at.
//
// A newer request supersedes an older one. At most one request is in flight: a request made while
// one computes waits as the pending one (a newer one replaces it: a dragged token's intermediate
// positions are dropped, never queued), and the one computing gives way at its next ball (a full
// path) or once its three balls are in (a preview: asked at once, drawn once) — a worker call
// cannot be interrupted — so the answer to a token's last position waits for at most one stale
// answer, not for a debounce delay plus a queue.
//
// Previews (a token being dragged) are warm-started: each ball's radii from the W(R) of the last
// path computed for this model (the previous position's, or the path shown before the drag; the
// engine's warmStart, attnsvm/train/path.hpp), which lies close to the new W(R), so a radius
// certifies in a few Frank-Wolfe iterations instead of up to the preview's cap. The path of a
// dropped token is computed as any other (from W = 0, the engine's defaults): its numbers are the
// engine's path of those tokens (tests/browser/path-view.test.mjs).
//
// createPathComputer({ engine: () => Promise<{ path, solve }>, onUpdate(result), onError(message) })
//   -> { request(problem), cancel(), get busy, get lastMs }
//   problem: { cfg, dataset, lpP, preview? }; result: { problem, paths: {ball: PathPoint[]}, svms: {ball:
//   Solution}, done: bool, ms }
import { PATH_BALLS, pathRequest, svmRequest } from './path-model.js';

// The stacked W(R) of a ball's points (the engine's warmStart), or null.
function stacked(points) {
  if (!points?.length || !points.every((p) => p.W)) return null;
  return Float64Array.from(points.flatMap((p) => p.W.flat()));
}
// Warm starts fit a problem of the same model and sizes (the radii are the schedule's).
const shapeKey = ({ cfg, dataset, lpP }) => JSON.stringify([cfg.model.param, cfg.model.attention, cfg.model.head ?? null,
  cfg.model.loss ?? null, dataset.X.length, dataset.X[0]?.length, dataset.X[0]?.[0]?.length, lpP]);

export function createPathComputer({ engine, onUpdate, onError }) {
  let gen = 0;
  let current = null;   // the request computing ({ problem, my })
  let pending = null;   // the newest request waiting for it
  let lastMs = null;
  let warm = { key: null, paths: {} };  // the last computed W(R) per ball, for previews

  const stale = (my) => my !== gen;
  async function run(problem, my) {
    const t0 = performance.now();
    const result = { problem, paths: {}, svms: {}, done: false, ms: null };
    const key = shapeKey(problem);
    try {
      const api = await engine();
      const { cfg, dataset, lpP } = problem;
      const request = (ball) => {
        const req = pathRequest(cfg, dataset, ball, lpP, { preview: !!problem.preview });
        const guess = problem.preview && warm.key === key ? warm.paths[ball] : null;
        if (guess) req.warmStart = guess;
        return req;
      };
      const keep = (ball, pts) => {
        result.paths[ball] = pts;
        if (warm.key !== key) warm = { key, paths: {} };
        warm.paths[ball] = stacked(pts);
      };
      if (problem.preview) {
        // a preview (a few ms of compute a ball once warm-started): the three balls asked at once
        // (the worker's queue, no round trip between them) and drawn once with their SVMs below
        const all = await Promise.all(PATH_BALLS.map((ball) => api.path(request(ball))));
        if (stale(my)) return;
        PATH_BALLS.forEach((ball, b) => keep(ball, all[b].points));
      } else {
        // a full path: ball by ball, each drawn as it comes (the first line while the others compute)
        for (const ball of PATH_BALLS) {
          if (stale(my)) return;
          const pts = (await api.path(request(ball))).points;
          if (stale(my)) return;
          keep(ball, pts);
          onUpdate({ ...result, paths: { ...result.paths } });
        }
      }
      // the SVMs the paths point at, asked at once
      const solved = await Promise.all(PATH_BALLS.map((ball) => {
        const sel = result.paths[ball].at(-1)?.selection;
        return sel ? api.solve(svmRequest(cfg, dataset, ball, lpP, sel)).catch((e) => ({ status: 'error', message: e.message })) : null;
      }));
      if (stale(my)) return;
      PATH_BALLS.forEach((ball, b) => { if (solved[b]) result.svms[ball] = solved[b]; });
      result.done = true;
      result.ms = lastMs = performance.now() - t0;
      onUpdate(result);
    } catch (e) {
      if (!stale(my)) onError(e.message ?? String(e));
    }
  }

  // Runs the request, then the pending one if any (the newest), until none is left.
  async function drain(next) {
    current = next;
    while (current) {
      await run(current.problem, current.my);
      current = pending;
      pending = null;
    }
  }

  return {
    request(problem) {
      const next = { problem, my: ++gen };
      if (current) pending = next;  // (the one computing stops at its next ball: stale)
      else drain(next);
    },
    cancel() { gen++; pending = null; },
    get busy() { return current !== null; },
    get lastMs() { return lastMs; },
  };
}
