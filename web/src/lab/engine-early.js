// The lab's engine, started by the first import of app.js: module scripts evaluate their imports in
// order, so the worker is created (and fetches and compiles the wasm) while the rest of the lab's
// code is still being evaluated, instead of after it. In the built page the worker was already
// started by the HTML (early-worker.js): then it is adopted here.
import { createEngineClient } from './engine-client.js';

const early = typeof window !== 'undefined' ? window.__attnsvmEarlyWorker : undefined;
export const earlyEngine = createEngineClient(early ? { worker: early } : undefined);
earlyEngine.catch(() => {}); // reported where it is awaited (app.js's boot)
