// Test page (tests/browser/worker-csp.test.mjs): the engine in its classic worker under a strict
// CSP runs a solve and 1000 training steps through the player, and the main thread stays free.
import { createWorkerEngine } from '../src/engine/worker-engine.js';

const out = { violations: [] };
document.addEventListener('securitypolicyviolation', (e) => out.violations.push(`${e.violatedDirective} ${e.blockedURI}`));
const show = () => { document.getElementById('out').textContent = JSON.stringify(out, null, 2); };

// Longest gap between animation frames while the worker trains: the main thread is never blocked.
let lastFrame = 0, longestGapMs = 0, watching = true;
const watch = (t) => {
  if (lastFrame) longestGapMs = Math.max(longestGapMs, t - lastFrame);
  lastFrame = t;
  if (watching) requestAnimationFrame(watch);
};

try {
  // Evidence that the policy is in force on this page: string evaluation is refused.
  try { out.evalBlocked = !globalThis.Function('return true')(); } catch { out.evalBlocked = true; }
  const engine = await createWorkerEngine({ baseUrl: new URL('../wasm/', document.baseURI).href });
  out.version = await engine.version();
  const dataset = await engine.sphere(6, 8, 10, 1);
  const svm = await engine.solve({ dataset, norm: 'fro' });
  out.solve = { status: svm.status, gap: svm.gap, support: svm.support.length };
  const runId = await engine.startRun({
    dataset,
    model: { attention: 'cross', param: 'W', head: 'linear', loss: 'logistic' },
    train: { optimizer: 'ngd', lr: 0.1 },
    init: { kind: 'zero' },
    references: [{ name: 'fro', W: svm.W }],
  }, { maxIterations: 1000 });
  requestAnimationFrame(watch);
  let frames = 0, recorded = 0, maxComputeMs = 0, last = null;
  await new Promise((resolve, reject) => engine.play(runId, (f) => {
    frames++;
    recorded += f.frames;
    maxComputeMs = Math.max(maxComputeMs, f.computeMs);
    out.computeMs = [...(out.computeMs ?? []), [f.taken, Math.round(f.computeMs * 10) / 10]];
    last = f;
    if (f.done) resolve();
  }, reject));
  watching = false;
  out.play = {
    frames, recorded, maxComputeMs, longestGapMs,
    iteration: last.iteration[last.iteration.length - 1],
    stepsPerFrame: last.stepsPerFrame,
    corr: last.corr[last.corr.length - 1],
    typed: last.loss instanceof Float64Array,
  };
  await engine.reset(runId);
  const again = await engine.step(runId, 5);
  out.afterReset = Array.from(again.iteration);
  try { await engine.solve({ dataset, norm: 'lp', p: 1 }); } catch (e) { out.workerError = `${e.name}: ${e.message}`; }
  await engine.cancel(runId);
  try { await engine.step(runId, 1); } catch (e) { out.afterCancel = e.message; }
  engine.terminate();
  window.__result = out;
} catch (e) {
  out.error = e.message;
  window.__error = e.message;
}
show();
