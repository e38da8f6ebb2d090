// The lab's engine, started by the first import of app.js: module scripts evaluate their imports in
// order, so the worker is created (and fetches and compiles the wasm) while the rest of the lab's
// code is still being evaluated, instead of after it.
import { createEngineClient } from './engine-client.js';

export const earlyEngine = createEngineClient();
earlyEngine.catch(() => {}); // reported where it is awaited (app.js's boot)
