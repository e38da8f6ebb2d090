// The lab's first run, computed by its engine's worker (lab-worker.js) from the page's URL hash as
// soon as the engine is there, before the page's modules have evaluated and asked for it: the same
// requests restart.js makes for a page opened on that hash (the scenario, the sphere generator's
// data, the validation, the token scores, the run and its first frame k = 0), made by the same code
// (state.js, config.js), with the worker's handlers. Their results go to the page with the worker's
// init reply, and the page's requests equal to them are answered from them
// (web/src/engine/first-answers.js); the results are the engine's own for those requests, so the page
// sees the same numbers whether answered from here or not. A page whose requests differ (its hash
// changed meanwhile, a change to restart.js) gets them computed as before, and the run started here
// is cancelled at the page's first run request.
import { decodeHash, datasetShapeError } from './state.js';
import { SCENARIO_INFO } from './scenarios.js';
import { scenarioOptions, sphereArgs, buildConfig, validationKind, effectiveRefs, lpP } from './config.js';
import { decidedSelection, defaultSelection, referenceRequests } from './reference-requests.js';
import { keyOfRequest } from '../engine/first-answers.js';

// The page's first run for this hash, computed in one go with the engine's methods (what the
// 'call' handler does) and the worker's handlers (worker.js: start, step) -> the offer
// (first-answers.js): { answers, runId, frameKey, after }. Stops at the first request that fails
// (the page's own request then fails the same way, computed by the worker). after: the keys of the
// reference SVMs' solves and the selection's analysis, which the page asks for once its run has
// started (restart.js firstDraw, references.js: the same selection, from the first frame or the
// data), so that its first frame has them too (without joint training, whose requests depend on the
// head SVM's answer).
export function startFirstRun(engine, hash, handlers) {
  const answers = [];
  const after = [];
  let runId = null, frameKey = null;
  const keep = (request, result) => {
    // (a copy: the reply transfers its arrays, and other requests made here hold the same objects)
    answers.push([keyOfRequest(request), structuredClone(result)]);
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
    if (!SCENARIO_INFO[state.scenario] || SCENARIO_INFO[state.scenario].own) return { answers, runId, frameKey, after };
    if (state.data && datasetShapeError(state.data)) state = { ...state, data: null };
    let base = call('scenario', state.scenario, scenarioOptions(state));
    if (state.generator === 'sphere') base = { ...base, dataset: call('sphere', ...sphereArgs(state, base.dataset)) };
    const config = buildConfig(state, base);
    call('validate', config.dataset, validationKind(config));
    const scores = call('scores', config.dataset);
    const { dataset, model, train, init, iterations } = config;
    const start = { type: 'start', config: { dataset, model, train, init }, maxIterations: iterations };
    const id = handlers.start(engine, structuredClone(start));
    runId = id;
    keep(start, id);
    const first = { type: 'step', runId: id, k: 0 };
    const frame = handlers.step(engine, first);
    keep(first, frame);
    frameKey = keyOfRequest(first);
    if (!config.train.trainHead) {
      // (the page's selection: reference-follower.js currentSelection of the first frame, else
      // defaultSelection)
      const u = frame.units, f = frame.frames;
      const last = f > 0 && state.selection !== 'optimal'
        ? { selected: frame.selected.subarray((f - 1) * u, f * u), selectedProbability: frame.selectedProbability.subarray((f - 1) * u, f * u) } : null;
      const selection = (last && decidedSelection(last, u)) ?? defaultSelection(config, scores);
      const { solves, analyze } = referenceRequests({ cfg: config, selection, refList: effectiveRefs(state, config), lpP: lpP(state, config) });
      const later = (method, request) => { call(method, request); after.push(answers.at(-1)[0]); };
      for (const [, request] of solves) later('solve', request);
      if (analyze) later('analyze', analyze);
    }
  } catch { /* the page's request computes it (and reports its error) */ }
  return { answers, runId, frameKey, after };
}
