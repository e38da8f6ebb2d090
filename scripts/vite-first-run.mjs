// The lab's first run for the default link (no hash), computed at build time: the module
// 'virtual:lab-first-run' (imported by web/src/lab/engine-early.js) exports the offer that the lab's
// worker computes ahead for that link (web/src/lab/first-run.js, web/src/engine/first-answers.js:
// { answers: [[requestKey, result], ...], runId, frameKey }), made by the same code: the default
// build's glue and wasm (web/public/wasm/attnsvm.js, .wasm) through engine.js, and the worker's own
// handlers (worker.js). The page answers its first run's requests from it at once, so its first
// frame waits neither for the worker's thread, the wasm's compile, nor the engine; the worker still
// computes the same run (the run the page plays on) and its init reply carries its own offer, which
// the page checks against this one (worker-engine.js). Only for the default link: any other hash
// takes the worker's offer as before.
// The offer is computed in a node process of its own (worker.js is a worker's script: it sets
// self.onmessage when evaluated) and written as JavaScript source: numbers with their exact digits
// (and -0, NaN, Infinity), typed arrays with their type; the source is evaluated back and compared
// with the offer, request key by request key, before it is used.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(import.meta.url);
const root = resolve(import.meta.dirname, '..');
const wasmDir = resolve(root, 'web/public/wasm');

// A value of a worker's reply (what structured clone carries here) as JavaScript source.
export function toSource(v) {
  if (v === undefined) return 'void 0';
  if (v === null) return 'null';
  switch (typeof v) {
    case 'number':
      if (Object.is(v, -0)) return '-0';
      if (Number.isNaN(v)) return 'NaN';
      if (!Number.isFinite(v)) return v > 0 ? 'Infinity' : '-Infinity';
      return String(v);
    case 'string': return JSON.stringify(v);
    case 'boolean': return String(v);
    case 'object': break;
    default: throw new Error(`toSource: a ${typeof v}`);
  }
  if (ArrayBuffer.isView(v)) {
    if (!/^(Float64|Float32|Int32|Uint32|Int16|Uint16|Int8|Uint8|Uint8Clamped)Array$/.test(v.constructor.name)) throw new Error(`toSource: a ${v.constructor.name}`);
    return `new ${v.constructor.name}([${Array.from(v, toSource).join(',')}])`;
  }
  if (Array.isArray(v)) return `[${v.map(toSource).join(',')}]`;
  if (Object.getPrototypeOf(v) !== Object.prototype) throw new Error(`toSource: a ${v.constructor?.name ?? 'null-prototype object'}`);
  return `{${Object.keys(v).map((k) => `${JSON.stringify(k)}:${toSource(v[k])}`).join(',')}}`;
}

// The offer for `hash`, computed here (in a process that may set globalThis.self).
export async function computeOffer(hash = '') {
  globalThis.self ??= globalThis; // (worker.js sets self.onmessage when evaluated)
  const { createRequire } = await import('node:module');
  const { readFileSync } = await import('node:fs');
  const { createEngine } = await import('../web/src/engine/engine.js');
  const { handlers } = await import('../web/src/engine/worker.js');
  const { startFirstRun } = await import('../web/src/lab/first-run.js');
  const { untimed } = await import('../web/src/engine/first-answers.js');
  const factory = createRequire(import.meta.url)(resolve(wasmDir, 'attnsvm.js'));
  const engine = await createEngine({ factory, wasmBinary: readFileSync(resolve(wasmDir, 'attnsvm.wasm')) });
  // (a structured clone: what the worker's init reply carries; a step's compute time, which the lab
  // does not use and the worker's offer is compared without (first-answers.js offerKey), set to 0 so
  // that the same engine gives the same module and the build's output does not change from build to build)
  const offer = structuredClone(await startFirstRun(engine, hash, handlers));
  return { ...offer, answers: offer.answers.map(([key, result]) => [key, untimed(result)]) };
}

// The module's source for the offer, checked: evaluated back, it gives the same request keys.
export async function offerModule(offer, hash = '') {
  const { requestKey } = await import('../web/src/engine/first-answers.js');
  if (!offer.answers.length || offer.frameKey === null) throw new Error('firstRunAtBuild: the default link\'s first run failed at build time');
  const src = toSource({ hash, offer });
  const back = new Function(`return ${src};`)().offer;
  if (requestKey(back) !== requestKey(offer)) throw new Error('firstRunAtBuild: the offer\'s source does not give the offer back');
  return `// the default link's first run, computed at build time (scripts/vite-first-run.mjs)\nexport default ${src};\n`;
}

export function firstRunAtBuild() {
  const id = 'virtual:lab-first-run';
  return {
    name: 'attnsvm-first-run-at-build',
    resolveId: (source) => (source === id ? `\0${id}` : null),
    load(resolved) {
      if (resolved !== `\0${id}`) return null;
      for (const f of ['attnsvm.js', 'attnsvm.wasm']) {
        if (!existsSync(resolve(wasmDir, f))) throw new Error(`firstRunAtBuild: ${resolve(wasmDir, f)} is missing (build the module first: bash scripts/build-wasm.sh)`);
        this.addWatchFile(resolve(wasmDir, f));
      }
      return execFileSync(process.execPath, [here], { encoding: 'utf8', maxBuffer: 1 << 24 });
    },
  };
}

// node scripts/vite-first-run.mjs: prints the module (the plugin runs this in a process of its own)
if (process.argv[1] === here) process.stdout.write(await offerModule(await computeOffer('')));
