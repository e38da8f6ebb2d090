// The lab's first run, computed by its engine's worker (lab-worker.js) from the page's URL hash as
// soon as the engine is there, before the page's modules have evaluated and asked for it, and at
// build time for the default link (scripts/vite-first-run.mjs): the run controller's pipeline
// (run.js, the one restart.js and the embeds run: the scenario, the sphere generator's data, the
// validation, the token scores, the run and its first frame k = 0, the reference SVMs of that
// frame's selection), with the engine's methods and the worker's handlers as its client. Their
// results go to the page with the worker's init reply, and the page's requests equal to them are
// answered from them (web/src/engine/first-answers.js); the results are the engine's own for those
// requests, so the page sees the same numbers whether answered from here or not. A page whose
// requests differ (its hash changed meanwhile) gets them computed as before, and the run started
// here is cancelled at the page's first run request.
import { decodeHash } from './state.js';
import { SCENARIO_INFO } from './scenarios.js';
import { createRunController } from './run.js';
import { keyOfRequest } from '../engine/first-answers.js';

// The page's first run for this hash, computed with the engine's methods (what the 'call' handler
// does) and the worker's handlers (worker.js: start, step) -> Promise of the offer
// (first-answers.js): { answers, runId, frameKey, after }. Stops at the first request that fails
// (the page's own request then fails the same way, computed by the worker). after: the keys of the
// answers to requests the page makes once its run has started (the reference SVMs' solves and the
// selection's analysis). The engine's methods answer at once: the offer is complete when the
// returned promise settles, without a task in between.
export async function startFirstRun(engine, hash, handlers) {
  const answers = [];
  const after = [];
  let runId = null, frameKey = null;
  const keep = (request, result) => {
    // (a copy: the reply transfers its arrays, and other requests made here hold the same objects)
    answers.push([keyOfRequest(request), structuredClone(result)]);
    if (frameKey !== null) after.push(answers.at(-1)[0]);
  };
  const call = (method) => (...args) => {
    const request = { type: 'call', method, args };
    // (what handlers.call does, with a copy of the arguments, as the page's request brings them)
    const result = engine[method](...structuredClone(args));
    keep(request, result);
    return result;
  };
  // the engine client's shape (engine-client.js), answering from here
  const client = {
    scenario: call('scenario'), sphere: call('sphere'), validate: call('validate'), scores: call('scores'),
    solve: call('solve'), analyze: call('analyze'),
    startRun(config, maxIterations) {
      const start = { type: 'start', config, maxIterations };
      runId = handlers.start(engine, structuredClone(start));
      keep(start, runId);
      return runId;
    },
    step(id, k) {
      const request = { type: 'step', runId: id, k };
      const frame = handlers.step(engine, request);
      keep(request, frame);
      frameKey = keyOfRequest(request);
      return frame;
    },
  };

  try {
    const { state } = decodeHash(hash);
    if (!SCENARIO_INFO[state.scenario] || SCENARIO_INFO[state.scenario].own) return { answers, runId, frameKey, after };
    const run = await createRunController().start(client, state);
    await run.references;
  } catch { /* the page's request computes it (and reports its error) */ }
  return { answers, runId, frameKey, after };
}
