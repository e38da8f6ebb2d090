// The lab's first run, started by its engine's worker (lab-worker.js) from the page's URL hash as
// soon as the engine is there, before the page's modules have evaluated and asked for it: the same
// requests restart.js makes for a page opened on that hash (the scenario, the sphere generator's
// data, the validation, the token scores, the run and its first frame k = 0), made by the same code
// (state.js, config.js). Their results wait in the worker; a request of the page that is equal to
// one of them (same type, same arguments, compared value by value) is answered with its result,
// once, instead of being computed again. The results are the engine's own for those arguments, so the
// page sees the same numbers whether it is answered from here or not; a page whose requests differ
// (its hash changed meanwhile, another helper's change to restart.js) gets them computed as before,
// and the speculative run is dropped at the page's first run request.
import { decodeHash, datasetShapeError } from './state.js';
import { SCENARIO_INFO } from './scenarios.js';
import { scenarioOptions, sphereArgs, buildConfig, validationKind } from './config.js';

// A request (without its id) as a string; equal strings mean requests with equal values: numbers
// with their sign of zero, typed arrays with their type, undefined fields apart from absent ones,
// object keys in any order.
export function requestKey(value) {
  if (value === undefined) return 'u';
  if (value === null) return 'n';
  switch (typeof value) {
    case 'number': return Object.is(value, -0) ? '-0' : String(value);
    case 'string': return JSON.stringify(value);
    case 'boolean': return value ? 't' : 'f';
    case 'bigint': return `${value}n`;
    case 'object': break;
    default: throw new Error(`requestKey: a ${typeof value} in a request`);
  }
  if (ArrayBuffer.isView(value)) return `${value.constructor.name}[${Array.from(value, requestKey).join(',')}]`;
  if (Array.isArray(value)) return `[${value.map(requestKey).join(',')}]`;
  return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${requestKey(value[k])}`).join(',')}}`;
}
const keyOf = ({ id: _id, ...request }) => requestKey(request);

// The page's first run for this hash, computed with the worker's handlers (worker.js: start, step;
// the engine's methods for its calls), in one go; returns the answers: { answer(request) -> {result} | undefined (worker.js's
// interceptRequests), size, hits }. Stops at the first request that fails (the page's own request
// then fails the same way, computed by the page's request).
export function startFirstRun(engine, hash, handlers) {
  const ready = new Map();        // request key -> result (each answered once)
  let runId = null;               // the speculative run, until the page's first run request
  let frameKey = null;            // its first frame's request, until the page's next request on that run
  const stats = { hits: 0, misses: 0, speculated: 0 };
  const keep = (request, result) => {
    // (a copy: the reply transfers its arrays, and other requests made here hold the same objects)
    ready.set(keyOf(request), structuredClone(result));
    stats.speculated++;
  };
  const call = (method, ...args) => {
    const request = { type: 'call', method, args };
    // (what handlers.call does, with a copy of the arguments, as the page's request brings them)
    const result = engine[method](...structuredClone(args));
    keep(request, result);
    return result;
  };

  try {
    let { state } = decodeHash(hash);
    if (!SCENARIO_INFO[state.scenario] || SCENARIO_INFO[state.scenario].own) return answers();
    if (state.data && datasetShapeError(state.data)) state = { ...state, data: null };
    let base = call('scenario', state.scenario, scenarioOptions(state));
    if (state.generator === 'sphere') base = { ...base, dataset: call('sphere', ...sphereArgs(state, base.dataset)) };
    const config = buildConfig(state, base);
    call('validate', config.dataset, validationKind(config));
    call('scores', config.dataset);
    const { dataset, model, train, init, iterations } = config;
    const start = { type: 'start', config: { dataset, model, train, init }, maxIterations: iterations };
    runId = handlers.start(engine, structuredClone(start));
    keep(start, runId);
    const first = { type: 'step', runId, k: 0 };
    keep(first, handlers.step(engine, first));
    frameKey = keyOf(first);
  } catch { /* the page's request computes it (and reports its error) */ }
  return answers();

  function drop() {
    if (runId !== null) handlers.cancel(engine, { runId });
    runId = null; frameKey = null;
    ready.clear();
  }

  function answers() {
    return {
      stats,
      answer(request) {
        if (!ready.size) return undefined;
        const key = keyOf(request);
        const hit = ready.has(key);
        const result = ready.get(key);
        ready.delete(key);
        if (hit) stats.hits++; else stats.misses++;
        if (request.type === 'start') {
          // the page's first run: the speculative one, or another (the speculative run is dropped)
          if (!hit) drop();
          else for (const k of ready.keys()) if (k !== frameKey) ready.delete(k);
        } else if (!hit && runId !== null && request.runId === runId) {
          ready.delete(frameKey); // another request on the run: its first frame is no longer the next
        }
        return hit ? { result } : undefined;
      },
    };
  }
}
