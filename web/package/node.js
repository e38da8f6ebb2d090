// Node entry of the attnsvm package: createEngine() with the package's own wasm build, so that
//   import { createEngine } from 'attnsvm';  const engine = await createEngine();
// works with no options (node cannot fetch() a file path: the wasm bytes are read here).
// options.moduleName 'attnsvm-experiments' loads the build with the experiment entry points.
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { createEngine as createEngineWith } from './engine/engine.js';

export * from './engine/engine.js';

const require = createRequire(import.meta.url);

export async function createEngine(options = {}) {
  const name = options.moduleName ?? 'attnsvm';
  const factory = options.factory ?? require(`./wasm/${name}.js`);
  const wasmBinary = options.wasmBinary ?? readFileSync(new URL(`./wasm/${name}.wasm`, import.meta.url));
  return createEngineWith({ ...options, factory, wasmBinary });
}
