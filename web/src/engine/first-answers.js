// Answers computed ahead by the engine's worker (the lab's first run, web/src/lab/first-run.js),
// handed to the page with the worker's init reply, and given by the page's worker front end
// (worker-engine.js) to its requests that are equal to the ones they answer, once each, without a
// round trip to the worker. The results are the engine's own for those requests (computed by the
// worker's handlers, structured-cloned as a reply is), so a request answered here gets what the
// worker would have replied.
//   offer: { answers: [[requestKey, result], ...], runId (the run started ahead, or null),
//            frameKey (the key of that run's first step, k = 0), after (the keys of answers for
//            requests the page makes once its run has started: kept past its 'start') }

// A request (type and fields, without its id) as a string; equal strings mean requests with equal
// values: numbers with their sign of zero, typed arrays with their type, undefined fields apart from
// absent ones, object keys in any order.
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
export const keyOfRequest = ({ id: _id, ...request }) => requestKey(request);

// Two offers of the same first run (the one given with the page, scripts/vite-first-run.mjs, and the
// worker's): the same requests, run and results, value for value, apart from a step's compute time.
// (a step's computeMs, a solve's seconds, also those nested in an analysis: set to 0)
export function untimed(result) {
  if (!result || typeof result !== 'object' || ArrayBuffer.isView(result)) return result;
  if (Array.isArray(result)) return result.map(untimed);
  return Object.fromEntries(Object.entries(result).map(([k, v]) => [k, k === 'computeMs' || k === 'seconds' ? 0 : untimed(v)]));
}
export const offerKey = (offer) => requestKey({ ...offer, answers: offer.answers.map(([key, result]) => [key, untimed(result)]) });

// createAnswers(offer, cancelRun(runId)) -> { answer(request) -> {result} | undefined, stats }.
// The page's first run request ('start') ends the offer: answered from it (the run started ahead is
// the page's now; only its first frame stays on offer), or not (that run is cancelled, the rest
// dropped). Any other request on the run started ahead takes its first frame off the offer.
export function createAnswers(offer, cancelRun) {
  const ready = new Map(offer?.answers ?? []);
  let runId = offer?.runId ?? null;
  const frameKey = offer?.frameKey ?? null;
  const after = new Set(offer?.after ?? []);  // (answers for requests made once the run has started)
  const stats = { offered: ready.size, hits: 0 };
  return {
    stats,
    answer(request) {
      if (!ready.size) return undefined;
      const key = keyOfRequest(request);
      const hit = ready.has(key);
      const result = ready.get(key);
      ready.delete(key);
      if (hit) stats.hits++;
      if (request.type === 'start') {
        if (hit) { for (const k of ready.keys()) if (k !== frameKey && !after.has(k)) ready.delete(k); } else {
          ready.clear();
          if (runId !== null) cancelRun(runId);
        }
        runId = null;
      } else if (!hit && request.runId !== undefined && request.runId === offer?.runId) {
        ready.delete(frameKey);
      }
      return hit ? { result } : undefined;
    },
  };
}
