// Test page: the single-file build (wasm inlined) handed to the worker as text, as an embed does.
import { createWorkerEngine } from '../src/engine/worker-engine.js';

try {
  const moduleSource = await (await fetch(new URL('../wasm/attnsvm.single.js', document.baseURI))).text();
  const engine = await createWorkerEngine({ moduleSource });
  const dataset = await engine.sphere(6, 8, 10, 1);
  const svm = await engine.solve({ dataset, norm: 'fro' });
  const runId = await engine.startRun({ dataset, model: { attention: 'cross', param: 'W', head: 'linear', loss: 'logistic' },
    train: { optimizer: 'ngd', lr: 0.1 }, init: { kind: 'zero' } });
  const frame = await engine.step(runId, 100);
  window.__result = { version: await engine.version(), status: svm.status, iteration: frame.iterationNow };
  engine.terminate();
} catch (e) {
  window.__error = e.message;
}
document.getElementById('out').textContent = JSON.stringify(window.__result ?? window.__error);
